/**
 * Consent as the preview simulates and shows it. The banner's state is the
 * OneTrust-style active-groups string (window.OnetrustActiveGroups, e.g.
 * ",C0001,C0002,"); null means the banner has not recorded a choice yet
 * (pre-opt-in). A category is granted by the same rule as the runtime's
 * (runtime-modules/consent/active-groups.ts groupsGrant; a unit test keeps
 * the two in step): an internal site grants everything; otherwise some
 * active group starts with the required id ("C") and the category's own
 * group id is active. Kept here rather than imported so that the app does
 * not depend on the runtime's file layout.
 */
import type { PreviewConfig } from "./bundle-config";

export const CATEGORIES = ["performance", "functional", "marketing", "programFunctional", "programMarketing"] as const;
export type Category = (typeof CATEGORIES)[number];

/** The strictly-necessary group the banner always lists once a choice is recorded. */
export const NECESSARY_GROUP = "C0001";

/** The active-groups string for these opted-in categories (a recorded choice: the necessary group is always there). */
export function groupsFor(categories: readonly string[], groups: Record<string, string>): string {
  const ids = [NECESSARY_GROUP];
  for (const c of CATEGORIES) if (categories.includes(c) && groups[c] && !ids.includes(groups[c])) ids.push(groups[c]);
  return `,${ids.join(",")},`;
}

/** The categories an active-groups string opts in to, by the bundle's group ids. */
export function categoriesOf(activeGroups: string | null | undefined, groups: Record<string, string>): Category[] {
  if (typeof activeGroups !== "string") return [];
  const active = activeGroups.split(",").map((g) => g.trim());
  return CATEGORIES.filter((c) => groups[c] && active.includes(groups[c]));
}

export function allows(category: string, activeGroups: string | null | undefined, config: Pick<PreviewConfig, "consent" | "site">): boolean {
  if (config.site.internal) return true;
  if (typeof activeGroups !== "string") return false;
  const ids = config.consent.groups;
  const active = activeGroups
    .split(",")
    .map((g) => g.trim())
    .filter(Boolean);
  const required = ids.required ?? "C";
  return active.some((g) => g.indexOf(required) === 0) && !!ids[category] && active.includes(ids[category]);
}

export interface ConsentRow {
  category: Category;
  group: string;
  allowed: boolean;
}

export interface ConsentView {
  /** pre-opt-in (no banner choice), opted-in (a recorded choice) or internal (everything allowed). */
  phase: "pre-opt-in" | "choice recorded" | "internal site";
  activeGroups: string | null;
  rows: ConsentRow[];
  gpc: boolean;
}

export function consentView(activeGroups: string | null | undefined, gpc: boolean, config: Pick<PreviewConfig, "consent" | "site">): ConsentView {
  const groups = config.consent.groups;
  return {
    phase: config.site.internal ? "internal site" : typeof activeGroups === "string" ? "choice recorded" : "pre-opt-in",
    activeGroups: activeGroups ?? null,
    rows: CATEGORIES.map((category) => ({ category, group: groups[category] ?? "?", allowed: allows(category, activeGroups, config) })),
    gpc,
  };
}

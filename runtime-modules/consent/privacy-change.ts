import type { ConsentCategory } from "../../generator/config/bundle-config.js";
import type { ConsentState } from "./state";
import { CATEGORIES } from "./categories";
import { categoryAllowed } from "./state";

/** "Privacy consent change: status, region, type, action source." One record per category whose consent changed. */
export interface PrivacyConsentChange {
  /** The category's consent after the change. */
  status: "in" | "out";
  /** The banner's region (geolocation), "No Data" when unknown. */
  region: string;
  /** The category that changed. */
  type: ConsentCategory;
  /** What caused it, e.g. "banner", "preference-center", "internal-site". */
  actionSource: string;
}

/**
 * The privacy consent change records between two banner states, in category
 * order; none when nothing changed (for example a repeated groups report).
 */
export function privacyConsentChanges(prev: ConsentState, next: ConsentState, context: { region?: string; actionSource: string }): PrivacyConsentChange[] {
  const region = context.region || "No Data";
  const changes: PrivacyConsentChange[] = [];
  for (const type of CATEGORIES) {
    const after = categoryAllowed(next, type);
    if (after !== categoryAllowed(prev, type)) changes.push({ status: after ? "in" : "out", region, type, actionSource: context.actionSource });
  }
  return changes;
}

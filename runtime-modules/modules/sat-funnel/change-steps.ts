/**
 * The change-registration steps a student went through, kept in session
 * storage (spec section 4): changereg-start and changereg-complete clear the
 * list; change-profile-start, change-datetc-choosecenter and
 * change-photo-review append profile, test-center and photo.
 *
 * The wiring reads the list for the changereg-complete record before
 * reducing that page name (which clears it).
 */

/** Session storage key of the list (placeholder to confirm). */
export const CHANGE_STEPS_KEY = "sitetags:changereg-steps";

export const CHANGE_STEP_PAGES = {
  "change-profile-start": "profile",
  "change-datetc-choosecenter": "test-center",
  "change-photo-review": "photo",
} as const;

export type ChangeStep = (typeof CHANGE_STEP_PAGES)[keyof typeof CHANGE_STEP_PAGES];

/** The list after this page: cleared, with the page's step appended (each step once), or unchanged. Never mutates `steps`. */
export function nextChangeSteps(steps: readonly ChangeStep[], pageName: string): ChangeStep[] {
  if (pageName === "changereg-start" || pageName === "changereg-complete") return [];
  const step = Object.prototype.hasOwnProperty.call(CHANGE_STEP_PAGES, pageName) ? CHANGE_STEP_PAGES[pageName as keyof typeof CHANGE_STEP_PAGES] : null;
  return step && steps.indexOf(step) < 0 ? steps.concat(step) : steps.slice();
}

/** The stored list ("profile,photo"); unknown or repeated entries and garbage are dropped. */
export function parseChangeSteps(stored: string | null | undefined): ChangeStep[] {
  const out: ChangeStep[] = [];
  for (const s of (stored || "").split(",")) if ((s === "profile" || s === "test-center" || s === "photo") && out.indexOf(s) < 0) out.push(s);
  return out;
}

/** The list as stored in session storage. */
export function serializeChangeSteps(steps: readonly ChangeStep[]): string {
  return steps.join(",");
}

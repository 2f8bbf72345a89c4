import { CHANGE_STEPS_KEY, parseChangeSteps, serializeChangeSteps, type ChangeStep } from "./change-steps";

/**
 * The change-registration step page names of change-steps.ts for a page of
 * the changereg flow: its first page (terms) starts a change
 * ("changereg-start"), order-complete ends it ("changereg-complete"), any
 * other page is "change-" + page (change-profile-start, ...). Null outside
 * the changereg flow. Which page starts a change is a placeholder to confirm.
 */
export function changeStepPage(flow: string, page: string): string | null {
  if (flow !== "changereg") return null;
  return page === "terms" ? "changereg-start" : page === "order-complete" ? "changereg-complete" : "change-" + page;
}

/** The change-registration steps kept in session storage ([] without storage: private mode, a sandboxed frame). */
export function readChangeSteps(win: Window): ChangeStep[] {
  try {
    return parseChangeSteps(win.sessionStorage.getItem(CHANGE_STEPS_KEY));
  } catch (e) {
    return [];
  }
}

/** Stores the list (an empty list removes the key); storage failures are ignored (the steps are lost, tracking carries on). */
export function writeChangeSteps(win: Window, steps: readonly ChangeStep[]): void {
  try {
    if (steps.length) win.sessionStorage.setItem(CHANGE_STEPS_KEY, serializeChangeSteps(steps));
    else win.sessionStorage.removeItem(CHANGE_STEPS_KEY);
  } catch (e) {
    // ignored
  }
}

/**
 * SAT funnel states (spec section 4): seat-hold alerts, photo steps, fee
 * waiver, the funnel widget's actions and the dashboard page state.
 */

/** Section 9: seat-hold alerts at 20, 5 and 1 minutes (then expired). */
export const SEAT_HOLD_ALERTS = [20, 5, 1] as const;
export type SeatHoldAlert = 20 | 5 | 1 | "expired";

/**
 * The alert due with this many minutes left on the seat hold: expired at 0
 * or less, else the smallest threshold not below the time left (exactly 20
 * → 20, 19.5 → 20, 5 → 5, 0.5 → 1); null above 20 minutes or for a non-number.
 */
export function seatHoldAlert(minutesLeft: number): SeatHoldAlert | null {
  if (typeof minutesLeft !== "number" || minutesLeft !== minutesLeft) return null;
  if (minutesLeft <= 0) return "expired";
  for (let i = SEAT_HOLD_ALERTS.length - 1; i >= 0; i--) if (minutesLeft <= SEAT_HOLD_ALERTS[i]) return SEAT_HOLD_ALERTS[i];
  return null;
}

/** The alert to fire now: the one due, unless it already fired on this hold (each alert once). */
export function nextSeatHoldAlert(minutesLeft: number, fired: readonly SeatHoldAlert[]): SeatHoldAlert | null {
  const alert = seatHoldAlert(minutesLeft);
  return alert !== null && fired.indexOf(alert) < 0 ? alert : null;
}

export const PHOTO_STEPS = ["exists", "uploaded", "choice-saved"] as const;
export type PhotoStep = (typeof PHOTO_STEPS)[number];
export interface PhotoState {
  exists: boolean;
  uploaded: boolean;
  saved: boolean;
}

/** Photo steps: exists, uploaded, choice saved ("saved resets uploaded"). Never mutates `state`. */
export function nextPhotoState(state: PhotoState, step: string): PhotoState {
  if (step === "exists") return { exists: true, uploaded: state.uploaded, saved: state.saved };
  if (step === "uploaded") return { exists: state.exists, uploaded: true, saved: state.saved };
  if (step === "choice-saved") return { exists: state.exists, uploaded: false, saved: true };
  return { exists: state.exists, uploaded: state.uploaded, saved: state.saved };
}

/** Fee waiver: claimed code, offered benefit, claimed benefit. */
export const FEE_WAIVER_STATES = ["claimed-code", "offered-benefit", "claimed-benefit"] as const;
export type FwType = "code" | "benefit" | "none";

/** The registration's fwType: "code" when a code was claimed, else "benefit" when the benefit was claimed (offered only does not count), else "none". */
export function fwType(states: readonly string[] | null | undefined): FwType {
  const s = states || [];
  return s.indexOf("claimed-code") >= 0 ? "code" : s.indexOf("claimed-benefit") >= 0 ? "benefit" : "none";
}

/** Section 4: SAT funnel widget actions. */
export const FUNNEL_WIDGET_ACTIONS = ["code-enter", "tos-defer", "tos-accept", "tos-decline"] as const;
export type FunnelWidgetAction = (typeof FUNNEL_WIDGET_ACTIONS)[number];

export function isFunnelWidgetAction(action: unknown): action is FunnelWidgetAction {
  return (FUNNEL_WIDGET_ACTIONS as readonly unknown[]).indexOf(action) >= 0;
}

/** Section 4: dashboard page states. */
export const DASHBOARD_STATES = ["no-data", "display-error", "no-reg-no-score"] as const;
export type DashboardState = (typeof DASHBOARD_STATES)[number];

/**
 * The dashboard page state: display-error when the page reports an error,
 * no-data when it has no data, no-reg-no-score when the student has neither
 * registrations nor scores; null for a dashboard with content.
 */
export function dashboardState(page: { error?: boolean; data?: { registrations?: number; scores?: number } | null }): DashboardState | null {
  if (page.error) return "display-error";
  const d = page.data;
  if (!d) return "no-data";
  return !d.registrations && !d.scores ? "no-reg-no-score" : null;
}

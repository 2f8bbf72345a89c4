import type { ConsentState } from "./state";
import { categoryAllowed } from "./state";

/** "SDK consent: pending (default for our sites: events are queued, nothing is sent), in, out." */
export type SdkConsent = "pending" | "in" | "out";

/** A consent object of the set-consent body (Adobe standard 1.0). */
export interface AdobeConsentV1 {
  standard: "Adobe";
  version: "1.0";
  value: { general: "in" | "out" };
}

/**
 * The analytics SDK's consent from the banner state: performance consent
 * (or an internal site) is in; an explicit opt-out (the visitor closed the
 * banner after it reported groups without performance) is out; anything
 * else (no banner yet, banner failed, banner open without a choice) stays
 * pending, so events queue and nothing is sent.
 */
export function sdkConsent(state: ConsentState): SdkConsent {
  if (categoryAllowed(state, "performance")) return "in";
  return state.decided && state.groups !== null ? "out" : "pending";
}

/** The set-consent body's consent list; pending sends nothing (empty list). */
export function consentObjects(consent: SdkConsent): AdobeConsentV1[] {
  return consent === "pending" ? [] : [{ standard: "Adobe", version: "1.0", value: { general: consent } }];
}

/** The kndctr_{org}_consent cookie value ("general=in"), none for pending. */
export function consentCookieValue(consent: SdkConsent): string | undefined {
  return consent === "pending" ? undefined : "general=" + consent;
}

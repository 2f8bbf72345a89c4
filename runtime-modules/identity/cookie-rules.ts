import type { ConsentCategory } from "../../generator/config/bundle-config.js";
import type { IdentityCookieSettings } from "../../generator/config/schemas/consent-identity.js";

/** One cookie's rule: written with path /, on the parent (apex) domain, Secure, SameSite=Lax. */
export interface CookieRule {
  name: string;
  /** None: a session cookie. */
  maxAgeSeconds?: number;
  /** Written only when this category has consent. */
  requires?: ConsentCategory;
  path: "/";
  domain: "parent";
  secure: true;
  sameSite: "Lax";
}

const DAY_SECONDS = 86400;

function rule(name: string, days: number | undefined, requires?: ConsentCategory): CookieRule {
  const r: CookieRule = { name, path: "/", domain: "parent", secure: true, sameSite: "Lax" };
  if (days !== undefined) r.maxAgeSeconds = days * DAY_SECONDS;
  if (requires) r.requires = requires;
  return r;
}

/**
 * "Cookies: lifetime cookie (only with performance consent, 60 days) ...
 * confirmation-step cookie ...
 * Scoped to parent domain, secure, lax same-site. Legacy-id cookie 390
 * days; destination cookies default 10 days." The legacy-id cookie is
 * AMCV_{orgId} (edge-protocol.md), "@" written %40 as the SDK does; a destination cookie takes its own name.
 */
export function cookieRules(settings: IdentityCookieSettings, orgId: string) {
  return {
    lifetime: rule(settings.lifetime, settings.lifetimeDays, "performance"),
    legacyId: rule("AMCV_" + encodeURIComponent(orgId), settings.legacyIdDays),
    confirmationStep: confirmationStepCookieRule(settings),
    destination: (name: string, days?: number) => destinationCookieRule(name, days, settings),
  };
}

/** The confirmation-step cookie: a session cookie, written only with performance consent (it exists to count purchases once). */
export function confirmationStepCookieRule(settings: Pick<IdentityCookieSettings, "confirmationStep">): CookieRule {
  return rule(settings.confirmationStep, undefined, "performance");
}

/** A destination cookie: its own name, its own lifetime in days when positive, else the default (10 days). */
export function destinationCookieRule(name: string, days: unknown, settings: Pick<IdentityCookieSettings, "destinationDays">): CookieRule {
  const n = typeof days === "number" ? days : typeof days === "string" && days.trim() ? +days : NaN;
  return rule(name, n > 0 ? n : settings.destinationDays);
}

/** Whether a cookie may be written under the current consent. */
export function cookieAllowed(rule: CookieRule, allows: (category: ConsentCategory) => boolean): boolean {
  return !rule.requires || allows(rule.requires);
}

/** The options core/cookies.ts writes with (it adds path /, the apex domain and Secure on https). */
export function cookieWriteOptions(rule: CookieRule): { maxAgeSeconds?: number; sameSite: "Lax" } {
  return rule.maxAgeSeconds === undefined ? { sameSite: rule.sameSite } : { maxAgeSeconds: rule.maxAgeSeconds, sameSite: rule.sameSite };
}

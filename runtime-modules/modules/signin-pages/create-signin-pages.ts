import type { ModuleInstance } from "../../core/types";
import { own } from "../../analytics/lookup";

/**
 * The sign-in page map: each sign-in page of spec section 2 (by a key the
 * sign-in app reports) and its flow, page and view codes. The spec's own
 * examples: login enter-unpw, login fail username, forgotpw
 * reset-pw-success, reg select-type, reg enter-data, reg confirm-data, reg
 * success. Keys and the other codes: placeholders to confirm.
 */
export const SIGNIN_PAGES: Readonly<Record<string, readonly string[]>> = {
  "enter-username-password": ["login", "enter-unpw"],
  "failed-username": ["login", "fail", "username"],
  "failed-password": ["login", "fail", "password"],
  "security-check": ["login", "security-check"],
  "account-locked": ["login", "account-locked"],
  "forgot-username-enter-email": ["forgotun", "enter-email"],
  "forgot-username-invalid-email": ["forgotun", "invalid-email"],
  "forgot-username-check-email": ["forgotun", "check-email"],
  "forgot-password-enter-username": ["forgotpw", "enter-username"],
  "forgot-password-security-question": ["forgotpw", "answer-security-question"],
  "forgot-password-invalid-answer": ["forgotpw", "invalid-answer"],
  "forgot-password-reset": ["forgotpw", "reset-pw"],
  "forgot-password-reset-success": ["forgotpw", "reset-pw-success"],
  "forgot-password-check-email": ["forgotpw", "check-email"],
  "forgot-password-temporary-reset": ["forgotpw", "temp-reset-pw"],
  "registration-select-type": ["reg", "select-type"],
  "registration-enter-data": ["reg", "enter-data"],
  "registration-confirm-data": ["reg", "confirm-data"],
  "registration-edit-data": ["reg", "edit-data"],
  "registration-success": ["reg", "success"],
  "professional-registration-select-type": ["profreg", "select-type"],
  "professional-registration-enter-data": ["profreg", "enter-data"],
  "professional-registration-confirm-data": ["profreg", "confirm-data"],
  "professional-registration-edit-data": ["profreg", "edit-data"],
  "professional-registration-success": ["profreg", "success"],
};

/** "A parameter flow=idp-discovery maps to migrate enter-username-password." */
export const MIGRATE_PAGE: readonly string[] = ["migrate", "enter-username-password"];

/**
 * A sign-in page's codes, or undefined for a key not in the map. On the
 * enter-username-and-password page, flow=idp-discovery in the query makes
 * it migrate enter-username-password.
 */
export function signinPageCodes(key: string, query?: string | URLSearchParams): readonly string[] | undefined {
  const codes = own(SIGNIN_PAGES, key);
  const q = typeof query === "string" ? new URLSearchParams(query) : query;
  return key === "enter-username-password" && q && q.get("flow") === "idp-discovery" ? MIGRATE_PAGE : codes;
}

/**
 * The sign-in page map (spec section 2) for the sign-in sites: a declared
 * pageCode without flowCode that is a sign-in page key is named by the map
 * (docs/tracking.md "Page names", step 4). Command: `pageCodes(key, search)`,
 * the codes or undefined. Only the sites that enable it carry the map.
 */
export function createSigninPages(): ModuleInstance {
  return { commands: { pageCodes: (key, search) => signinPageCodes(String(key).toLowerCase(), String(search)) } };
}

import { readCookie } from "./cookies";

/** Query parameter that switches debug mode on (1) or off (0) in this browser. */
export const DEBUG_PARAM = "sitetags-debug";
/** Cookie that keeps debug mode on ("1") on this host: a cookie, not localStorage, so that no page touches storage for it (issue #21). */
export const DEBUG_COOKIE = "sitetags-debug";
/** How long the debug cookie keeps debug mode on: a year. */
export const DEBUG_COOKIE_SECONDS = 31536000;

/**
 * The per-browser debug switch. `?sitetags-debug=1` turns debug mode on and
 * keeps it on (store "1"); `?sitetags-debug=0` turns it off and forgets it
 * (store null); otherwise it is on when the stored value is "1" (store
 * undefined: leave the cookie alone).
 */
export function debugSwitch(search: string, stored: string | null | undefined): { on: boolean; store?: string | null } {
  // No query ("" or "?"): no parameter, and no URLSearchParams to build on a page load (issue #21).
  const param = search.length > 1 ? new URLSearchParams(search).get(DEBUG_PARAM) : null;
  if (param === "1") return { on: true, store: "1" };
  if (param === "0") return { on: false, store: null };
  return { on: stored === "1" };
}

/**
 * Reads and applies the switch: the URL first, then the debug cookie (on
 * `jar`, boot's snapshot of document.cookie); localStorage is never touched,
 * since a first visit's first storage access blocks the main thread for
 * milliseconds. A host-only cookie for a year (SameSite Lax, the browsers'
 * default; not Secure, so that it works on http://localhost too). A cookie
 * that cannot be read or written (sandboxed frames) counts as absent.
 */
export function readDebugMode(search: string, jar: { cookie: string }): boolean {
  let stored: string | undefined;
  try {
    stored = readCookie(jar.cookie, DEBUG_COOKIE);
  } catch (e) {
    stored = undefined;
  }
  const result = debugSwitch(search, stored);
  try {
    // Host-only (no domain attribute).
    if (result.store || (result.store === null && stored !== undefined))
      jar.cookie = DEBUG_COOKIE + "=" + (result.store ? "1; max-age=" + DEBUG_COOKIE_SECONDS : "; max-age=0") + "; path=/";
  } catch (e) {
    // Not kept: debug mode still applies to this page.
  }
  return result.on;
}

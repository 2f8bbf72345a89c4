/** Query parameter that switches debug mode on (1) or off (0) in this browser. */
export const DEBUG_PARAM = "sitetags-debug";
/** localStorage key that keeps debug mode on ("1"). */
export const DEBUG_KEY = "sitetags:debug";

/**
 * The per-browser debug switch. `?sitetags-debug=1` turns debug mode on and
 * keeps it on (store "1"); `?sitetags-debug=0` turns it off and forgets it
 * (store null); otherwise it is on when the stored value is "1" (store
 * undefined: leave storage alone).
 */
export function debugSwitch(search: string, stored: string | null): { on: boolean; store?: string | null } {
  const param = new URLSearchParams(search).get(DEBUG_PARAM);
  if (param === "1") return { on: true, store: "1" };
  if (param === "0") return { on: false, store: null };
  return { on: stored === "1" };
}

/** Reads and applies the switch; storage that throws (privacy modes, sandboxes) counts as empty. */
export function readDebugMode(win: { location: { search: string }; localStorage: Storage }): boolean {
  let stored: string | null = null;
  let storage: Storage | undefined;
  try {
    storage = win.localStorage;
    stored = storage.getItem(DEBUG_KEY);
  } catch (e) {
    storage = undefined;
  }
  const result = debugSwitch(win.location.search, stored);
  try {
    if (storage && result.store === "1") storage.setItem(DEBUG_KEY, "1");
    else if (storage && result.store === null) storage.removeItem(DEBUG_KEY);
  } catch (e) {
    // Not kept: debug mode still applies to this page.
  }
  return result.on;
}

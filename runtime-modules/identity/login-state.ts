import { parseSession } from "./source";
/** "Login state: Logged In, Not Logged In, Logged Out (same-day logout)." */
export type LoginState = "Logged In" | "Not Logged In" | "Logged Out";

/** "Visitor type: New if first login is today, Return otherwise, Unknown if no browser storage, Never Logged In or Reset if no record." */
export type VisitorType = "New" | "Return" | "Unknown" | "Never Logged In" | "Reset";

/** What browser storage keeps about logins (ms timestamps). */
export interface LoginRecord {
  firstLogin?: number;
  lastLogout?: number;
  /** Signed in on the last page seen. */
  loggedIn?: boolean;
  /** Stored user data was reset (anonymous startup); the first login is gone. */
  reset?: boolean;
}

function isTime(value: unknown): value is number {
  return typeof value === "number" && isFinite(value) && value > 0;
}

/** The stored record (JSON), robust to garbage: null when there is none. */
export function parseLoginRecord(text: unknown): LoginRecord | null {
  const r = parseSession(text);
  if (!r) return null;
  const record: LoginRecord = {};
  if (isTime(r.firstLogin)) record.firstLogin = r.firstLogin;
  if (isTime(r.lastLogout)) record.lastLogout = r.lastLogout;
  if (r.loggedIn === true) record.loggedIn = true;
  if (r.reset === true) record.reset = true;
  return record;
}

/** Whether two times fall on the same local calendar day. */
export function sameDay(a: number, b: Date): boolean {
  const d = new Date(a);
  return d.getFullYear() === b.getFullYear() && d.getMonth() === b.getMonth() && d.getDate() === b.getDate();
}

export function loginState(loggedIn: boolean, record: LoginRecord | null, now: Date): LoginState {
  if (loggedIn) return "Logged In";
  return record && isTime(record.lastLogout) && sameDay(record.lastLogout, now) ? "Logged Out" : "Not Logged In";
}

export function visitorType(storageAvailable: boolean, record: LoginRecord | null, now: Date): VisitorType {
  if (!storageAvailable) return "Unknown";
  if (!record || !isTime(record.firstLogin)) return record && record.reset ? "Reset" : "Never Logged In";
  return sameDay(record.firstLogin, now) ? "New" : "Return";
}

/**
 * The record after this page, and whether a login or a logout happened
 * between the last page and this one: the first login is kept once set; a
 * logout is a signed-in last page followed by a signed-out one.
 */
export function nextLoginRecord(
  record: LoginRecord | null,
  loggedIn: boolean,
  now: Date,
): { record: LoginRecord; justLoggedIn: boolean; justLoggedOut: boolean } {
  const prev = record || {};
  const t = now.getTime();
  const wasIn = prev.loggedIn === true;
  const next: LoginRecord = {};
  const firstLogin = isTime(prev.firstLogin) ? prev.firstLogin : loggedIn ? t : undefined;
  if (firstLogin !== undefined) next.firstLogin = firstLogin;
  const lastLogout = wasIn && !loggedIn ? t : prev.lastLogout;
  if (isTime(lastLogout)) next.lastLogout = lastLogout;
  if (loggedIn) next.loggedIn = true;
  if (prev.reset && firstLogin === undefined) next.reset = true;
  return { record: next, justLoggedIn: loggedIn && !wasIn, justLoggedOut: wasIn && !loggedIn };
}

/** "Anonymous: identity cleared, stored user data reset." The first login goes; a logout of today is kept. */
export function resetLoginRecord(record: LoginRecord | null, now: Date): LoginRecord {
  const lastLogout = record && record.loggedIn ? now.getTime() : record ? record.lastLogout : undefined;
  return isTime(lastLogout) ? { reset: true, lastLogout } : { reset: true };
}

import { describe, expect, it } from "vitest";
import { loginState, nextLoginRecord, parseLoginRecord, resetLoginRecord, visitorType } from "../../../../runtime-modules/identity/login-state";

const now = new Date(2025, 2, 15, 15, 0);
const earlierToday = new Date(2025, 2, 15, 0, 5).getTime();
const yesterday = new Date(2025, 2, 14, 23, 55).getTime();

describe('"Login state: Logged In, Not Logged In, Logged Out (same-day logout)"', () => {
  it.each([
    ["signed in", true, null, "Logged In"],
    ["signed in, logged out earlier today", true, { lastLogout: earlierToday }, "Logged In"],
    ["signed out, logout earlier today", false, { lastLogout: earlierToday }, "Logged Out"],
    ["signed out, logout yesterday", false, { lastLogout: yesterday }, "Not Logged In"],
    ["signed out, no record", false, null, "Not Logged In"],
  ] as const)("%s → %s", (_label, loggedIn, record, state) => {
    expect(loginState(loggedIn, record, now)).toBe(state);
  });
});

describe('"Visitor type: New if first login is today, Return otherwise, Unknown if no browser storage, Never Logged In or Reset if no record"', () => {
  it.each([
    ["first login today", true, { firstLogin: earlierToday }, "New"],
    ["first login yesterday", true, { firstLogin: yesterday }, "Return"],
    ["no browser storage", false, { firstLogin: earlierToday }, "Unknown"],
    ["no record", true, null, "Never Logged In"],
    ["record without a first login", true, {}, "Never Logged In"],
    ["stored user data reset", true, { reset: true }, "Reset"],
  ] as const)("%s → %s", (_label, storage, record, type) => {
    expect(visitorType(storage, record, now)).toBe(type);
  });
});

describe("login record", () => {
  it("parses the stored JSON, robust to garbage", () => {
    expect(parseLoginRecord('{"firstLogin":5,"lastLogout":"x","loggedIn":true,"junk":1}')).toEqual({ firstLogin: 5, loggedIn: true });
    for (const bad of [undefined, "", "{", "[]", "null", 3]) expect(parseLoginRecord(bad)).toBeNull();
  });
  it("a first sign-in sets the first login; later ones keep it", () => {
    const first = nextLoginRecord(null, true, now);
    expect(first).toEqual({ record: { firstLogin: now.getTime(), loggedIn: true }, justLoggedIn: true, justLoggedOut: false });
    const later = nextLoginRecord({ firstLogin: yesterday, loggedIn: true }, true, now);
    expect(later).toEqual({ record: { firstLogin: yesterday, loggedIn: true }, justLoggedIn: false, justLoggedOut: false });
  });
  it("signed in on the last page, signed out now: a logout (Logged Out for the rest of the day)", () => {
    const r = nextLoginRecord({ firstLogin: yesterday, loggedIn: true }, false, now);
    expect(r).toEqual({ record: { firstLogin: yesterday, lastLogout: now.getTime() }, justLoggedIn: false, justLoggedOut: true });
    expect(loginState(false, r.record, now)).toBe("Logged Out");
  });
  it("a reset drops the first login and keeps a logout", () => {
    expect(resetLoginRecord({ firstLogin: yesterday, loggedIn: true }, now)).toEqual({ reset: true, lastLogout: now.getTime() });
    expect(resetLoginRecord(null, now)).toEqual({ reset: true });
    expect(nextLoginRecord({ reset: true }, false, now).record).toEqual({ reset: true });
    expect(nextLoginRecord({ reset: true }, true, now).record).toEqual({ firstLogin: now.getTime(), loggedIn: true });
  });
});

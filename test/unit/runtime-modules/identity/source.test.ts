import { describe, expect, it } from "vitest";
import { SIGN_IN_DATA_NOT_FOUND } from "../../../../runtime-modules/core/messages";
import { identitySource, parseSession, signInData } from "../../../../runtime-modules/identity/source";

describe('"Identity source: session and token gives Catapult; session only gives Catapult (Session Only); token only gives Catapult (Token Only)"', () => {
  it.each([
    [true, true, "Catapult"],
    [true, false, "Catapult (Session Only)"],
    [false, true, "Catapult (Token Only)"],
    [false, false, undefined],
  ])("session %s, token %s → %s", (session, token, source) => {
    expect(identitySource(session, token)).toBe(source);
  });
  it("\"Sign-in data missing: 'Catapult/Levity Data Not Found', logged and ignored\"", () => {
    expect(SIGN_IN_DATA_NOT_FOUND).toBe("Catapult/Levity Data Not Found");
    expect(signInData(null, null)).toEqual({ found: false, message: "Catapult/Levity Data Not Found" });
    expect(signInData({ a: 1 }, null)).toEqual({ found: true, source: "Catapult (Session Only)", session: { a: 1 }, token: null });
  });
  it("the session cookie's JSON; anything else is no session", () => {
    expect(parseSession('{"sessionId":"s1"}')).toEqual({ sessionId: "s1" });
    for (const bad of [undefined, "", "{", "[1]", "null", '"x"', 5]) expect(parseSession(bad)).toBeNull();
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeBase64Url, decodeJwtPayload } from "../../../../runtime-modules/identity/jwt";

const b64url = (text: string) => Buffer.from(text, "utf8").toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const jwt = (payload: unknown) => b64url('{"alg":"RS256"}') + "." + b64url(JSON.stringify(payload)) + ".sig";

describe("decodeJwtPayload", () => {
  it("the payload of a token, base64url without padding, UTF-8", () => {
    const payload = { accountId: "123", namespace: "st", name: "Zoë ✓", gradYear: "2027" };
    expect(decodeJwtPayload(jwt(payload))).toEqual(payload);
  });
  it("padding and url-safe characters", () => {
    const payload = { a: "a??>>" };
    const padded = "h." + Buffer.from(JSON.stringify(payload)).toString("base64").replace(/\+/g, "-").replace(/\//g, "_") + ".s";
    expect(padded).toMatch(/[-_].*=\.s$/);
    expect(decodeJwtPayload(padded)).toEqual(payload);
    expect(decodeBase64Url("Pz8-Pg")).toBe("??>>");
  });
  it("garbage gives null", () => {
    for (const bad of [undefined, null, 42, "", "abc", "a.b", "a.b.c.d", "a..c", "a.!!!.c", "a.W10.c" /* [] */, jwt("text"), jwt(null), "a.x.c"])
      expect(decodeJwtPayload(bad)).toBeNull();
    expect(decodeJwtPayload("a.e30.c")).toEqual({});
  });
  it("never throws, whatever the input (1000 runs)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.tuple(fc.string(), fc.string(), fc.string()).map((p) => p.join(".")),
          fc.anything(),
        ),
        (value) => {
          const out = decodeJwtPayload(value);
          expect(out === null || (typeof out === "object" && !Array.isArray(out))).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REDACTED, decodeFully, isRedactedParam, redactText, redactUrl, safeUrl, trackingAllowed } from "../../../../runtime-modules/analytics/redact";

const NAMES = ["u", "personId", "regId", "regNo", "i", "studentid"];
/** A name in random case. */
const redactedName = fc.tuple(fc.constantFrom(...NAMES), fc.array(fc.boolean(), { minLength: 10, maxLength: 10 })).map(([n, up]) =>
  n
    .split("")
    .map((c, k) => (up[k] ? c.toUpperCase() : c.toLowerCase()))
    .join(""),
);
const value = fc.string({ unit: "binary", minLength: 1, maxLength: 30 });
const otherName = fc.stringMatching(/^[a-z]{2,8}$/).filter((n) => !NAMES.some((r) => r.toLowerCase() === n));

describe("redaction", () => {
  it('"Redacted URL parameters: u, personId, regId, regNo, i, studentid"', () => {
    const url = "https://scores.kiwi.example/x?u=jdoe&personId=123&regId=456&regNo=789&i=0&studentid=42&tab=a";
    expect(redactUrl(url)).toBe(
      "https://scores.kiwi.example/x?u=[redacted]&personId=[redacted]&regId=[redacted]&regNo=[redacted]&i=[redacted]&studentid=[redacted]&tab=a",
    );
  });
  it("names match in any case and percent-encoded", () => {
    expect(redactUrl("/x?REGNO=1&StudentId=2&reg%4Eo=3&reg+no=4")).toBe("/x?REGNO=[redacted]&StudentId=[redacted]&reg%4Eo=[redacted]&reg+no=4");
    expect(isRedactedParam("%E0%A4%A")).toBe(false);
  });
  it("in the fragment, after ; or &amp;, and one level down in an encoded address", () => {
    expect(redactUrl("https://a.example/#/scores?regNo=5")).toBe("https://a.example/#/scores?regNo=[redacted]");
    expect(redactUrl("/p;regId=5")).toBe("/p;regId=[redacted]");
    expect(redactUrl("/p?x=1&amp;regNo=5")).toBe("/p?x=1&amp;regNo=[redacted]");
    expect(redactUrl("/login?returnUrl=https%3A%2F%2Fs.example%2Fx%3FregNo%3D77%26tab%3Da")).toBe(
      "/login?returnUrl=https%3A%2F%2Fs.example%2Fx%3FregNo%3D[redacted]%26tab%3Da",
    );
    expect(redactUrl("regNo=5&x=1")).toBe("regNo=[redacted]&x=1");
  });
  it("other parameters and the rest of the address are kept byte for byte", () => {
    const url = "https://a.example/p%20q?q=a+b&tab=%C3%A9#h";
    expect(redactUrl(url)).toBe(url);
    expect(REDACTED).toBe("[redacted]");
  });
  it("their values never leave the page, for any value (URLSearchParams-encoded)", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.oneof(redactedName, otherName), value), { minLength: 1, maxLength: 6 }), (pairs) => {
        const q = new URLSearchParams(pairs);
        const out = redactUrl("https://a.example/p?" + q.toString() + "#f");
        const parsed = new URL(out).searchParams;
        const before = [...q.entries()];
        const after = [...parsed.entries()];
        expect(after.length).toBe(before.length);
        after.forEach(([k, v], n) => {
          expect(k).toBe(before[n][0]);
          expect(v).toBe(NAMES.some((r) => r.toLowerCase() === k.toLowerCase()) ? REDACTED : before[n][1]);
        });
      }),
    );
  });
  it("their values never leave the page, written raw with encodeURIComponent, in the query, the fragment or a nested address", () => {
    const marker = fc.stringMatching(/^[A-Z]{8}$/);
    fc.assert(
      fc.property(redactedName, marker, otherName, fc.constantFrom("?", "#", "#/x?", "?a=1&", "?a=1;"), (name, secret, other, lead) => {
        const url = "https://a.example/p" + lead + name + "=" + secret + "&" + other + "=1";
        expect(redactUrl(url)).not.toContain(secret);
        const nested = "https://a.example/p?next=" + encodeURIComponent("https://b.example/q?" + other + "=2&" + name + "=" + secret);
        expect(redactUrl(nested)).not.toContain(secret);
      }),
    );
  });
  it("as a path segment too, and a value holding / is redacted whole", () => {
    expect(redactUrl("https://x.example/scores/regNo=123/details?tab=2")).toBe(`https://x.example/scores/regNo=${REDACTED}/details?tab=2`);
    expect(redactUrl("https://x.example/?u=jdoe/extra&tab=2")).toBe(`https://x.example/?u=${REDACTED}&tab=2`);
    expect(redactUrl("https://x.example/a=b/c")).toBe("https://x.example/a=b/c");
  });
  it("redactText: a name=value pair in a name is redacted wherever it stands, other text kept", () => {
    expect(redactText("scores/scores/regno=12345678")).toBe(`scores/scores/regno=${REDACTED}`);
    expect(redactText("scores:app:studentid=9:tab=2")).toBe(`scores:app:studentid=${REDACTED}:tab=2`);
    expect(redactText("u=jdoe")).toBe(`u=${REDACTED}`);
    expect(redactText("https://x.example/?regNo=1&tab=2")).toBe(`https://x.example/?regNo=${REDACTED}&tab=2`);
    expect(redactText("menu=1 stui=2 sat scores")).toBe("menu=1 stui=2 sat scores");
  });
  it('"Tracking is not allowed when the page address contains an at-sign" (also %40)', () => {
    expect(trackingAllowed("https://a.example/p?email=jane@x.example")).toBe(false);
    expect(trackingAllowed("https://a.example/p?email=jane%40x.example")).toBe(false);
    expect(trackingAllowed("https://a.example/p?email=jane%40X")).toBe(false);
    expect(trackingAllowed("https://a.example/p?tab=a")).toBe(true);
  });
  it("safeUrl: redacted, then without query and fragment if an at-sign is left, else nothing", () => {
    expect(safeUrl("https://a.example/p?regNo=1")).toBe("https://a.example/p?regNo=[redacted]");
    expect(safeUrl("https://a.example/p?to=jane@x.example#a")).toBe("https://a.example/p");
    expect(safeUrl("https://jane@a.example/p")).toBe("");
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(trackingAllowed(safeUrl(s))).toBe(true);
      }),
    );
  });

  it("decodeFully: percent-decoded to a fixed point (bounded), malformed escapes kept, the escapes around them decoded", () => {
    expect(decodeFully("jane.doe%2540kiwimail.example")).toBe("jane.doe@kiwimail.example");
    expect(decodeFully("jane.doe%25252540kiwimail.example")).toBe("jane.doe@kiwimail.example");
    expect(decodeFully("a+b%2B")).toBe("a+b+");
    expect(decodeFully("%E2%82 %2540 %zz %")).toBe("%E2%82 @ %zz %");
    expect(decodeFully("caf%C3%A9")).toBe("café");
    // Bounded: 8 rounds undo 8 levels.
    expect(decodeFully("%" + "25".repeat(7) + "40")).toBe("@");
    expect(decodeFully("%" + "25".repeat(12) + "40")).toContain("%");
  });
  it('"An email address leaks when its at-sign is double-encoded": %2540 (any depth, any case) blocks tracking as %40 does', () => {
    for (const at of ["%2540", "%252540", "%25252540", "%2540".toLowerCase(), "%25%34%30", "%2525%34%30"]) {
      expect(trackingAllowed(`https://www.kiwi.example/about?tab=jane.doe${at}kiwimail.example`)).toBe(false);
      expect(safeUrl(`https://www.kiwi.example/about?tab=jane.doe${at}kiwimail.example#x`)).toBe("https://www.kiwi.example/about");
      expect(safeUrl(`https://www.kiwi.example/jane.doe${at}kiwimail.example/`)).toBe("");
    }
  });
  it("an IMS org id (…@AdobeOrg, double-encoded in alloy's adobe_mc link decoration) is no at-sign; an address at AdobeOrg.com is", () => {
    const decorated = "https://a.kiwi.example/linked?adobe_mc=TS%3D1700000000%7CMCMID%3D555%7CMCORGID%3D5A6B7C8D9E0F1A2B3C4D5E6F%2540AdobeOrg";
    expect(trackingAllowed(decorated)).toBe(true);
    expect(safeUrl(decorated)).toBe(decorated);
    expect(trackingAllowed("https://a.kiwi.example/?e=jane%2540AdobeOrg.com")).toBe(false);
    expect(trackingAllowed("https://a.kiwi.example/?e=jane%40AdobeOrgs")).toBe(false);
  });
  it("a redacted pair hidden under nested encoding is not sent either (the query goes; in a name, the decoded text is redacted)", () => {
    expect(isRedactedParam("reg%254Eo")).toBe(true);
    expect(safeUrl("https://a.example/p?next=%252Fx%253FregNo%253D4711&tab=a")).toBe("https://a.example/p");
    expect(redactText("scores/regNo%253D4711/x")).toBe("scores/regNo=[redacted]/x");
    expect(redactText("plain%2520text")).toBe("plain%2520text");
  });
  it("nothing of an address or a redacted value survives any nesting of its encoding (1 to 3 levels, any case)", () => {
    const enc = (s: string, depth: number, upper: boolean) => {
      let t = s;
      for (let i = 0; i < depth; i++) t = encodeURIComponent(t).replace(/%[0-9A-F]{2}/g, (m) => (upper ? m : m.toLowerCase()));
      return t;
    };
    fc.assert(
      fc.property(
        redactedName,
        fc.stringMatching(/^[0-9]{5,8}$/),
        fc.integer({ min: 1, max: 3 }),
        fc.boolean(),
        fc.constantFrom("?", "#", "?x=1&next=", "/"),
        (name, secret, depth, upper, where) => {
          const email = enc("jane.doe@kiwimail.example", depth, upper);
          const pair = enc(`${name}=${secret}`, depth, upper);
          for (const url of [`https://a.example/p${where}${email}`, `https://a.example/p${where}${pair}`]) {
            const sent = decodeFully(safeUrl(url));
            expect(sent).not.toContain("kiwimail");
            expect(sent).not.toContain(secret);
          }
          expect(decodeFully(redactText(`page:${pair}`))).not.toContain(secret);
        },
      ),
      { numRuns: 500, seed: 22 },
    );
  });
});

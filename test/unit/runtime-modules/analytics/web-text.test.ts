import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { activityMapName, activityMapText, cut, escapeText, squash, webText } from "../../../../runtime-modules/analytics/web-text";
import { rules } from "./rules";

const small = rules.smallWords;
const text = fc.string({ unit: "grapheme", maxLength: 80 });
const anyText = fc.oneof(text, fc.string({ unit: "binary", maxLength: 80 }), fc.stringMatching(/^[ a-zA-Z|:=/,()[\]{}\u00ae\u2122]{0,60}$/));

describe("web text", () => {
  it('"Web text in names: small words dropped"', () => {
    expect(webText("The Guide to the SAT for Students", small)).toBe("Guide SAT Students");
    expect(webText("a an and the of", small)).toBe("");
    expect(webText("Theory of Andes", small)).toBe("Theory Andes");
  });
  it('"| : = / become hyphens"', () => {
    expect(webText("Scores|Details:Overview=Now/Later", small)).toBe("Scores-Details-Overview-Now-Later");
  });
  it('"commas, registered and trademark signs and brackets removed"', () => {
    expect(webText("SAT®, PSAT™ (Practice) [New] {Beta}", small)).toBe("SAT PSAT Practice New Beta");
  });
  it("white space is squashed; case is kept", () => {
    expect(webText("  Big \t Future\n", small)).toBe("Big Future");
  });
  it("small words come from the settings", () => {
    expect(webText("the guide", [])).toBe("the guide");
    expect(webText("SAT prep", ["prep"])).toBe("SAT");
  });
  it("web text is idempotent", () => {
    fc.assert(
      fc.property(anyText, (s) => {
        expect(webText(webText(s, small), small)).toBe(webText(s, small));
      }),
    );
  });
  it("web text holds none of | : = / , ® ™ or brackets, and no small word", () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const out = webText(s, small);
        expect(out).not.toMatch(/[|:=/,\u00ae\u2122()[\]{}]/);
        for (const w of out.split(" ")) expect(small).not.toContain(w.toLowerCase());
      }),
    );
  });
  it('"Text escaping replaces &, <, >, double and single quotes"', () => {
    expect(escapeText(`Tom & "Jerry's" <b>`)).toBe("Tom &#38; &#34;Jerry&#39;s&#34; &#60;b&#62;");
  });
  it("escaped text holds no < > \" ' and every & starts an entity; unescaping gives the text back", () => {
    const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)));
    fc.assert(
      fc.property(anyText, (s) => {
        const out = escapeText(s);
        expect(out).not.toMatch(/[<>"']|&(?!#\d+;)/);
        expect(unescape(out)).toBe(s);
      }),
    );
  });
  it('"Activity-map text cut to 99 characters; name max 200"', () => {
    expect(activityMapText("x".repeat(150))).toHaveLength(99);
    expect(activityMapName("y".repeat(300))).toHaveLength(200);
    expect(activityMapText("  short   text ")).toBe("short text");
    fc.assert(
      fc.property(anyText, (s) => {
        expect(activityMapText(s.repeat(3)).length).toBeLessThanOrEqual(99);
        expect(activityMapName(s.repeat(5)).length).toBeLessThanOrEqual(200);
      }),
    );
  });
  it("cutting never splits a surrogate pair (a record stays encodable)", () => {
    expect(cut("ab😀", 3)).toBe("ab");
    expect(cut("ab😀", 4)).toBe("ab😀");
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), fc.nat(60), (s, n) => {
        const out = cut(s, n);
        expect(out.length).toBeLessThanOrEqual(n);
        expect(s.startsWith(out)).toBe(true);
        expect(() => encodeURIComponent(out)).not.toThrow();
      }),
    );
  });
  it("squash trims and joins runs of white space", () => {
    expect(squash(" a \n\t b ")).toBe("a b");
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LINK_TEXT_LIMIT, linkText, unwrapLink, withoutEmailWords } from "../../../../runtime-modules/analytics/link-text";

describe("link text", () => {
  it('"Link text limit is 40 characters, lowercased"', () => {
    expect(linkText("Register for the SAT")).toBe("register for the sat");
    expect(linkText("A".repeat(60))).toBe("a".repeat(40));
    expect(LINK_TEXT_LIMIT).toBe(40);
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (s) => {
        const out = linkText(s);
        expect(out.length).toBeLessThanOrEqual(40);
        expect(out).toBe(out.toLowerCase());
      }),
    );
  });
  it("white space is squashed before cutting", () => {
    expect(linkText("  Sign \n  In  ")).toBe("sign in");
  });
  it("words holding an at-sign (email addresses) are left out", () => {
    expect(linkText("Email Jane.Doe@school.example now")).toBe("email now");
  });
  it('"Link addresses starting with clkg/ or clkn/ plus http are unwrapped"', () => {
    expect(unwrapLink("clkg/https://www.kiwi.example/sat")).toBe("https://www.kiwi.example/sat");
    expect(unwrapLink("clkn/http://partner.example/x?y=1")).toBe("http://partner.example/x?y=1");
    expect(unwrapLink("clkn/https%3A%2F%2Fwww.kiwi.example%2Fsat")).toBe("https://www.kiwi.example/sat");
    expect(unwrapLink("https://ads.example/clkg/https://www.kiwi.example/sat")).toBe("https://www.kiwi.example/sat");
    expect(unwrapLink("CLKG/HTTPS://www.kiwi.example/")).toBe("HTTPS://www.kiwi.example/");
  });
  it("other addresses are kept", () => {
    for (const href of ["https://www.kiwi.example/clkg/", "clkx/https://a.example", "/clkg/ftp://x", "https://a.example/xclkg/https://b"])
      expect(unwrapLink(href)).toBe(href);
    expect(unwrapLink("clkn/https%3A%E0%A4%A")).toBe("https%3A%E0%A4%A");
  });
});

describe("words with an at-sign once decoded", () => {
  it('"An email address leaks when its at-sign is double-encoded": jane.doe%2540kiwimail.example is left out of link text as jane.doe@kiwimail.example is', () => {
    expect(withoutEmailWords("write to jane.doe%2540kiwimail.example now").trim().split(/\s+/)).toEqual(["write", "to", "now"]);
    expect(withoutEmailWords("mail jane.doe%252540kiwimail.example").trim()).toBe("mail");
    expect(withoutEmailWords("50%25 off")).toBe("50%25 off");
  });
});

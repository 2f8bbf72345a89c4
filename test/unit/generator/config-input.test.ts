/**
 * Configuration input below the schema (issue #22): bytes, control
 * characters, YAML syntax reporting, and the warning mechanism of the
 * schema checks.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { controlCharacterDiagnostics, decodeConfigText, firstInvalidUtf8 } from "../../../generator/config/text-checks.js";
import { overIndentedKey, parseYamlSource } from "../../../generator/config/yaml-source.js";
import { codeIssue, parseWithWarnings, warningsMuted } from "../../../generator/config/parse.js";
import { variableSuggestion } from "../../../generator/config/schemas/rules.js";

const strictDecode = (bytes: Uint8Array) => {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

describe('"Invalid UTF-8 is rejected at the line and column of the first bad byte"', () => {
  it("finds the first byte of C3 28 FF (C3 starts a sequence that 28 does not continue)", () => {
    expect(firstInvalidUtf8(Uint8Array.from([0x61, 0xc3, 0x28, 0xff]))).toBe(1);
    expect(firstInvalidUtf8(new TextEncoder().encode("name: Café 😀"))).toBe(-1);
  });

  it("overlong forms, surrogates and code points above U+10FFFF are invalid too", () => {
    expect(firstInvalidUtf8(Uint8Array.from([0xc0, 0xaf]))).toBe(0); // overlong "/"
    expect(firstInvalidUtf8(Uint8Array.from([0xe0, 0x80, 0xaf]))).toBe(0); // overlong
    expect(firstInvalidUtf8(Uint8Array.from([0xed, 0xa0, 0x80]))).toBe(0); // U+D800
    expect(firstInvalidUtf8(Uint8Array.from([0xf4, 0x90, 0x80, 0x80]))).toBe(0); // U+110000
    expect(firstInvalidUtf8(Uint8Array.from([0x41, 0xe2, 0x82]))).toBe(1); // truncated at the end
  });

  it("agrees with a strict decoder on any bytes, and everything before the offset decodes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.string({ unit: "binary", maxLength: 10 }), (noise, text) => {
        const bytes = Uint8Array.from([...new TextEncoder().encode(text), ...noise]);
        const at = firstInvalidUtf8(bytes);
        expect(at === -1).toBe(strictDecode(bytes));
        if (at >= 0) expect(strictDecode(bytes.subarray(0, at))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("the diagnostic has the line and the column (in characters) of that byte, and a code frame", () => {
    const bytes = Uint8Array.from([...new TextEncoder().encode("code: x\nname: Café "), 0xc3, 0x28, 0xff]);
    const result = decodeConfigText("sites/x.yaml", bytes);
    expect("diagnostic" in result && result.diagnostic).toMatchObject({
      code: "YAML_INVALID_ENCODING",
      file: "sites/x.yaml",
      line: 2,
      column: 12,
      severity: "error",
    });
    expect("diagnostic" in result && result.diagnostic.message).toContain("byte 0xC3");
    expect("diagnostic" in result && result.diagnostic.frame).toMatch(/> 2 \| name: Café /);
  });
});

describe('"NUL and other control characters in string values are rejected, except tab"', () => {
  const check = (text: string) => controlCharacterDiagnostics(parseYamlSource("x.yaml", text).source);

  it("an escape (\\0) is reported at the string, a raw character at itself, with the key path", () => {
    const found = check('name: "Big\\0Future"\nlist:\n  - ok\n  - "a\x07b"\n');
    expect(found.map((d) => [d.code, d.line, d.column, d.path])).toEqual([
      ["CONFIG_CONTROL_CHARACTER", 1, 7, "name"],
      ["CONFIG_CONTROL_CHARACTER", 4, 7, "list[1]"],
    ]);
    expect(found[0].message).toContain("U+0000 (NUL)");
  });

  it("tab, in any form, is allowed; so is text without controls", () => {
    expect(check('a: "x\\ty"\nb: "x\ty"\nc: plain text é\n')).toEqual([]);
  });

  it("every C0 control but tab, DEL and the C1 controls are refused", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0x9f }).filter((c) => c < 0x20 || c >= 0x7f),
        (c) => {
          const escaped = `a: "x\\u${c.toString(16).padStart(4, "0")}y"\n`;
          expect(check(escaped).length).toBe(c === 9 ? 0 : 1);
        },
      ),
    );
  });
});

describe("YAML syntax errors", () => {
  it('"Report the first syntax error of a file and stop": one unclosed [ is one diagnostic', () => {
    const text = "timing:\n  failover: [5000\n  pageLoad: 2500\n  routeChange: 2500\n  spaPage: 1500\n";
    const { diagnostics } = parseYamlSource("x.yaml", text);
    expect(diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([["YAML_SYNTAX", 2, 13]]);
  });

  it("duplicate keys (no syntax error) are all reported", () => {
    const { diagnostics } = parseYamlSource("x.yaml", "a: 1\na: 2\nb: 1\nb: 2\n");
    expect(diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["YAML_DUPLICATE_KEY", 2],
      ["YAML_DUPLICATE_KEY", 4],
    ]);
  });

  it('"An over-indented key after a plain value" is reported once, at the misplaced key', () => {
    const { diagnostics } = parseYamlSource("x.yaml", "code: x\nspa: false\n   internal: false\nhosts: {}\n");
    expect(diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([["YAML_SYNTAX", 3, 4]]);
    expect(diagnostics[0].message).toContain('"internal" is indented more than the key above it');
  });

  it("overIndentedKey: the next content line's key when it is indented more, skipping blank and comment lines; else nothing", () => {
    const text = "spa: false\n\n  # note\n   internal: false\n";
    expect(overIndentedKey(text, 5)).toEqual({ name: "internal", offset: text.indexOf("internal") });
    expect(overIndentedKey("spa: false\ninternal: false\n", 5)).toBeUndefined();
    expect(overIndentedKey("spa: false\n   - item\n", 5)).toBeUndefined();
  });

  it("a second document is reported at its --- line without the parser's API name", () => {
    const { diagnostics } = parseYamlSource("x.yaml", "a: 1\n---\nb: 2\n");
    expect(diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([["YAML_SYNTAX", 2, 1]]);
    expect(diagnostics[0].message).not.toMatch(/parseAllDocuments/);
    expect(diagnostics[0].message).toContain("one document");
  });

  it('merge keys (<<) are refused with how to share settings instead; a quoted "<<" key is no merge key', () => {
    const { diagnostics } = parseYamlSource("x.yaml", "envs:\n  qa: &q\n    sampling: 2\n  dev:\n    <<: *q\n");
    expect(diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([["YAML_MERGE_KEY", 5, 5]]);
    expect(diagnostics[0].message).toContain("_org.yaml");
    expect(parseYamlSource("x.yaml", '"<<": 1\n').diagnostics).toEqual([]);
  });
});

describe("warnings of the schema checks", () => {
  const Warned = z.object({
    a: z.string().superRefine((v, ctx) => {
      if (v.startsWith("/") && !warningsMuted()) ctx.addIssue(codeIssue({ code: "CONFIG_REGEX_SLASHES", message: "slashes", severity: "warning" }));
    }),
    n: z.number(),
  });

  it("a parse with warnings only succeeds: the data and the warnings", () => {
    const r = parseWithWarnings(Warned, { a: "/x/", n: 1 });
    expect(r.success && r.data).toEqual({ a: "/x/", n: 1 });
    expect(r.success && r.warnings.map((w) => w.message)).toEqual(["slashes"]);
  });

  it("an error fails the parse, and its warnings stay among the issues", () => {
    const r = parseWithWarnings(Warned, { a: "/x/", n: "1" });
    expect(r.success).toBe(false);
    expect(!r.success && r.issues.map((i) => i.code).sort()).toEqual(["custom", "invalid_type"]);
    expect(warningsMuted()).toBe(false);
  });
});

describe("analytics variable names", () => {
  it("a mistyped name's suggestion is the same name in the right case", () => {
    expect(variableSuggestion("evar30")).toBe("eVar30");
    expect(variableSuggestion("PROP5")).toBe("prop5");
    expect(variableSuggestion("pagename")).toBe("pageName");
    expect(variableSuggestion("eVar1234")).toBeUndefined();
    expect(variableSuggestion("colour")).toBeUndefined();
  });
});

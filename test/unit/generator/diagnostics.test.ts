import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DIAGNOSTIC_CODES } from "../../../generator/diagnostics/codes.js";
import { codeFrame, formatHeadline } from "../../../generator/diagnostics/diagnostic.js";
import { REPO } from "../../helpers/fs.js";

describe("%tokens%", () => {
  it("names data elements; percent-encoding (%C3%%A9) is not a token", async () => {
    const { tokensOf } = await import("../../../generator/config/rules-check.js");
    expect(tokensOf("search:%searchTerm%/%site%")).toEqual(["searchTerm", "site"]);
    expect(tokensOf("https://x.example/?page=caf%C3%A9&q=%2Fa%")).toEqual([]);
  });
});

describe("the one registry of diagnostics", () => {
  it("codes are SCREAMING_SNAKE and docs/diagnostics.md lists every one", () => {
    const doc = readFileSync(join(REPO, "docs", "diagnostics.md"), "utf8");
    for (const code of Object.keys(DIAGNOSTIC_CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/);
      expect(doc).toContain(`| \`${code}\` |`);
    }
  });

  it('headline format: "sites/bigfuture.yaml:12:5 error CONFIG_UNKNOWN_KEY: … at modules.survey.sampel"', () => {
    expect(formatHeadline({ code: "CONFIG_UNKNOWN_KEY", message: 'unknown key "sampel" (did you mean "sample"?)', file: "sites/bigfuture.yaml", line: 12, column: 5, path: "modules.survey.sampel", severity: "error" })).toBe(
      'sites/bigfuture.yaml:12:5 error CONFIG_UNKNOWN_KEY: unknown key "sampel" (did you mean "sample"?) at modules.survey.sampel',
    );
  });

  it('code frame: "the offending line with two lines around it and a caret under the column"', () => {
    const source = ["a: 1", "b: 2", "c: 3", "d: 4", "e: 5", "f: 6"].join("\n");
    expect(codeFrame(source, 4, 4)).toBe(["  2 | b: 2", "  3 | c: 3", "> 4 | d: 4", "    |    ^", "  5 | e: 5", "  6 | f: 6"].join("\n"));
    expect(codeFrame(source, 1, 1).split("\n")[0]).toBe("> 1 | a: 1");
  });
});

describe('unknown keys: "with the nearest valid key suggested"', () => {
  it("the closest key by edit distance; else the one key sharing the longest prefix of 4 or more (the contract's own typo, sampel)", async () => {
    const { nearest } = await import("../../../generator/config/issues.js");
    const settings = ["timing", "sampling", "consent", "identity", "analyticsRules", "exclusions", "pageNames", "analytics", "budget", "modules"];
    expect(nearest("samplng", settings)).toBe("sampling");
    expect(nearest("sampel", settings)).toBe("sampling");
    expect(nearest("sampel", ["sample", "sampling"])).toBe("sample");
    expect(nearest("analyticsRulz", settings)).toBe("analyticsRules");
    expect(nearest("anal", settings)).toBeUndefined();
    expect(nearest("zzzz", settings)).toBeUndefined();
  });
});

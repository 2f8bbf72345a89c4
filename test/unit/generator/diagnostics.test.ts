import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DIAGNOSTIC_CODES } from "../../../generator/diagnostics/codes.js";
import { DIAGNOSTICS } from "../../../generator/diagnostics/diagnostics.js";
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

  it("every factory of DIAGNOSTICS makes a known code, documented in docs/diagnostics.md; every code has a factory", () => {
    const doc = readFileSync(join(REPO, "docs", "diagnostics.md"), "utf8");
    const made = new Set<string>();
    for (const [name, factory] of Object.entries(DIAGNOSTICS)) {
      expect(Object.keys(DIAGNOSTIC_CODES), name).toContain(factory.code);
      expect(doc, name).toContain(`| \`${factory.code}\` |`);
      made.add(factory.code);
    }
    expect(Object.keys(DIAGNOSTIC_CODES).filter((code) => !made.has(code))).toEqual([]);
  });

  it("a factory returns its own code with the message made from the data it is given, and no place", () => {
    expect(DIAGNOSTICS.envNoHosts("qa")).toEqual({
      code: "CONFIG_ENV_NO_HOSTS",
      message: 'environment "qa" has no hosts (remove it or list at least one host)',
      severity: "error",
    });
    expect(DIAGNOSTICS.slashWrapped("/x/i")).toMatchObject({ code: DIAGNOSTICS.slashWrapped.code, severity: "warning" });
  });

  it('CONFIG_HOST_CONFLICT has one wording: "host H [covers C, which] is already claimed by O at file:line:col"', () => {
    expect(DIAGNOSTICS.hostConflict("a.kiwi.example", "this site", "sites/a.yaml:4:7").message).toBe(
      'host "a.kiwi.example" is already claimed by this site at sites/a.yaml:4:7',
    );
    expect(DIAGNOSTICS.hostConflict("*.kiwi.example", 'site "a"', "sites/a.yaml:4:7", { host: "a.kiwi.example", more: 2 }).message).toBe(
      'host "*.kiwi.example" covers "a.kiwi.example", which is already claimed by site "a" at sites/a.yaml:4:7 (and 2 more)',
    );
  });

  it("no generator source builds a diagnostic inline: codes are written only in generator/diagnostics/", () => {
    const root = join(REPO, "generator");
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts") && !f.startsWith("diagnostics"));
    const inline = files.filter((f) =>
      /\bcode: "[A-Z]+_[A-Z_]+"|["'`](YAML|CONFIG|BUILD|MERGE|PUBLISH)_[A-Z_]+["'`]\s*,\s*[`"']/.test(readFileSync(join(root, f), "utf8")),
    );
    expect(files.length).toBeGreaterThan(30);
    expect(inline).toEqual([]);
  });

  it('headline format: "sites/bigfuture.yaml:12:5 error CONFIG_UNKNOWN_KEY: … at modules.survey.sampel"', () => {
    expect(
      formatHeadline({
        code: "CONFIG_UNKNOWN_KEY",
        message: 'unknown key "sampel" (did you mean "sample"?)',
        file: "sites/bigfuture.yaml",
        line: 12,
        column: 5,
        path: "modules.survey.sampel",
        severity: "error",
      }),
    ).toBe('sites/bigfuture.yaml:12:5 error CONFIG_UNKNOWN_KEY: unknown key "sampel" (did you mean "sample"?) at modules.survey.sampel');
  });

  it('code frame: "the offending line with two lines around it and a caret under the column"', () => {
    const source = ["a: 1", "b: 2", "c: 3", "d: 4", "e: 5", "f: 6"].join("\n");
    expect(codeFrame(source, 4, 4)).toBe(["  2 | b: 2", "  3 | c: 3", "> 4 | d: 4", "    |    ^", "  5 | e: 5", "  6 | f: 6"].join("\n"));
    expect(codeFrame(source, 1, 1).split("\n")[0]).toBe("> 1 | a: 1");
  });
});

describe('unknown keys: "with the nearest valid key suggested"', () => {
  it("the closest key by edit distance; else the one key sharing the longest prefix of 4 or more (the contract's own typo, sampel)", async () => {
    const { nearest } = await import("../../../generator/config/nearest.js");
    const settings = ["timing", "sampling", "consent", "identity", "analyticsRules", "exclusions", "pageNames", "analytics", "budget", "modules"];
    expect(nearest("samplng", settings)).toBe("sampling");
    expect(nearest("sampel", settings)).toBe("sampling");
    expect(nearest("sampel", ["sample", "sampling"])).toBe("sample");
    expect(nearest("analyticsRulz", settings)).toBe("analyticsRules");
    expect(nearest("anal", settings)).toBeUndefined();
    expect(nearest("zzzz", settings)).toBeUndefined();
  });
});

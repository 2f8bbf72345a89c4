/**
 * Bad configurations: each directory under test/fixtures/bad-configs/ (other
 * than _base) is one broken catalogue. The case directory holds only the
 * files that differ from _base/ (same name: replaces the base file; new name:
 * adds a file; `_remove`: base file names to delete, one a line) and
 * expected.json:
 *
 *   { "rule": "...", "diagnostics": [{ "code", "file", "line", "column",
 *     "message" (a substring), "path"?, "severity"? ("error" unless given) }],
 *     "exitCode": 1, "knownBug"?: "..." }
 *
 * For every case, build() must refuse (ok false, the contract's exit code),
 * report exactly the expected (code, file, line, column) set with the messages,
 * key paths and severities given, render a code frame with the caret under the
 * column, and leave the output directory byte-for-byte as it was (contract
 * section 2: "A build that fails leaves dist/ exactly as it was before").
 *
 * A case with exitCode 0 holds warnings only: they are reported the same way,
 * and the build (of bigfuture/prod) succeeds and writes its bundle.
 *
 * A case with "knownBug" records a generator bug: expected.json holds the
 * correct diagnostics, and the diagnostics check runs as `it.fails` (it turns
 * red once the bug is fixed: then drop "knownBug"). Every other check of that
 * case still runs normally.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { build, type BuildResult } from "../../../generator/bundle/build.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "../../fixtures/bad-configs");
const BASE = join(FIXTURES, "_base");
const CASE_META = new Set(["expected.json", "_remove"]);

interface ExpectedDiagnostic {
  code: string;
  file?: string;
  line?: number;
  column?: number;
  /** A substring of the actual message. */
  message: string;
  path?: string;
  severity?: "error" | "warning";
}

interface Expected {
  rule: string;
  diagnostics: ExpectedDiagnostic[];
  exitCode: number;
  knownBug?: string;
}

interface Run {
  result: BuildResult;
  outBefore: Record<string, string>;
  outAfter: Record<string, string>;
}

const tempRoots: string[] = [];
afterAll(() => {
  for (const dir of tempRoots) rmSync(dir, { recursive: true, force: true });
});

function tempRoot(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `sitetags-bad-configs-${label}-`));
  tempRoots.push(dir);
  return dir;
}

/** base + case, merged into a fresh directory. */
function materialize(caseDir: string, sitesDir: string): void {
  mkdirSync(sitesDir, { recursive: true });
  for (const name of readdirSync(BASE)) copyFileSync(join(BASE, name), join(sitesDir, name));
  const removeList = join(caseDir, "_remove");
  if (existsSync(removeList)) {
    for (const name of readFileSync(removeList, "utf8")
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean)) {
      if (!existsSync(join(sitesDir, name))) throw new Error(`${caseDir}/_remove names ${name}, which is not in _base/`);
      rmSync(join(sitesDir, name));
    }
  }
  for (const name of readdirSync(caseDir)) {
    if (CASE_META.has(name)) continue;
    copyFileSync(join(caseDir, name), join(sitesDir, name));
  }
}

/** A known output tree: a previous manifest and bundle files with known bytes. */
function prefillOutDir(outDir: string): void {
  const bundle = "/* previous bundle */ (function(){})();\n";
  const hash = createHash("sha256").update(bundle).digest("hex").slice(0, 10);
  mkdirSync(join(outDir, "prod", "bigfuture"), { recursive: true });
  mkdirSync(join(outDir, "qa", "clep"), { recursive: true });
  writeFileSync(join(outDir, "prod", "bigfuture", `sitetags.${hash}.min.js`), bundle);
  writeFileSync(join(outDir, "prod", "bigfuture", "sitetags.min.js"), bundle);
  writeFileSync(join(outDir, "qa", "clep", "sitetags.min.js"), Buffer.from([0x00, 0xff, 0x10, 0x0a]));
  const manifest = {
    bundles: [
      {
        site: "bigfuture",
        env: "prod",
        file: `prod/bigfuture/sitetags.${hash}.min.js`,
        alias: "prod/bigfuture/sitetags.min.js",
        bytes: Buffer.byteLength(bundle),
        gzipBytes: 1,
        integrity: "sha384-previous",
        modules: ["survey"],
        inputsHash: "0000000000000000",
      },
    ],
  };
  writeFileSync(join(outDir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Every entry under dir: directories as "dir", files as the sha256 of their bytes. */
function snapshot(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const abs = join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(abs).isDirectory()) {
      out[`${rel}/`] = "dir";
      Object.assign(out, snapshot(abs, rel));
    } else {
      out[rel] = createHash("sha256").update(readFileSync(abs)).digest("hex");
    }
  }
  return out;
}

const runs = new Map<string, Promise<Run>>();
function runCase(name: string): Promise<Run> {
  let run = runs.get(name);
  if (!run) {
    run = (async () => {
      const root = tempRoot(name);
      const sitesDir = join(root, "sites");
      const outDir = join(root, "dist");
      const cacheDir = join(root, "cache");
      materialize(join(FIXTURES, name), sitesDir);
      prefillOutDir(outDir);
      const outBefore = snapshot(outDir);
      if (Object.keys(outBefore).length < 6) throw new Error(`the pre-filled output directory is incomplete: ${JSON.stringify(outBefore)}`);
      const expected = JSON.parse(readFileSync(join(FIXTURES, name, "expected.json"), "utf8")) as Expected;
      // A warnings-only case builds one bundle (as the base catalogue's own test does): enough to show warnings fail nothing.
      const narrow = expected.exitCode === 0 ? { sites: ["bigfuture"], envs: ["prod"] } : {};
      const result = await build({ sitesDir, outDir, cacheDir, ...narrow });
      return { result, outBefore, outAfter: snapshot(outDir) };
    })();
    runs.set(name, run);
  }
  return run;
}

const fileOf = (file: string | undefined) => (file === undefined ? null : basename(file));
const position = (d: { code: string; file?: string; line?: number; column?: number }) => ({
  code: d.code,
  file: fileOf(d.file),
  line: d.line ?? null,
  column: d.column ?? null,
});
const byPosition = (a: ReturnType<typeof position>, b: ReturnType<typeof position>) =>
  String(a.file).localeCompare(String(b.file)) || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) || a.code.localeCompare(b.code);

function checkDiagnostics(result: BuildResult, expected: Expected): void {
  const actual = result.diagnostics.map(position).sort(byPosition);
  const wanted = expected.diagnostics.map(position).sort(byPosition);
  expect(actual).toEqual(wanted);
  for (const want of expected.diagnostics) {
    const key = position(want);
    const got = result.diagnostics.find((d) => JSON.stringify(position(d)) === JSON.stringify(key));
    expect(got, `diagnostic ${JSON.stringify(key)}`).toBeDefined();
    expect(got!.message, `message of ${JSON.stringify(key)}`).toContain(want.message);
    expect(got!.path ?? null, `path of ${JSON.stringify(key)}`).toBe(want.path ?? null);
    expect(got!.severity, `severity of ${JSON.stringify(key)}`).toBe(want.severity ?? "error");
    // "Headlines name the path relative to the catalogue's parent" (the case's catalogue is ROOT/sites), wherever the tests run.
    if (want.file !== undefined) expect(got!.file, `file of ${JSON.stringify(key)}`).toBe(`sites/${want.file}`);
  }
}

/** The frame shows the offending line, marked with ">", and a caret under the column. */
function checkFrame(d: BuildResult["diagnostics"][number]): void {
  const label = `${d.code} at ${fileOf(d.file)}:${d.line}:${d.column}`;
  if (d.line === undefined) return;
  expect(d.column, label).toBeDefined();
  expect(d.frame, `frame of ${label}`).toBeDefined();
  const lines = d.frame!.split("\n");
  const at = lines.findIndex((l) => new RegExp(`^>\\s+${d.line} \\| `).test(l));
  expect(at, `frame of ${label} marks line ${d.line}:\n${d.frame}`).toBeGreaterThanOrEqual(0);
  const caretLine = lines[at + 1] ?? "";
  expect(caretLine, `caret line of ${label}:\n${d.frame}`).toMatch(/^\s+\| *\^$/);
  const gutter = lines[at].indexOf(" | ") + 3;
  expect(caretLine.indexOf("^") - gutter + 1, `caret column of ${label}:\n${d.frame}`).toBe(d.column);
}

const cases = readdirSync(FIXTURES)
  .filter((name) => !name.startsWith("_") && statSync(join(FIXTURES, name)).isDirectory())
  .sort();

describe("bad configurations are refused with located diagnostics", () => {
  it("has at least 32 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(32);
  });

  for (const name of cases) {
    const expected = JSON.parse(readFileSync(join(FIXTURES, name, "expected.json"), "utf8")) as Expected;
    const codes = [...new Set(expected.diagnostics.map((d) => d.code))].join(", ");
    const title = `${codes}: "${expected.rule}" — ${name}`;

    if (expected.exitCode === 0) {
      it(
        title,
        async () => {
          const { result, outBefore, outAfter } = await runCase(name);
          expect(result.diagnostics.every((d) => d.severity === "warning")).toBe(true);
          checkDiagnostics(result, expected);
          for (const d of result.diagnostics) checkFrame(d);
          // Warnings fail nothing: the bundle is built and written.
          expect(result.ok).toBe(true);
          expect(result.exitCode).toBe(0);
          expect(result.manifest?.bundles.map((b) => `${b.site}/${b.env}`)).toContain("bigfuture/prod");
          expect(outAfter).not.toEqual(outBefore);
        },
        240_000,
      );
      continue;
    }

    it(title, async () => {
      const { result, outBefore, outAfter } = await runCase(name);
      expect(result.ok).toBe(false);
      expect(result.exitCode).toBe(expected.exitCode);
      expect(result.diagnostics.length).toBeGreaterThan(0);
      if (!expected.knownBug) checkDiagnostics(result, expected);
      for (const d of result.diagnostics) checkFrame(d);
      expect(result.bundles).toEqual([]);
      // "A build that fails leaves dist/ exactly as it was before."
      expect(outAfter).toEqual(outBefore);
    });

    if (expected.knownBug) {
      it.fails(`KNOWN BUG — ${name}: the diagnostics as the rule wants them (expected.json "knownBug" says what is wrong)`, async () => {
        const { result } = await runCase(name);
        checkDiagnostics(result, expected);
      });
    }
  }
});

describe("the base catalogue of the bad-config fixtures", () => {
  it("is valid and builds (bigfuture, prod)", async () => {
    const root = tempRoot("base");
    const outDir = join(root, "dist");
    const result = await build({ sitesDir: BASE, outDir, cacheDir: join(root, "cache"), sites: ["bigfuture"], envs: ["prod"] });
    // The fixtures themselves: no configuration problem at all (any site, any env).
    expect(result.diagnostics.filter((d) => !d.code.startsWith("BUILD_"))).toEqual([]);
    // And the bundle compiles (a BUILD_* diagnostic here is a generator/runtime problem, not a fixture one).
    expect(result.diagnostics).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.exitCode).toBe(0);
    expect(result.manifest?.bundles.map((b) => `${b.site}/${b.env}`)).toEqual(["bigfuture/prod"]);
    const entry = result.manifest!.bundles[0];
    expect(entry.modules).toEqual(["survey"]);
    expect(existsSync(join(outDir, entry.file))).toBe(true);
    expect(existsSync(join(outDir, entry.alias))).toBe(true);
  }, 120_000);
});

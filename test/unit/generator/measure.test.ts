/**
 * Issue #21 (a cold build at 600 sites at most 1.5x the shipped catalogue's): a linked bundle's hashes and compressed sizes are measured
 * synchronously on worker threads (generator/bundle/measure.ts). What they give must be what the build gave before (zlib's asynchronous
 * API, the hashes of the text), in the bundles' order; a thread that fails must fail its bundle with the reason (BUILD_COMPILE_ERROR,
 * exit 3), never leave the build waiting. Fixture workers (test/fixtures/workers/) stand in for a failing thread; the real one is the
 * compiled build/generator/bundle/measure-worker.js.
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { sizesFile } from "../../../generator/bundle/sizes.js";
import fc from "fast-check";
import {
  brotliSize,
  checkForbidden,
  FORBIDDEN,
  forbiddenCheckText,
  gzipSize,
  linkBundle,
  linkBundleBytes,
  linkBundles,
  MEASURE_THREADS_FROM,
} from "../../../generator/bundle/link.js";
import { sha256, sha384Integrity } from "../../../generator/bundle/hash.js";
import { createMeasurePool, measureBundle, type Measured } from "../../../generator/bundle/measure.js";
import { CONFIG_TOKEN, DEV_CHECKS_TOKEN, MODULES_TOKEN } from "../../../generator/bundle/entry.js";
import type { PieceSet } from "../../../generator/bundle/compile.js";
import type { PieceResult } from "../../../generator/bundle/compile-piece.js";
import { MODULE_NAMES } from "../../../generator/bundle/build.js";
import { loadCatalogue } from "../../../generator/config/load.js";
import { SITES, tempDir } from "../../helpers/fs.js";
import { DIAGNOSTICS } from "../../../generator/diagnostics/diagnostics.js";

const fixture = (name: string) => new URL(`../../fixtures/workers/${name}.js`, import.meta.url);
const realWorker = new URL("../../../build/generator/bundle/measure-worker.js", import.meta.url);

/** Bundle-like code: some repetition for the compressors, different in each. */
const codeOf = (i: number) =>
  `!function(){var c=${JSON.stringify({ site: `s${i}`, rules: Array.from({ length: 40 + i }, (_, r) => ({ id: `r${r}`, when: `page ${r * i}` })) })};console.log(c)}();`;

const settle = (p: Promise<Measured>) =>
  p.then(
    (m) => `ok ${m.sha256.slice(0, 8)}`,
    (err: Error) => `failed: ${err.message}`,
  );

/** Fragments whose concatenations make texts with and without the constructs the CSP forbids, around their edges (whitespace and word characters beyond ASCII, quotes, line ends). */
const FRAGMENTS = [
  "eval",
  "(",
  " ",
  "\u00a0",
  "\u2028",
  "\u3000",
  "\ufeff",
  "\u0085",
  "\u2026",
  "\u00e9",
  "\u{1F600}",
  "\ud800",
  "Function",
  "new ",
  "new",
  "set",
  "Timeout",
  "Interval",
  "document.write",
  "ln",
  "'",
  '"',
  "`",
  "x",
  "_",
  "\n",
  "new\u00a0Function",
  "new\u3000Function",
];

describe("measuring a linked bundle (generator/bundle/measure.ts)", () => {
  it('"gzipBytes and brotliBytes stay gzip -9 and brotli q5": the synchronous measure gives what zlib\'s asynchronous API gave, and the hashes of the text', async () => {
    for (const code of [codeOf(1), codeOf(7), "x", `${"\u00e9\u2028"}${codeOf(3)}`]) {
      const m = measureBundle(Buffer.from(code));
      expect(m).toEqual({ sha256: sha256(code), integrity: sha384Integrity(code), gzipBytes: await gzipSize(code), brotliBytes: await brotliSize(code) });
    }
  });

  it("with a cache folder, the same bytes are compressed once and the cache file is cachedSizes's (the same key for the text and its bytes)", () => {
    const cacheDir = tempDir("measure");
    const bytes = Buffer.from(codeOf(2));
    const first = measureBundle(bytes, cacheDir);
    expect(readdirSync(join(cacheDir, "sizes"))).toEqual([basename(sizesFile(cacheDir, codeOf(2)))]);
    expect(JSON.parse(readFileSync(sizesFile(cacheDir, codeOf(2)), "utf8"))).toEqual({ gzipBytes: first.gzipBytes, brotliBytes: first.brotliBytes });
    // Read back, not compressed again: what the file says is what comes back.
    writeFileSync(sizesFile(cacheDir, codeOf(2)), JSON.stringify({ gzipBytes: 11, brotliBytes: 12 }));
    expect(measureBundle(bytes, cacheDir)).toEqual({ ...first, gzipBytes: 11, brotliBytes: 12 });
  });

  it("measuring threads answer what this thread measures, each bundle its own, in the bundles' order", async () => {
    const codes = Array.from({ length: 24 }, (_, i) => Buffer.from(codeOf(i)));
    const pool = createMeasurePool(2, { workerUrl: realWorker });
    expect(pool.threads).toBe(2);
    try {
      const threaded = await Promise.all(codes.map((c) => pool.measure(c)));
      expect(threaded).toEqual(codes.map((c) => measureBundle(c)));
    } finally {
      await pool.close();
    }
  });

  it("a measuring thread that throws or exits fails its bundle with the reason; the others go on; once none is left, every later bundle fails instead of waiting", async () => {
    const pool = createMeasurePool(2, { workerUrl: fixture("measure-worker") });
    try {
      const first = await Promise.all(["ok-1", "throw-now-2", "ok-3", "ok-4"].map((c) => settle(pool.measure(Buffer.from(c)))));
      expect(first).toEqual([
        `ok ${sha256("ok-1").slice(0, 8)}`,
        "failed: worker thread failed: boom",
        `ok ${sha256("ok-3").slice(0, 8)}`,
        `ok ${sha256("ok-4").slice(0, 8)}`,
      ]);
      const second = await Promise.all(["exit-now-5", "ok-6", "ok-7"].map((c) => settle(pool.measure(Buffer.from(c)))));
      expect(second).toEqual([
        "failed: worker thread exited (code 7)",
        "failed: no worker thread left (worker thread exited (code 7))",
        "failed: no worker thread left (worker thread exited (code 7))",
      ]);
      expect(await settle(pool.measure(Buffer.from("ok-8")))).toBe("failed: no worker thread left (worker thread exited (code 7))");
    } finally {
      await pool.close();
    }
  });
});

/** Pieces for any name: a core with the three placeholders, a module or the checks as a comment (no deferred piece). */
class AnyPieces extends Map<string, PieceResult> {
  override get(name: string): PieceResult {
    const code = name.startsWith("core.")
      ? `!function(){var c=${CONFIG_TOKEN},m=${MODULES_TOKEN},d=${DEV_CHECKS_TOKEN};console.log(c,m,d)}();`
      : `/*${name}*/0`;
    return { key: name, name, code } as PieceResult;
  }
  override has(name: string): boolean {
    return name !== "deferred";
  }
}

describe("linking the bundles with measuring threads (generator/bundle/link.ts linkBundles)", () => {
  it('"a build failure exits 3": a measuring thread that fails fails its bundles with BUILD_COMPILE_ERROR, nothing of theirs is staged, and the build does not wait', async () => {
    const catalogue = await loadCatalogue({ sitesDir: SITES, moduleNames: MODULE_NAMES });
    const toBuild = catalogue.bundles.slice(0, MEASURE_THREADS_FROM).map((bundle) => ({ bundle, inputsHash: "h" }));
    const set: PieceSet = { order: [...MODULE_NAMES], pieces: new AnyPieces() };
    const staged: string[] = [];
    const emit = async (report: { file: string }) => void staged.push(report.file);
    // The real thread: every bundle measured, in order, and staged.
    const good = await linkBundles(toBuild, set, () => undefined, undefined, emit, { threads: 2, workerUrl: realWorker });
    expect(good.diagnostics).toEqual([]);
    expect(good.outputs.map((o) => `${o.report.env}/${o.report.site}`)).toEqual(toBuild.map(({ bundle }) => `${bundle.env}/${bundle.site}`));
    expect(staged).toHaveLength(toBuild.length);
    // The same reports as measured on this thread (threads: 0).
    const here = await linkBundles(toBuild, set, () => undefined, undefined, undefined, { threads: 0 });
    expect(good.outputs).toEqual(here.outputs);
    // Threads that exit on their first bundle (the fixture exits on code holding "exit-now").
    staged.length = 0;
    const exiting: PieceSet = {
      order: set.order,
      pieces: new (class extends AnyPieces {
        override get(name: string): PieceResult {
          const piece = super.get(name);
          return name.startsWith("core.") ? { ...piece, code: `${piece.code}/*exit-now*/` } : piece;
        }
      })(),
    };
    const bad = await linkBundles(toBuild, exiting, () => undefined, undefined, emit, { threads: 2, workerUrl: fixture("measure-worker") });
    expect(bad.outputs).toEqual([]);
    expect(staged).toEqual([]);
    expect(bad.diagnostics).toHaveLength(toBuild.length);
    expect(new Set(bad.diagnostics.map((d) => d.code))).toEqual(new Set(["BUILD_COMPILE_ERROR"]));
    expect(bad.diagnostics[0].message).toMatch(/^bundle \S+: measuring its hashes and compressed sizes: worker thread exited \(code 7\)$/);
  });
});

describe("linking a bundle's bytes (generator/bundle/link.ts linkBundleBytes, forbiddenCheckText)", () => {
  it("a bundle's bytes are its text's UTF-8 bytes, with the same bytes per piece, whatever characters its pieces and config hold", async () => {
    const catalogue = await loadCatalogue({ sitesDir: SITES, moduleNames: MODULE_NAMES });
    // Pieces with characters beyond Latin-1 (a two-byte text), beyond the BMP and a placeholder twice in the core.
    const wide = new (class extends AnyPieces {
      override get(name: string): PieceResult {
        const piece = super.get(name);
        return name.startsWith("core.")
          ? { ...piece, code: `${piece.code}/*\u2026 \u{1F600}*/${CONFIG_TOKEN}` }
          : { ...piece, code: `${piece.code}/*\u00e9 ${name}*/` };
      }
    })();
    for (const pieces of [new AnyPieces(), wide]) {
      const set: PieceSet = { order: [...MODULE_NAMES], pieces };
      for (const bundle of catalogue.bundles) {
        const { code, moduleBytes } = linkBundle(set, bundle);
        const linked = linkBundleBytes(set, bundle);
        expect(linked.bytes.equals(Buffer.from(code)), `${bundle.env}/${bundle.site}`).toBe(true);
        expect(linked.moduleBytes).toEqual(moduleBytes);
        expect(Object.values(moduleBytes).reduce((a, b) => a + b, 0)).toBe(linked.bytes.length);
      }
    }
  });

  it('"No eval, new Function, string timers or document.write": each pattern is found in forbiddenCheckText(bytes) exactly when it is found in the text (whitespace and word characters beyond ASCII included)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 12 }), (parts) => {
        const text = parts.join("");
        const checked = forbiddenCheckText(Buffer.from(text));
        for (const [pattern] of FORBIDDEN) expect(pattern.test(checked), `${pattern} in ${JSON.stringify(text)}`).toBe(pattern.test(text));
      }),
      { numRuns: 3000 },
    );
    // The cases a Latin-1 reading alone gets wrong: whitespace beyond ASCII (NBSP is C2 A0, U+3000 is E3 80 80).
    for (const text of ["eval\u00a0(", "eval\u3000(", "setTimeout(\u2028'x'"])
      expect(FORBIDDEN.some(([p]) => p.test(forbiddenCheckText(Buffer.from(text))))).toBe(true);
  });

  it('"No eval, new Function, string timers or document.write": checkForbidden (one scan, the patterns as one alternation) names exactly the patterns that each find something in the text', () => {
    const oneByOne = (text: string) => FORBIDDEN.filter(([p]) => p.test(text)).map(([, what]) => DIAGNOSTICS.forbiddenCode("prod/go", what).message);
    const named = (text: string) => checkForbidden(text, "prod/go").map((d) => d.message);
    let found = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 12 }), (parts) => {
        const text = parts.join("");
        if (oneByOne(text).length) found++;
        expect(named(text)).toEqual(oneByOne(text));
      }),
      { numRuns: 3000 },
    );
    // The property saw texts with and without a forbidden construct.
    expect(found).toBeGreaterThan(0);
    expect(found).toBeLessThan(3000);
    const two = 'setTimeout(f,1);eval ("x");document.write("y")';
    expect(named(two)).toEqual(oneByOne(two));
    expect(named(two)).toHaveLength(2);
    expect(named("setTimeout(f,1);new Date()")).toEqual([]);
  });
});

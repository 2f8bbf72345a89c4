/**
 * Step 5 of the build, link: each bundle is the core piece with its
 * placeholders replaced (the config as JSON, the object of the bundle's
 * module pieces, the checks piece or `void 0`), then hashed, measured
 * (bytes, gzip) and checked against its budget and the constructs the
 * page's Content-Security-Policy forbids. Bundles go through link, gzip and
 * brotli a few at a time (LINK_CONCURRENCY), not all at once: memory stays
 * bounded by the few in flight, whatever the catalogue's size.
 */
import { availableParallelism } from "node:os";
import { promisify } from "node:util";
import { brotliCompress, gzip, constants as zlib } from "node:zlib";
import type { ResolvedBundle } from "../config/load.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { DIAGNOSTICS } from "../diagnostics/diagnostics.js";
import type { PieceSet } from "./compile.js";
import { CONFIG_TOKEN, DEV_CHECKS_TOKEN, MODULES_TOKEN } from "./entry.js";
import { COMPILE_HINT } from "./compile-hint.js";
import { DEFERRED_TOKEN, deferredFile, deferredTokenValue } from "./deferred.js";
import { brotliWindowBits, createMeasurePool, type Measured, type MeasurePoolOptions } from "./measure.js";
import type { ManifestEntry } from "./manifest.js";
import { coreOf, hasDevChecks } from "./plan.js";
import { BROTLI_QUALITY } from "./sizes.js";
import { trimConfig } from "./trim-config.js";

export interface BundleReport extends ManifestEntry {
  status: "built" | "reused";
  budgetGzipBytes: number;
  /** Minified bytes (UTF-8) per piece: core (with the factories object's keys), each feature module, devChecks (non-production), config; they add up to `bytes`. */
  moduleBytes: Record<string, number>;
  moduleSources: Record<string, string>;
}

export const FORBIDDEN: Array<[RegExp, string]> = [
  [/\beval\s*\(/, "eval("],
  [/\bnew Function\b|\bFunction\s*\(\s*["'`]/, "new Function"],
  [/document\.write(ln)?\s*\(/, "document.write"],
  [/\bset(Timeout|Interval)\(\s*["'`]/, "a string timer"],
];

/** Serialises the config for inlining: valid JS in every engine (U+2028/9 escaped). */
export function inlineConfig(config: unknown): string {
  return JSON.stringify(config)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029")
    .replace(/<\//g, "<\\/");
}

/** The core's placeholders, captured: a core split at them alternates its own text and a token (String.prototype.split). */
const TOKENS = new RegExp(`(${CONFIG_TOKEN}|${MODULES_TOKEN}|${DEV_CHECKS_TOKEN}|${DEFERRED_TOKEN})`);

/** Text and its UTF-8 bytes. */
type Part = readonly [text: string, bytes: Buffer];
const part = (text: string): Part => [text, Buffer.from(text)];

/** A piece's code with its UTF-8 bytes, and a core's parts (its text between placeholders, and the placeholders), encoded once per piece. */
const pieceParts = new WeakMap<object, Part>();
const coreSplits = new WeakMap<object, Array<Part | string>>();
const partOf = (piece: { code: string }): Part => {
  let p = pieceParts.get(piece);
  if (!p) pieceParts.set(piece, (p = part(piece.code)));
  return p;
};
const splitOf = (core: { code: string }): Array<Part | string> => {
  let split = coreSplits.get(core);
  if (!split) coreSplits.set(core, (split = core.code.split(TOKENS).map((text, i) => (i % 2 ? text : part(text)))));
  return split;
};
const HINT = part(COMPILE_HINT);

/** A bundle's parts in order (each whole text with its UTF-8 bytes) and the minified bytes of each piece in it. */
function linkParts(set: PieceSet, bundle: ResolvedBundle): { parts: Part[]; moduleBytes: Record<string, number> } {
  const core = set.pieces.get(coreOf(bundle))!;
  const modules = set.order.filter((m) => bundle.modules.includes(m));
  const factories: Part[] = [];
  for (const [i, m] of modules.entries()) factories.push(part(`${i ? "," : "{"}${m}:`), partOf(set.pieces.get(m)!));
  factories.push(part(modules.length ? "}" : "{}"));
  const checks = hasDevChecks(bundle) ? partOf(set.pieces.get("devChecks")!) : part("void 0");
  // What the bundle can never read is left out (trim-config.ts).
  const config = part(inlineConfig(trimConfig(bundle.config)));
  const values: Record<string, Part[]> = {
    [CONFIG_TOKEN]: [config],
    [MODULES_TOKEN]: factories,
    [DEV_CHECKS_TOKEN]: [checks],
    [DEFERRED_TOKEN]: [part(deferredTokenValue(set))],
  };
  const parts: Part[] = [HINT];
  for (const p of splitOf(core)) {
    if (typeof p === "string") parts.push(...values[p]);
    else parts.push(p);
  }
  // UTF-8 bytes, as served: the rows add up to the bundle's size.
  const moduleBytes: Record<string, number> = {};
  for (const m of modules) moduleBytes[m] = partOf(set.pieces.get(m)!)[1].length;
  if (hasDevChecks(bundle)) moduleBytes.devChecks = checks[1].length;
  moduleBytes.config = config[1].length;
  const size = parts.reduce((sum, [, b]) => sum + b.length, 0);
  return { parts, moduleBytes: { core: size - Object.values(moduleBytes).reduce((a, b) => a + b, 0), ...moduleBytes } };
}

/**
 * Links one bundle: the core with its placeholders replaced by the config JSON, the object of the bundle's module pieces (registry order)
 * and the checks piece or `void 0`. Also the minified bytes of each piece in it.
 */
export function linkBundle(set: PieceSet, bundle: ResolvedBundle): { code: string; moduleBytes: Record<string, number> } {
  const { parts, moduleBytes } = linkParts(set, bundle);
  return { code: parts.map(([text]) => text).join(""), moduleBytes };
}

/**
 * linkBundle's bundle as its UTF-8 bytes, put together from each piece's bytes encoded once, without its text (issue #21: at 600 sites,
 * replacing the placeholders in the text and encoding it three times cost the main thread several milliseconds per bundle, most of it
 * allocating the text: a bundle with a character beyond Latin-1 is a two-byte string of about 200 KB, which V8 allocates as a large
 * object each time). The same bytes as `Buffer.from(linkBundle(set, bundle).code)`: each part is whole text and the placeholders are ASCII.
 */
export function linkBundleBytes(set: PieceSet, bundle: ResolvedBundle): { bytes: Buffer; moduleBytes: Record<string, number> } {
  const { parts, moduleBytes } = linkParts(set, bundle);
  return { bytes: Buffer.concat(parts.map(([, b]) => b)), moduleBytes };
}

/** Whether a character (a UTF-8 sequence read as Latin-1) is whitespace to a regular expression's `\s`. */
const isSpace = (sequence: string) => /^\s$/.test(Buffer.from(sequence, "latin1").toString("utf8"));

/**
 * The text FORBIDDEN's patterns read for a bundle's UTF-8 bytes, found in it exactly when they are found in the bundle's text: the bytes
 * read as Latin-1, which for ASCII is the text itself; a character beyond ASCII (its UTF-8 sequence) becomes one character of the same class
 * for the patterns, which are ASCII but for `\s` and `\b`: U+00A0 for whitespace (whitespace, but not the patterns' own space), else U+0080
 * (neither whitespace nor a word character).
 */
export function forbiddenCheckText(bytes: Buffer): string {
  const latin1 = bytes.toString("latin1");
  return /[\x80-\xff]/.test(latin1) ? latin1.replace(/[\xc0-\xff][\x80-\xbf]*|[\x80-\xbf]/g, (seq) => (isSpace(seq) ? "\xa0" : "\x80")) : latin1;
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** gzip -9: what the budgets are checked against. */
export const gzipSize = async (code: string) => (await gzipAsync(code, { level: zlib.Z_BEST_COMPRESSION })).length;

/** Brotli at BROTLI_QUALITY, about what the CDN serves most browsers: reported (manifest, summary), never budgeted. */
export async function brotliSize(code: string): Promise<number> {
  const bytes = Buffer.byteLength(code);
  const params = { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.BROTLI_PARAM_LGWIN]: brotliWindowBits(bytes) };
  return (await brotliAsync(code, { params })).length;
}

/** Bundles linked and compressed at once: enough to keep the thread pool busy on every core, few enough that memory does not grow with the catalogue. */
export const LINK_CONCURRENCY = Math.max(2, availableParallelism() * 2);

/** Runs `fn` over `items` with at most `limit` at a time; results in the items' order. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

/**
 * FORBIDDEN's patterns as one alternation: it matches a text exactly when one of them does, in one scan of the text instead of one a
 * pattern (issue #21: four scans of each of the 600-site catalogue's 2,280 bundles, about 200 KB each, cost the build's main thread about a
 * second); only a text it matches is scanned again by each pattern, to name what was found.
 */
const FORBIDDEN_ANY = new RegExp(FORBIDDEN.map(([pattern]) => `(?:${pattern.source})`).join("|"));

/** The constructs the page's Content-Security-Policy forbids, found in a file of bundle `dir`. */
export function checkForbidden(code: string, dir: string): Diagnostic[] {
  if (!FORBIDDEN_ANY.test(code)) return [];
  return FORBIDDEN.filter(([pattern]) => pattern.test(code)).map(([, what]) => DIAGNOSTICS.forbiddenCode(dir, what));
}

/** What a budget or forbidden-code check found wrong with a linked bundle (budgets: the first file's gzip only). */
function checkBundle(code: string, report: BundleReport, bundle: ResolvedBundle): Diagnostic[] {
  const dir = `${bundle.env}/${bundle.site}`;
  const out: Diagnostic[] = checkForbidden(code, dir);
  if (report.gzipBytes > bundle.budgetGzipBytes) {
    out.push({
      ...DIAGNOSTICS.overBudget(dir, report.gzipBytes, bundle.budgetGzipBytes, report.moduleBytes),
      file: bundle.budgetSource?.file,
      line: bundle.budgetSource?.line,
      column: bundle.budgetSource?.column,
      path: "budget.gzipBytes",
    });
  }
  return out;
}

/**
 * From how many bundles to build the measuring runs on worker threads (measure.ts): below it, starting the threads (about 30 ms of CPU
 * each) costs more than they save (a one-site rebuild links 4 bundles).
 */
export const MEASURE_THREADS_FROM = 32;

export interface LinkOptions extends MeasurePoolOptions {
  /** Measuring threads when there are MEASURE_THREADS_FROM bundles or more (one per core by default); 0 measures on this thread. */
  threads?: number;
}

/**
 * Links, hashes, measures (bytes, gzip, brotli) and checks the bundles to build, LINK_CONCURRENCY at a time: this thread links each bundle
 * and encodes it once; hashing and compressing run on the measuring threads (measure.ts), one per core, beside it. With a cacheDir, bytes
 * measured before are not compressed again (sizes.ts). Each bundle's bytes go to `emit` (the write's staging) as soon as it is measured and
 * are not kept: memory holds the few bundles in flight, not the catalogue (issue #21). Without `emit` they are dropped (a dry run). A
 * measuring thread that fails or stops fails its bundle (BUILD_COMPILE_ERROR), and the bundles after it once no thread is left.
 */
export async function linkBundles(
  toBuild: ReadonlyArray<{ bundle: ResolvedBundle; inputsHash: string }>,
  set: PieceSet,
  onBundle: (label: string) => void,
  cacheDir?: string,
  emit?: (report: BundleReport, code: Buffer, deferredCode?: string) => Promise<void>,
  options: LinkOptions = {},
): Promise<{ outputs: Array<{ report: BundleReport }>; diagnostics: Diagnostic[]; spent: { link: number; compress: number; stage: number } }> {
  // Milliseconds per step, summed over the bundles (the build's profile).
  const spent = { link: 0, compress: 0, stage: 0 };
  const deferred = deferredFile(set);
  const pool = createMeasurePool(toBuild.length >= MEASURE_THREADS_FROM ? (options.threads ?? availableParallelism()) : 0, options);
  try {
    // The deferred file is the same for every bundle: checked once, reported in each bundle that names it.
    const deferredForbidden = deferred !== undefined && checkForbidden(deferred.code, "").length > 0;
    let deferredSizes: { gzipBytes: number; brotliBytes: number } | undefined;
    let deferredFailed: string | undefined;
    if (deferred)
      await pool.measure(Buffer.from(deferred.code), cacheDir).then(
        ({ gzipBytes, brotliBytes }) => void (deferredSizes = { gzipBytes, brotliBytes }),
        (err: Error) => void (deferredFailed = err.message),
      );
    const outputs = await mapBounded(toBuild, LINK_CONCURRENCY, async ({ bundle, inputsHash }) => {
      const dir = `${bundle.env}/${bundle.site}`;
      let t = performance.now();
      // The bundle's bytes: hashed, compressed, checked and written.
      const { bytes, moduleBytes } = linkBundleBytes(set, bundle);
      spent.link += performance.now() - t;
      t = performance.now();
      let measured: Measured;
      try {
        if (deferredFailed !== undefined) throw new Error(deferredFailed);
        measured = await pool.measure(bytes, cacheDir);
      } catch (err) {
        onBundle(dir);
        return { report: undefined, diagnostics: [DIAGNOSTICS.measureFailed(dir, (err as Error).message)] };
      } finally {
        spent.compress += performance.now() - t;
      }
      const { gzipBytes, brotliBytes } = measured;
      const report: BundleReport = {
        site: bundle.site,
        env: bundle.env,
        file: `${dir}/sitetags.${measured.sha256.slice(0, 10)}.min.js`,
        alias: `${dir}/sitetags.min.js`,
        bytes: bytes.length,
        gzipBytes,
        brotliBytes,
        integrity: measured.integrity,
        modules: bundle.modules,
        inputsHash,
        status: "built",
        budgetGzipBytes: bundle.budgetGzipBytes,
        moduleBytes,
        moduleSources: bundle.moduleSources,
      };
      if (deferred && deferredSizes)
        report.deferred = { file: `${dir}/${deferred.name}`, bytes: Buffer.byteLength(deferred.code), ...deferredSizes, integrity: deferred.integrity };
      const diagnostics = [...checkBundle(forbiddenCheckText(bytes), report, bundle), ...(deferredForbidden ? checkForbidden(deferred!.code, dir) : [])];
      t = performance.now();
      if (!diagnostics.length) await emit?.(report, bytes, deferred?.code);
      spent.stage += performance.now() - t;
      onBundle(dir);
      return { report, diagnostics };
    });
    return {
      outputs: outputs.flatMap(({ report }) => (report ? [{ report }] : [])),
      diagnostics: outputs.flatMap((o) => o.diagnostics),
      spent,
    };
  } finally {
    await pool.close();
  }
}

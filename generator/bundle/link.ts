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

const FORBIDDEN: Array<[RegExp, string]> = [
  [/\beval\s*\(/, "eval("],
  [/\bnew Function\b|\bFunction\s*\(\s*["'`]/, "new Function"],
  [/document\.write(ln)?\s*\(/, "document.write"],
  [/\bset(Timeout|Interval)\(\s*["'`]/, "a string timer"],
];

/**
 * V8's explicit compile hint (Chrome 136+; other engines read a comment): it
 * must be the file's very first bytes. The bundle runs nearly all of its
 * functions while the page loads (boot, consent, identity, the page view), so
 * V8 compiles them all up front, on the streaming thread while the script
 * downloads, instead of lazily on the main thread at each first call, which
 * also parsed each function twice. `npm run bench` (edge) measures the
 * main-thread time with it.
 */
export const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";

/** Serialises the config for inlining: valid JS in every engine (U+2028/9 escaped). */
export function inlineConfig(config: unknown): string {
  return JSON.stringify(config)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029")
    .replace(/<\//g, "<\\/");
}

/**
 * Links one bundle: the core with its placeholders replaced by the config
 * JSON, the object of the bundle's module pieces (registry order) and the
 * checks piece or `void 0`. Also the minified bytes of each piece in it.
 */
export function linkBundle(set: PieceSet, bundle: ResolvedBundle): { code: string; moduleBytes: Record<string, number> } {
  const core = set.pieces.get(coreOf(bundle))!.code;
  const modules = set.order.filter((m) => bundle.modules.includes(m));
  const factories = `{${modules.map((m) => `${m}:${set.pieces.get(m)!.code}`).join(",")}}`;
  const checks = hasDevChecks(bundle) ? set.pieces.get("devChecks")!.code : "void 0";
  // What the bundle can never read is left out (trim-config.ts).
  const config = inlineConfig(trimConfig(bundle.config));
  const values: Record<string, string> = {
    [CONFIG_TOKEN]: config,
    [MODULES_TOKEN]: factories,
    [DEV_CHECKS_TOKEN]: checks,
    [DEFERRED_TOKEN]: deferredTokenValue(set),
  };
  const code = COMPILE_HINT + core.replace(new RegExp(`${CONFIG_TOKEN}|${MODULES_TOKEN}|${DEV_CHECKS_TOKEN}|${DEFERRED_TOKEN}`, "g"), (token) => values[token]);
  // UTF-8 bytes, as served: the rows add up to the bundle's size.
  const size = (text: string) => Buffer.byteLength(text);
  const moduleBytes: Record<string, number> = {};
  for (const m of modules) moduleBytes[m] = size(set.pieces.get(m)!.code);
  if (hasDevChecks(bundle)) moduleBytes.devChecks = size(checks);
  moduleBytes.config = size(config);
  return { code, moduleBytes: { core: size(code) - Object.values(moduleBytes).reduce((a, b) => a + b, 0), ...moduleBytes } };
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

/** The constructs the page's Content-Security-Policy forbids, found in a file of bundle `dir`. */
function checkForbidden(code: string, dir: string): Diagnostic[] {
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
      const { code, moduleBytes } = linkBundle(set, bundle);
      // Encoded once: hashed, compressed and written as these bytes.
      const bytes = Buffer.from(code);
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
      const diagnostics = [...checkBundle(code, report, bundle), ...(deferred ? checkForbidden(deferred.code, dir) : [])];
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

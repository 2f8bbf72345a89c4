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
import { sha256, sha384Integrity } from "./hash.js";
import type { ManifestEntry } from "./manifest.js";
import { coreOf, hasDevChecks } from "./plan.js";
import { BROTLI_QUALITY, cachedSizes } from "./sizes.js";
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

export { COMPILE_HINT };

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

/**
 * The window `brotli FILE` uses for a file of `bytes` (the command's own
 * rule): the smallest from 2^10 that holds the whole file, at most 2^24.
 * zlib's default, 2^22, compresses a bundle no better, and the encoder's
 * tables grow with the window.
 */
export function brotliWindowBits(bytes: number): number {
  let bits = zlib.BROTLI_MIN_WINDOW_BITS;
  while (bits < zlib.BROTLI_MAX_WINDOW_BITS && (1 << bits) - 16 < bytes) bits++;
  return bits;
}

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

const measureSizes = async (code: string) => {
  const [gzipBytes, brotliBytes] = await Promise.all([gzipSize(code), brotliSize(code)]);
  return { gzipBytes, brotliBytes };
};

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
 * Links, hashes, measures (bytes, gzip, brotli) and checks the bundles to build, LINK_CONCURRENCY at a time (compression on the thread pool).
 * With a cacheDir, bytes measured before are not compressed again (sizes.ts). Each bundle's bytes go to `emit` (the write's staging) as soon as
 * it is linked and are not kept: memory holds the few bundles in flight, not the catalogue (issue #21). Without `emit` they are dropped (a dry run).
 */
export async function linkBundles(
  toBuild: ReadonlyArray<{ bundle: ResolvedBundle; inputsHash: string }>,
  set: PieceSet,
  onBundle: (label: string) => void,
  cacheDir?: string,
  emit?: (report: BundleReport, code: Buffer, deferredCode?: string) => Promise<void>,
): Promise<{ outputs: Array<{ report: BundleReport }>; diagnostics: Diagnostic[]; spent: { link: number; compress: number; stage: number } }> {
  // Milliseconds per step, summed over the bundles (the build's profile).
  const spent = { link: 0, compress: 0, stage: 0 };
  const deferred = deferredFile(set);
  const deferredSizes =
    deferred && (cacheDir === undefined ? await measureSizes(deferred.code) : await cachedSizes(cacheDir, deferred.code, () => measureSizes(deferred.code)));
  const outputs = await mapBounded(toBuild, LINK_CONCURRENCY, async ({ bundle, inputsHash }) => {
    let t = performance.now();
    const { code, moduleBytes } = linkBundle(set, bundle);
    spent.link += performance.now() - t;
    t = performance.now();
    const measure = async () => {
      const [gzipBytes, brotliBytes] = await Promise.all([gzipSize(code), brotliSize(code)]);
      return { gzipBytes, brotliBytes };
    };
    const { gzipBytes, brotliBytes } = cacheDir === undefined ? await measure() : await cachedSizes(cacheDir, code, measure);
    spent.compress += performance.now() - t;
    const hash = sha256(code).slice(0, 10);
    const dir = `${bundle.env}/${bundle.site}`;
    const report: BundleReport = {
      site: bundle.site,
      env: bundle.env,
      file: `${dir}/sitetags.${hash}.min.js`,
      alias: `${dir}/sitetags.min.js`,
      bytes: Buffer.byteLength(code),
      gzipBytes,
      brotliBytes,
      integrity: sha384Integrity(code),
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
    if (!diagnostics.length) await emit?.(report, Buffer.from(code), deferred?.code);
    spent.stage += performance.now() - t;
    onBundle(dir);
    return { report, diagnostics };
  });
  return { outputs: outputs.map(({ report }) => ({ report })), diagnostics: outputs.flatMap((o) => o.diagnostics), spent };
}

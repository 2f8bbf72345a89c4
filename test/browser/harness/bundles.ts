/**
 * Real bundles for the browser tests, made by the generator's own build()
 * (the same code path as `sitetags build`), from the repository's sites/ or
 * from a temporary catalogue a test writes (`tempCatalogue`).
 *
 * Each call builds into a fresh temp outDir (removed after the file's
 * tests, see temp.ts). The compile cache is shared by all test files of a run, and by the
 * following runs: the repository's own .sitetags-cache/ (which `npx sitetags
 * build` fills before `npm test`: its pieces and the sizes of the shipped
 * bundles are there already), keyed by the runtime's source hash, so only the
 * first build after a runtime change compiles. vitest runs files in parallel
 * processes, so builds take a lock on the cache (a lock file in it) and run
 * one at a time.
 *
 *     const { clep } = await buildBundles({ clep: ["clep", "qa"] });
 *     const bigfutureQa = await buildBundle("bigfuture", "qa");
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type BundleReport } from "../../../generator/bundle/build.js";
import type { BundleConfig, EnvName } from "../../../generator/config/bundle-config.js";
import type { ServableBundle } from "./servers.js";
import { tempDir } from "./temp.js";

/** The repository's catalogue. */
export const SITES_DIR = fileURLToPath(new URL("../../../sites/", import.meta.url));
/** The compile cache shared by the test runs (see above); SITETAGS_TEST_CACHE names another (e.g. a fresh one). */
export const CACHE_DIR = process.env.SITETAGS_TEST_CACHE || fileURLToPath(new URL("../../../.sitetags-cache/", import.meta.url));

export interface Bundle extends ServableBundle {
  site: string;
  env: EnvName;
  /** The minified bundle. */
  code: string;
  /** dist-relative names, e.g. "qa/clep/sitetags.min.js" and "qa/clep/sitetags.0123456789.min.js". */
  alias: string;
  file: string;
  /** Module names in the bundle. */
  modules: string[];
  /** The resolved configuration inlined into the bundle. */
  config: BundleConfig;
  /** build()'s report on this bundle (bytes, gzipBytes, integrity, ...). */
  report: BundleReport;
  /** The temp dist directory it was written to. */
  outDir: string;
}

export interface BuildBundleOptions {
  /** Catalogue directory (default the repository's sites/). */
  sitesDir?: string;
}

/** Builds one site x environment bundle. */
export async function buildBundle(site: string, env: EnvName, options: BuildBundleOptions = {}): Promise<Bundle> {
  const { bundle } = await buildBundles({ bundle: [site, env] }, options);
  return bundle;
}

/**
 * Builds several bundles with one build() call; returns them under the
 * given names. Throws with the build's diagnostics when it fails.
 */
export async function buildBundles<K extends string>(
  wanted: Record<K, [site: string, env: EnvName]>,
  options: BuildBundleOptions = {},
): Promise<Record<K, Bundle>> {
  const pairs = Object.values(wanted) as Array<[string, EnvName]>;
  const outDir = tempDir("sitetags-test-dist-");
  const result = await withCacheLock(() =>
    build({
      sitesDir: options.sitesDir ?? SITES_DIR,
      outDir,
      cacheDir: CACHE_DIR,
      sites: unique(pairs.map(([site]) => site)),
      envs: unique(pairs.map(([, env]) => env)),
    }),
  );
  if (!result.ok) {
    const lines = result.diagnostics.map((d) => `${d.file ?? ""}${d.line ? `:${d.line}` : ""} ${d.code}: ${d.message}`);
    throw new Error(`build() failed (exit code ${result.exitCode}):\n${lines.join("\n")}`);
  }
  const out = {} as Record<K, Bundle>;
  for (const name of Object.keys(wanted) as K[]) {
    const [site, env] = wanted[name];
    const report = result.bundles.find((b) => b.site === site && b.env === env);
    const resolved = result.catalogue?.bundles.find((b) => b.site === site && b.env === env);
    if (!report || !resolved) throw new Error(`the catalogue has no bundle ${env}/${site}`);
    out[name] = {
      site,
      env,
      code: readFileSync(join(outDir, report.alias), "utf8"),
      alias: report.alias,
      file: report.file,
      modules: report.modules,
      config: resolved.config,
      report,
      outDir,
      // Served beside it (servers.ts), so every browser test runs the real split (first file plus deferred file).
      ...(report.deferred ? { deferred: { file: report.deferred.file, code: readFileSync(join(outDir, report.deferred.file), "utf8") } } : {}),
    };
  }
  return out;
}

/**
 * A temporary catalogue: the repository's sites/_org.yaml plus the given
 * files (name -> YAML text), or copies of repository site files (name ->
 * true). Returns its directory, for `{ sitesDir }`.
 */
export function tempCatalogue(files: Record<string, string | true>): string {
  const dir = tempDir("sitetags-test-sites-");
  copyFileSync(join(SITES_DIR, "_org.yaml"), join(dir, "_org.yaml"));
  for (const [name, text] of Object.entries(files)) {
    if (text === true) copyFileSync(join(SITES_DIR, name), join(dir, name));
    else writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** The lock withCacheLock holds while a test process compiles into the shared cache. */
export const LOCK_FILE = join(CACHE_DIR, "test-build.lock");
/** A lock older than this is taken to be left over, even if its process still runs. */
const STALE_LOCK_MS = 90_000;

/** Runs work while holding the lock file (it holds the owner's pid; a dead owner's lock is taken over). */
export async function withCacheLock<T>(work: () => Promise<T>): Promise<T> {
  mkdirSync(CACHE_DIR, { recursive: true });
  for (;;) {
    try {
      writeFileSync(LOCK_FILE, String(process.pid), { flag: "wx" });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      if (lockIsStale()) rmSync(LOCK_FILE, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(LOCK_FILE, { force: true });
  }
}

function lockIsStale(): boolean {
  try {
    const owner = Number(readFileSync(LOCK_FILE, "utf8"));
    if (Date.now() - statSync(LOCK_FILE).mtimeMs > STALE_LOCK_MS) return true;
    if (!owner) return false; // being written right now
    process.kill(owner, 0);
    return false;
  } catch (e) {
    // ESRCH: the owner is gone; ENOENT: the lock just went.
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

/**
 * The repository's own build cache (.sitetags-cache/, what `npx sitetags
 * build` fills and CI runs before `npm test`; the browser harness's cache,
 * test/browser/harness/bundles.ts), for tests whose subject is not a cold
 * compile: their builds then link from the compiled pieces and the measured
 * sizes already there instead of compiling the runtime again (about 30 s a
 * test file on two loaded cores). Tests of cold compiles keep a
 * tempDir("cache") of their own.
 *
 * warmSharedCache() compiles what the cache lacks (a runtime source changed
 * since the last build) under the harness's lock, so one test process at a
 * time compiles and the others then find the pieces there.
 */
import { cpSync } from "node:fs";
import { join } from "node:path";
import { build } from "../../generator/bundle/build.js";
import { CACHE_DIR, LOCK_FILE, withCacheLock } from "../browser/harness/bundles.js";
import { REPO, SITES } from "./fs.js";

export const SHARED_CACHE = CACHE_DIR;

let warmed: Promise<string> | undefined;

/** The shared cache, once it holds the pieces of every bundle of the shipped catalogue. */
export function warmSharedCache(): Promise<string> {
  warmed ??= withCacheLock(async () => {
    // A dry run against dist/ (bundles it holds as they are now are not linked again) compiles the missing pieces into the cache and writes no bundle.
    const r = await build({ sitesDir: SITES, outDir: join(REPO, "dist"), cacheDir: SHARED_CACHE, dryRun: true });
    if (!r.ok) throw new Error(`the shipped catalogue does not build: ${JSON.stringify(r.diagnostics)}`);
    return SHARED_CACHE;
  });
  return warmed;
}

/**
 * Copies the shared cache into `dir` (for a test that builds on its pieces but must not change them). Other test files use the cache
 * meanwhile: the lock file and atomic writes' temporaries (generator/bundle/cache-file.ts, `.tmp-PID[-THREAD]`) come and go during the
 * copy, so they are left out, and a copy that meets any other file gone (an lstat of the lock failed with ENOENT once in CI) is taken again.
 */
export function copySharedCache(dir: string): void {
  for (let attempt = 1; ; attempt++) {
    try {
      cpSync(SHARED_CACHE, dir, { recursive: true, filter: (src) => src !== LOCK_FILE && !/\.tmp-[\d-]+$/.test(src) });
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT" || attempt >= 5) throw e;
    }
  }
}

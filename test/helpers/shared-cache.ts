/**
 * The repository's own build cache (.sitetags-cache/, what `npx sitetags
 * build` fills and CI runs before `npm test`), for tests whose subject is not
 * a cold compile: their builds then link from the compiled pieces and the
 * measured sizes already there instead of compiling the runtime again (about
 * 30 s a test file on two loaded cores). Tests of cold compiles keep a
 * tempDir("cache") of their own.
 *
 * warmSharedCache() compiles what the cache lacks (a runtime source changed
 * since the last build), one test process at a time: the first waits for the
 * compile, the others then find the pieces there. Writes to the cache are
 * atomic (generator/bundle/cache-file.ts), so readers never see half a file.
 */
import { mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { build } from "../../generator/bundle/build.js";
import { REPO, SITES } from "./fs.js";

export const SHARED_CACHE = join(REPO, ".sitetags-cache");

/** A lock older than this was left by a test process that died. */
const STALE_MS = 10 * 60_000;

let warmed: Promise<string> | undefined;

/** The shared cache, once it holds the pieces of every bundle of the shipped catalogue. */
export function warmSharedCache(): Promise<string> {
  warmed ??= (async () => {
    mkdirSync(SHARED_CACHE, { recursive: true });
    const lock = join(SHARED_CACHE, "test-lock");
    for (;;) {
      try {
        mkdirSync(lock);
        break;
      } catch {
        const age = (() => {
          try {
            return Date.now() - statSync(lock).mtimeMs;
          } catch {
            return 0;
          }
        })();
        if (age > STALE_MS) rmSync(lock, { recursive: true, force: true });
        else await delay(250);
      }
    }
    try {
      // A dry run against dist/ (unchanged bundles are not linked) compiles the missing pieces into the cache and writes no bundle.
      const r = await build({ sitesDir: SITES, outDir: join(REPO, "dist"), cacheDir: SHARED_CACHE, dryRun: true });
      if (!r.ok) throw new Error(`the shipped catalogue does not build: ${JSON.stringify(r.diagnostics)}`);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
    return SHARED_CACHE;
  })();
  return warmed;
}

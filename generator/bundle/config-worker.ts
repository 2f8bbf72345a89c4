/**
 * Worker thread: a cold build's config phase (config/cached-load.ts) on a
 * thread of its own. It parses and checks the catalogue and writes each
 * clean site file's outcome to the config cache; the build's main thread
 * then reads the catalogue back from that cache (its index, each bundle's
 * config on first use), and the parse's heap (yaml documents, zod, the
 * checks: about 270 MB at 600 sites) goes with the thread instead of
 * staying beside the compile's threads (issue #21: peak memory under 400 MB).
 * It answers only when it is done: a file that is not clean (an error or a
 * warning, never cached) misses the cache and is loaded again on the main
 * thread, so its diagnostics are exactly loadCatalogueCached's.
 */
import { parentPort, workerData } from "node:worker_threads";
import { loadCatalogueCached } from "../config/cached-load.js";
import { coreOf, inputsHashOf, MODULE_NAMES } from "./plan.js";
import type { ConfigInWorker } from "./pool.js";

const { sitesDir, cacheDir, root, runtimeHash } = workerData as ConfigInWorker;
loadCatalogueCached({
  sitesDir,
  cacheDir,
  root,
  generatorHash: runtimeHash,
  moduleNames: MODULE_NAMES,
  inputsHashOf: (b) => inputsHashOf(runtimeHash, b),
  coreOf,
}).then(
  () => parentPort!.postMessage({ ok: true, output: undefined }),
  (err: Error) => parentPort!.postMessage({ ok: false, error: err.stack ?? err.message }),
);

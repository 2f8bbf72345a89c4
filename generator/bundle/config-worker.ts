/**
 * Worker thread: one part of a cold build's config phase
 * (config/cached-load.ts loadConfigPart) on a thread of its own. It parses
 * and checks _org.yaml and its part of the site files and, when they are
 * clean, writes each one's outcome to the config cache and answers its
 * lines of the catalogue index; the build's main thread writes the index
 * from every part's lines and then reads the catalogue back from the cache
 * (its index, each bundle's config on first use). The parse's heap (yaml
 * documents, zod, the checks: about 270 MB at 600 sites) goes with the
 * threads instead of staying beside the compile's threads (issue #21: peak
 * memory under 400 MB), and the parts run on every core (issue #21: the
 * cold build at 600 sites at most 1.5x the shipped catalogue's). A part
 * that is not clean (an error or a warning, never cached) answers nothing:
 * its files miss the cache and are loaded again on the main thread, so
 * their diagnostics are exactly loadCatalogueCached's.
 */
import { parentPort, workerData } from "node:worker_threads";
import { loadConfigPart } from "../config/cached-load.js";
import { coreOf, inputsHashOf, MODULE_NAMES } from "./plan.js";
import type { ConfigInWorker } from "./pool.js";

const { sitesDir, cacheDir, root, runtimeHash, part, parts } = workerData as ConfigInWorker;
loadConfigPart({
  sitesDir,
  cacheDir,
  root,
  generatorHash: runtimeHash,
  moduleNames: MODULE_NAMES,
  inputsHashOf: (b) => inputsHashOf(runtimeHash, b),
  coreOf,
  part,
  parts,
}).then(
  (output) => parentPort!.postMessage({ ok: true, output }),
  (err: Error) => parentPort!.postMessage({ ok: false, error: err.stack ?? err.message }),
);

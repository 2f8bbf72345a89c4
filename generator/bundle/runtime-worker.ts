/**
 * Worker thread: stage A's compile of the runtime (compile-runtime.ts). On
 * its own thread, TypeScript and rollup's heap (about 100 MB live) go with
 * the thread when it ends, instead of staying in the build's main thread
 * through the rest of the build (issue #21: peak memory under 400 MB).
 */
import { parentPort, workerData } from "node:worker_threads";
import { compileRuntimeAt, type RuntimeInWorker } from "./compile-runtime.js";

compileRuntimeAt(workerData as RuntimeInWorker).then(
  (diagnostics) => parentPort!.postMessage({ ok: true, output: diagnostics }),
  (err: Error) => parentPort!.postMessage({ ok: false, error: err.stack ?? err.message }),
);

/** Worker thread: runs prepareFromRegistry (ts-morph) beside the runtime compile. */
import { parentPort, workerData } from "node:worker_threads";
import { prepareFromRegistry, type PrepareInput } from "./prepare.js";

prepareFromRegistry(workerData as PrepareInput).then(
  (output) => parentPort!.postMessage({ ok: true, output }),
  (err: Error) => parentPort!.postMessage({ ok: false, error: err.stack ?? err.message }),
);

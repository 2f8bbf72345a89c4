/** Worker thread: compiles shapes sent by the pool (see pool.ts). */
import { parentPort } from "node:worker_threads";
import { compileShape, type ShapeJob } from "./compile-shape.js";

parentPort?.on("message", async (job: ShapeJob) => {
  try {
    parentPort!.postMessage({ ok: true, result: await compileShape(job) });
  } catch (err) {
    parentPort!.postMessage({ ok: false, key: job.key, error: (err as Error).message });
  }
});

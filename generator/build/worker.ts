/** Worker thread: compiles shapes sent by the pool (see pool.ts). */
import { parentPort } from "node:worker_threads";
import { compileShape, warmUp, type ShapeJob } from "./compile-shape.js";

parentPort?.on("message", async (job: ShapeJob | { warmUp: true }) => {
  if ("warmUp" in job) {
    await warmUp();
    parentPort!.postMessage({ warm: true });
    return;
  }
  try {
    parentPort!.postMessage({ ok: true, result: await compileShape(job) });
  } catch (err) {
    parentPort!.postMessage({ ok: false, key: job.key, error: (err as Error).message });
  }
});

/** Worker thread: compiles pieces sent by the pool (see pool.ts). */
import { parentPort } from "node:worker_threads";
import { compilePiece, warmUp, type PieceJob } from "./compile-piece.js";

parentPort?.on("message", async (job: PieceJob | { warmUp: true }) => {
  if ("warmUp" in job) {
    await warmUp();
    parentPort!.postMessage({ warm: true });
    return;
  }
  try {
    parentPort!.postMessage({ ok: true, result: await compilePiece(job) });
  } catch (err) {
    parentPort!.postMessage({ ok: false, key: job.key, name: job.name, error: (err as Error).message });
  }
});

/** Worker thread: measures linked bundles sent by the measuring pool (measure.ts createMeasurePool), one at a time. */
import { parentPort } from "node:worker_threads";
import { measureBundle, type MeasureAnswer, type MeasureJob } from "./measure.js";

parentPort?.on("message", ({ id, code, cacheDir }: MeasureJob) => {
  let answer: MeasureAnswer;
  try {
    answer = { id, ok: true, measured: measureBundle(code, cacheDir) };
  } catch (err) {
    answer = { id, ok: false, error: (err as Error).message };
  }
  parentPort!.postMessage(answer);
});

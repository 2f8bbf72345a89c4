/**
 * Runs piece jobs on worker threads (one per core) when the generator runs
 * compiled; in-process when running from TypeScript sources (tests), where a
 * worker could not load the .ts file, or with one worker. Workers load
 * rollup and terser as soon as the pool starts, while stage A still runs.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { compilePiece, type PieceJob, type PieceResult } from "./compile-piece.js";
import { prepareShapes, type PrepareInput, type PrepareOutput } from "./prepare.js";

const COMPILED = import.meta.url.endsWith(".js");

/** prepareShapes on its own worker thread (in-process when running from sources). */
export function prepareInWorker(input: PrepareInput): Promise<PrepareOutput> {
  if (!COMPILED) return prepareShapes(input);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./prepare-worker.js", import.meta.url), { workerData: input });
    worker.once("message", (m: { ok: true; output: PrepareOutput } | { ok: false; error: string }) => {
      void worker.terminate();
      if (m.ok) resolve(m.output);
      else reject(new Error(m.error));
    });
    worker.once("error", reject);
  });
}

export type JobOutcome = { ok: true; result: PieceResult } | { ok: false; key: string; name: string; error: string };

export interface PiecePool {
  /** Queues a job; resolves with its outcome (never rejects for a failed compile). */
  submit(job: PieceJob): Promise<JobOutcome>;
  close(): Promise<void>;
}

async function runHere(job: PieceJob): Promise<JobOutcome> {
  try {
    return { ok: true, result: await compilePiece(job) };
  } catch (err) {
    return { ok: false, key: job.key, name: job.name, error: (err as Error).message };
  }
}

export function createPiecePool(workers: number = availableParallelism()): PiecePool {
  const size = Math.max(1, workers);
  if (!COMPILED || size === 1) {
    // One at a time, in submission order.
    let last: Promise<unknown> = Promise.resolve();
    return {
      submit(job) {
        const run = last.then(() => runHere(job));
        last = run;
        return run;
      },
      async close() {},
    };
  }
  const queue: Array<{ job: PieceJob; resolve: (o: JobOutcome) => void }> = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, { job: PieceJob; resolve: (o: JobOutcome) => void }>();
  const dispatch = () => {
    while (idle.length && queue.length) {
      const worker = idle.shift()!;
      const task = queue.shift()!;
      busy.set(worker, task);
      worker.postMessage(task.job);
    }
  };
  const threads = Array.from({ length: size }, () => {
    const worker = new Worker(new URL("./worker.js", import.meta.url));
    worker.on("message", (o: JobOutcome | { warm: true }) => {
      if ("warm" in o) return;
      const task = busy.get(worker);
      busy.delete(worker);
      idle.push(worker);
      task?.resolve(o);
      dispatch();
    });
    worker.on("error", (err) => {
      const task = busy.get(worker);
      busy.delete(worker);
      task?.resolve({ ok: false, key: task.job.key, name: task.job.name, error: err.message });
    });
    worker.postMessage({ warmUp: true });
    idle.push(worker);
    return worker;
  });
  return {
    submit(job) {
      return new Promise<JobOutcome>((resolve) => {
        queue.push({ job, resolve });
        dispatch();
      });
    },
    async close() {
      await Promise.all(threads.map((t) => t.terminate()));
    },
  };
}

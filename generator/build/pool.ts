/**
 * Runs shape jobs on worker threads (one per core) when the generator runs
 * compiled; in-process when there is a single job or when running from
 * TypeScript sources (tests), where a worker could not load the .ts file.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { compileShape, type ShapeJob, type ShapeResult } from "./compile-shape.js";
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

export type JobOutcome = { ok: true; result: ShapeResult } | { ok: false; key: string; error: string };

export interface ShapePool {
  run(jobs: ShapeJob[], onDone?: (outcome: JobOutcome) => void): Promise<JobOutcome[]>;
  close(): Promise<void>;
}

/**
 * Starts the shape workers, each loading rollup and terser at once. In-process (no threads) when running from TypeScript
 * sources, where a worker could not load the .ts file, or with one worker.
 */
export function createShapePool(workers: number = availableParallelism()): ShapePool {
  const size = Math.max(1, workers);
  if (!COMPILED || size === 1) {
    return {
      async run(jobs, onDone) {
        const outcomes: JobOutcome[] = [];
        for (const job of jobs) {
          let outcome: JobOutcome;
          try {
            outcome = { ok: true, result: await compileShape(job) };
          } catch (err) {
            outcome = { ok: false, key: job.key, error: (err as Error).message };
          }
          outcomes.push(outcome);
          onDone?.(outcome);
        }
        return outcomes;
      },
      async close() {},
    };
  }
  const threads = Array.from({ length: size }, () => new Worker(new URL("./worker.js", import.meta.url)));
  for (const thread of threads) thread.postMessage({ warmUp: true });
  return {
    run(jobs, onDone) {
      const queue = [...jobs];
      const outcomes: JobOutcome[] = [];
      return Promise.all(
        threads.map(
          (worker) =>
            new Promise<void>((resolve, reject) => {
              const next = () => {
                const job = queue.shift();
                if (!job) {
                  worker.off("message", onMessage);
                  resolve();
                  return;
                }
                worker.postMessage(job);
              };
              const onMessage = (o: JobOutcome | { warm: true }) => {
                if ("warm" in o) return;
                outcomes.push(o);
                onDone?.(o);
                next();
              };
              worker.on("message", onMessage);
              worker.once("error", reject);
              next();
            }),
        ),
      ).then(() => outcomes);
    },
    async close() {
      await Promise.all(threads.map((t) => t.terminate()));
    },
  };
}

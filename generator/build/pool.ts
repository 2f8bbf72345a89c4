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

export async function runShapeJobs(jobs: ShapeJob[], options: { workers?: number; onDone?: (outcome: JobOutcome) => void } = {}): Promise<JobOutcome[]> {
  const workerUrl = new URL("./worker.js", import.meta.url);
  const compiled = COMPILED;
  const size = Math.max(1, Math.min(options.workers ?? availableParallelism(), jobs.length));
  const outcomes: JobOutcome[] = [];
  const finish = (o: JobOutcome) => {
    outcomes.push(o);
    options.onDone?.(o);
  };
  if (!compiled || size === 1) {
    for (const job of jobs) {
      try {
        finish({ ok: true, result: await compileShape(job) });
      } catch (err) {
        finish({ ok: false, key: job.key, error: (err as Error).message });
      }
    }
    return outcomes;
  }
  const queue = [...jobs];
  await Promise.all(
    Array.from({ length: size }, () =>
      new Promise<void>((resolve, reject) => {
        const worker = new Worker(workerUrl);
        const next = () => {
          const job = queue.shift();
          if (!job) {
            void worker.terminate().then(() => resolve());
            return;
          }
          worker.postMessage(job);
        };
        worker.on("message", (o: JobOutcome) => {
          finish(o);
          next();
        });
        worker.on("error", reject);
        next();
      }),
    ),
  );
  return outcomes;
}

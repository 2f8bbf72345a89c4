/**
 * The worker-thread pool the piece compile (pool.ts createPiecePool) and the bundles' measuring (measure.ts createMeasurePool) share: jobs
 * taken in order by whichever thread is free. A thread that fails or exits fails the job it was running with the reason; once none is left
 * every waiting and later job fails too, so a build never waits on a stopped thread (it reports BUILD_COMPILE_ERROR, exit 3).
 */
import { Worker, type ResourceLimits } from "node:worker_threads";

/** A thread's answer, read by the pool's owner: a job's value or its failure; undefined for a message that answers no job (a warm-up). */
export type Settled<R> = { ok: true; value: R } | { ok: false; error: string } | undefined;

export interface ThreadPool<J, R> {
  /** Runs `job` on the next free thread; rejects with the reason when its thread fails or stops, or when no thread is left. */
  run(job: J): Promise<R>;
  /** Threads still running. */
  readonly threads: number;
  close(): Promise<void>;
}

/** Why a worker stopped, from its "error" or "exit" event. */
export function stopReason(event: "error" | "exit", detail: unknown): string {
  return event === "error" ? `worker thread failed: ${(detail as Error).message}` : `worker thread exited (code ${String(detail)})`;
}

export function createThreadPool<J, A, R>(
  url: URL,
  size: number,
  resourceLimits: ResourceLimits,
  settle: (answer: A) => Settled<R>,
  start?: (worker: Worker) => void,
): ThreadPool<J, R> {
  type Task = { job: J; resolve: (value: R) => void; reject: (err: Error) => void };
  const queue: Task[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Task>();
  const alive = new Set<Worker>();
  let lastStop = "";
  const dispatch = () => {
    while (idle.length && queue.length) {
      const worker = idle.shift()!;
      const task = queue.shift()!;
      busy.set(worker, task);
      worker.postMessage(task.job);
    }
    if (!alive.size) for (const task of queue.splice(0)) task.reject(new Error(`no worker thread left (${lastStop})`));
  };
  const stopped = (worker: Worker, reason: string) => {
    if (!alive.delete(worker)) return;
    lastStop = reason;
    const i = idle.indexOf(worker);
    if (i >= 0) idle.splice(i, 1);
    const task = busy.get(worker);
    busy.delete(worker);
    task?.reject(new Error(reason));
    dispatch();
  };
  const workers = Array.from({ length: size }, () => {
    const worker = new Worker(url, { resourceLimits });
    alive.add(worker);
    worker.on("message", (answer: A) => {
      const settled = settle(answer);
      if (!settled) return;
      const task = busy.get(worker);
      busy.delete(worker);
      idle.push(worker);
      if (task) {
        if (settled.ok) task.resolve(settled.value);
        else task.reject(new Error(settled.error));
      }
      dispatch();
    });
    worker.on("error", (err) => stopped(worker, stopReason("error", err)));
    worker.on("exit", (code) => stopped(worker, stopReason("exit", code)));
    start?.(worker);
    idle.push(worker);
    return worker;
  });
  return {
    run(job) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ job, resolve, reject });
        dispatch();
      });
    },
    get threads() {
      return alive.size;
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

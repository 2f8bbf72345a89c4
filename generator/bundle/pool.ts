/**
 * Runs piece jobs on worker threads (one per core) when the generator runs
 * compiled; in-process when running from TypeScript sources (tests), where a
 * worker could not load the .ts file, or with one worker. Workers load
 * rollup and terser as soon as the pool starts, while stage A still runs.
 *
 * A worker that stops (an uncaught error, out of memory, exit) never leaves
 * the build waiting: the job it was running fails with the reason, the
 * queue goes on on the workers still alive, and once none is left every
 * waiting job fails too. The build then reports BUILD_COMPILE_ERROR (exit 3).
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { compilePiece, type PieceJob, type PieceResult } from "./compile-piece.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { compileRuntimeAt, runtimeCompiled, type RuntimeInWorker } from "./compile-runtime.js";
import { prepareFromRegistry, type PrepareInput, type PrepareOutput } from "./prepare.js";
import type { IndexEntry } from "../config/cached-load.js";
import { createThreadPool, stopReason } from "./thread-pool.js";

const COMPILED = import.meta.url.endsWith(".js");

/** prepareFromRegistry on its own worker thread (in-process when running from sources). */
export function prepareInWorker(input: PrepareInput, workerUrl?: URL): Promise<PrepareOutput> {
  if (!COMPILED && !workerUrl) return prepareFromRegistry(input);
  return runInWorker(workerUrl ?? new URL("./prepare-worker.js", import.meta.url), input);
}

export type { RuntimeInWorker } from "./compile-runtime.js";

/**
 * compileRuntime on its own worker thread, whose heap goes when it ends (in-process when running from sources); nothing to do, and no
 * thread spawned, when the runtime of that hash is already compiled (runtimeCompiled).
 */
export async function compileRuntimeInWorker(input: RuntimeInWorker): Promise<Diagnostic[]> {
  if (runtimeCompiled(input.outDir)) return [];
  if (!COMPILED) return compileRuntimeAt(input);
  return runInWorker(new URL("./runtime-worker.js", import.meta.url), input);
}

/** What one part of a cold build's config phase needs on its thread (config-worker.ts). */
export interface ConfigInWorker {
  sitesDir: string;
  cacheDir: string;
  root: string;
  runtimeHash: string;
  /** Which part of the site files this thread loads, of how many (config/cached-load.ts sitesOfPart). */
  part: number;
  parts: number;
}

/** A part's lines of the catalogue index (config/cached-load.ts loadConfigPart), undefined when it was not clean. */
export type ConfigPartLines = Array<[string, IndexEntry]> | undefined;

/**
 * Loads the catalogue on `parts` worker threads at once, each its part of the site files (config-worker.ts), which write each clean site
 * file's outcome to the config cache; resolves with each part's lines of the catalogue index, for the caller to write the index
 * (writeIndexOfParts) and load the catalogue from the cache on its own thread, without the parse's heap (a file that is not clean misses
 * and is loaded there again). Nothing to do when running from sources, where a worker could not load the .ts files.
 */
export async function loadConfigInWorkers(input: Omit<ConfigInWorker, "part" | "parts">, parts: number): Promise<ConfigPartLines[]> {
  if (!COMPILED) return [];
  const url = new URL("./config-worker.js", import.meta.url);
  const count = Math.max(1, parts);
  return Promise.all(
    Array.from({ length: count }, (_, part) => runInWorker<ConfigInWorker, ConfigPartLines>(url, { ...input, part, parts: count }).catch(() => undefined)),
  );
}

/**
 * A one-shot worker's young generation (the config load, stage A, the entries: they overlap the piece workers): bounded like theirs, so
 * that short-lived garbage is collected before it adds up across threads; the old generation is left unbounded, since what these keep
 * grows with the catalogue and the runtime.
 */
const ONE_SHOT_WORKER_LIMITS = { maxYoungGenerationSizeMb: 16 };

/** Runs a one-shot worker script with `data`; resolves with its `output`, rejects with its error or when it stops without answering. */
function runInWorker<I, O>(url: URL, data: I): Promise<O> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, { workerData: data, resourceLimits: ONE_SHOT_WORKER_LIMITS });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
    };
    worker.once("message", (m: { ok: true; output: O } | { ok: false; error: string }) =>
      settle(() => (m.ok ? resolve(m.output) : reject(new Error(m.error)))),
    );
    worker.once("error", (err) => settle(() => reject(new Error(stopReason("error", err)))));
    worker.once("exit", (code) => settle(() => reject(new Error(stopReason("exit", code)))));
  });
}

export type JobOutcome = { ok: true; result: PieceResult } | { ok: false; key: string; name: string; error: string };

export interface PiecePool {
  /** Queues a job; resolves with its outcome (never rejects, never waits for a worker that stopped). */
  submit(job: PieceJob): Promise<JobOutcome>;
  /** Worker threads still running (0 when jobs run in-process). */
  readonly threads: number;
  close(): Promise<void>;
}

export interface PiecePoolOptions {
  /** The worker script (tests inject failing ones); set, it also forces threads when running from sources. */
  workerUrl?: URL;
}

async function runHere(job: PieceJob): Promise<JobOutcome> {
  try {
    return { ok: true, result: await compilePiece(job) };
  } catch (err) {
    return { ok: false, key: job.key, name: job.name, error: (err as Error).message };
  }
}

const failed = (job: PieceJob, error: string): JobOutcome => ({ ok: false, key: job.key, name: job.name, error });

/**
 * A piece worker's V8 heap: left to its defaults, each worker's heap grew to about 270 MB over the cores it compiled, mostly garbage,
 * since V8 sizes a heap by the machine's memory (issue #21: peak memory under 400 MB, two such workers beside the build). Bounded, V8
 * collects sooner: about 125 MB per worker, and a cold build's peak 705-711 MB -> 389-392 MB (the shipped catalogue and 600 sites). It
 * costs CPU: the compile takes about a third longer (10 cores on one worker: 27-29 s of CPU unbounded, 33-37 s bounded; a whole cold
 * build's pieces 24-28 s -> 37.5 s of wall on two cores). Terser's live set on a core is about 50-60 MB (at 64 MB of old generation the
 * same work took twice the CPU), so 128 MB leaves it twice that; 192 or 512 MB cost the same CPU as 128.
 */
export const PIECE_WORKER_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 };

export function createPiecePool(workers: number = availableParallelism(), options: PiecePoolOptions = {}): PiecePool {
  const size = Math.max(1, workers);
  if (!options.workerUrl && (!COMPILED || size === 1)) {
    // One at a time, in submission order.
    let last: Promise<unknown> = Promise.resolve();
    return {
      submit(job) {
        const run = last.then(() => runHere(job));
        last = run;
        return run;
      },
      threads: 0,
      async close() {},
    };
  }
  const url = options.workerUrl ?? new URL("./worker.js", import.meta.url);
  // A worker answers each job with its outcome (and its warm-up with nothing to settle); a stopped worker's job fails with the reason.
  const pool = createThreadPool<PieceJob | { warmUp: true }, JobOutcome | { warm: true }, JobOutcome>(
    url,
    size,
    PIECE_WORKER_LIMITS,
    (o) => ("warm" in o ? undefined : { ok: true, value: o }),
    (worker) => worker.postMessage({ warmUp: true }),
  );
  return {
    submit: (job) => pool.run(job).catch((err: Error) => failed(job, err.message)),
    get threads() {
      return pool.threads;
    },
    close: () => pool.close(),
  };
}

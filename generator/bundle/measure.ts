/**
 * What a linked bundle's report needs from its bytes: its sha256 (the file's name), its SRI hash (sha384), its gzip -9 and its brotli q5
 * sizes (sizes.ts: from the sizes cache when the same bytes were measured before). All synchronous, on the bundle's UTF-8 bytes, encoded
 * once by the caller.
 *
 * Issue #21 (a cold build at 600 sites at most 1.5x the shipped catalogue's): the bundles used to be measured on the main thread through
 * zlib's asynchronous API, which ran the compressors on libuv's pool and cost 75 % more CPU than the same compressions done synchronously
 * (measured 2026-11-28 over the 2,280 bundles of the 600-site catalogue: async 22.7 s of CPU, 5 s of it system time; sync 13.5 s), and the
 * main thread's own part (eight UTF-8 encodings of each bundle, three hashes, the sizes cache's files) left the second core half idle.
 * measureBundle now runs on worker threads (createMeasurePool), one per core, beside the main thread's linking and staging.
 */
import { createHash } from "node:crypto";
import { availableParallelism } from "node:os";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { BROTLI_QUALITY, cachedSizesSync } from "./sizes.js";
import { createThreadPool } from "./thread-pool.js";

export interface Measured {
  /** sha256 of the bytes, hex. */
  sha256: string;
  /** sha384 SRI hash of the bytes. */
  integrity: string;
  gzipBytes: number;
  brotliBytes: number;
}

/**
 * The window `brotli FILE` uses for a file of `bytes` (the command's own rule): the smallest from 2^10 that holds the whole file, at most
 * 2^24. zlib's default, 2^22, compresses a bundle no better, and the encoder's tables grow with the window.
 */
export function brotliWindowBits(bytes: number): number {
  let bits = zlib.BROTLI_MIN_WINDOW_BITS;
  while (bits < zlib.BROTLI_MAX_WINDOW_BITS && (1 << bits) - 16 < bytes) bits++;
  return bits;
}

/** gzip -9 and brotli at BROTLI_QUALITY of `code`, synchronously (the same bytes as zlib's asynchronous API gives). */
export function compressedSizesSync(code: Uint8Array): { gzipBytes: number; brotliBytes: number } {
  const params = { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.BROTLI_PARAM_LGWIN]: brotliWindowBits(code.length) };
  return { gzipBytes: gzipSync(code, { level: zlib.Z_BEST_COMPRESSION }).length, brotliBytes: brotliCompressSync(code, { params }).length };
}

/** Hashes and sizes of a bundle's bytes; with a cacheDir, sizes measured before are not compressed again (sizes.ts). */
export function measureBundle(code: Uint8Array, cacheDir?: string): Measured {
  const sha256 = createHash("sha256").update(code).digest("hex");
  const integrity = `sha384-${createHash("sha384").update(code).digest("base64")}`;
  const sizes = cacheDir === undefined ? compressedSizesSync(code) : cachedSizesSync(cacheDir, code, () => compressedSizesSync(code), sha256);
  return { sha256, integrity, ...sizes };
}

/** A job for a measuring thread (measure-worker.ts), and its answer. */
export interface MeasureJob {
  id: number;
  code: Uint8Array;
  cacheDir?: string;
}
export type MeasureAnswer = { id: number; ok: true; measured: Measured } | { id: number; ok: false; error: string };

export interface MeasurePool {
  /** Measures `code`; rejects with the reason when its thread fails or stops, or when no thread is left. */
  measure(code: Uint8Array, cacheDir?: string): Promise<Measured>;
  /** Threads still running (0: measured in this thread). */
  readonly threads: number;
  close(): Promise<void>;
}

const COMPILED = import.meta.url.endsWith(".js");

/** A measuring thread's heap: small (a bundle at a time, and no cache of its own). */
const MEASURE_WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

export interface MeasurePoolOptions {
  /** The worker script (tests inject failing ones); set, it also forces threads when running from sources. */
  workerUrl?: URL;
}

/**
 * measureBundle on `threads` worker threads (one per core by default), jobs taken in order by whichever thread is free; in this thread
 * when running from TypeScript sources (tests, where a worker could not load the .ts file) or with no threads. A thread that fails or
 * exits fails the job it was running with the reason; once none is left every waiting and later job fails too: the build never waits
 * forever, and reports BUILD_COMPILE_ERROR (exit 3).
 */
export function createMeasurePool(threads: number = availableParallelism(), options: MeasurePoolOptions = {}): MeasurePool {
  if (threads < 1 || (!options.workerUrl && !COMPILED)) {
    return {
      measure: async (code, cacheDir) => measureBundle(code, cacheDir),
      threads: 0,
      async close() {},
    };
  }
  let nextId = 0;
  const url = options.workerUrl ?? new URL("./measure-worker.js", import.meta.url);
  const pool = createThreadPool<MeasureJob, MeasureAnswer, Measured>(url, threads, MEASURE_WORKER_LIMITS, (answer) =>
    answer.ok ? { ok: true, value: answer.measured } : { ok: false, error: answer.error },
  );
  return {
    measure: (code, cacheDir) => pool.run({ id: nextId++, code, cacheDir }),
    get threads() {
      return pool.threads;
    },
    close: () => pool.close(),
  };
}

/**
 * A build that compiles the runtime (no pieces cached for it: a cold build, or the runtime changed) runs in a child process of the CLI whose
 * malloc is set for many threads (issue #21: peak memory under 400 MB). glibc raises its trim and mmap thresholds each time a large block
 * is freed (up to 64 and 32 MB), and then each arena (one per thread, up to 8 per core: the main thread, each worker thread, V8's and
 * libuv's threads) keeps that much freed memory instead of giving it back: about 70 MB of a cold build's peak, measured, which no
 * JavaScript can release. These settings are read once, from the environment, when a process starts: MALLOC_TRIM_THRESHOLD_ holds the trim
 * threshold at glibc's default (set, it also stops the raising) and MALLOC_ARENA_MAX=2 shares two arenas between the threads. So the CLI
 * starts the build again as a child with them set and answers with the child's exit code. A build that reuses cached pieces (a warm or
 * one-site rebuild) runs in this process as before, with the runtime snapshot taken here handed to it (bundle/hash.ts takeRuntimeSnapshot); so
 * does every build when MALLOC_TRIM_THRESHOLD_ is already set (the child, or a user's own setting), off Linux, or when the child cannot start.
 */
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { piecesCachedFor } from "../bundle/compile.js";
import { handRuntimeSnapshot, snapshotRuntime } from "../bundle/hash.js";
import { defaultPaths, packageRoot } from "../bundle/paths.js";

/**
 * glibc's default trim threshold (128 KiB), held there for the child's whole run, and two arenas. Measured on the shipped catalogue's cold
 * build (2026-11-28, load average 9-13, base code, peak VmHWM): none 388-395 MB, 65-68 s CPU (one run 94 s); the threshold alone 310-326 MB
 * with 10-12 s more system CPU (trimming and faulting pages back); at 1 MB 315-327 MB, 3-4 s more system CPU; with two arenas 323-325 MB,
 * 60-70 s CPU, no more system CPU than none.
 */
export const MALLOC_TRIM_ENV = { MALLOC_ARENA_MAX: "2", MALLOC_TRIM_THRESHOLD_: "131072" } as const;

/** Whether `argv` is a build that compiles the runtime and should run in a child with MALLOC_TRIM_ENV (false: run it here). */
export function buildsInChild(argv: string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd(), platform = process.platform): boolean {
  if (platform !== "linux" || env.MALLOC_TRIM_THRESHOLD_ !== undefined) return false;
  let parsed;
  try {
    // The build's options that take a value (main.ts), so that a value is not read as the command.
    const text = { type: "string" } as const;
    const options = { site: { ...text, multiple: true }, env: { ...text, multiple: true }, shard: text, sites: text, out: text, workers: text, cache: text };
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: false, options });
  } catch {
    return false;
  }
  const { values, positionals } = parsed;
  if (positionals[0] !== "build" || values.help || values.h) return false;
  const cacheDir = typeof values.cache === "string" ? resolve(cwd, values.cache) : defaultPaths(cwd).cacheDir;
  const root = packageRoot();
  const snapshot = snapshotRuntime(root);
  handRuntimeSnapshot(root, snapshot);
  return !piecesCachedFor(cacheDir, snapshot.hash);
}

/**
 * Runs the build of `argv` in a child process of the CLI (bin/sitetags.js, the same Node options) with MALLOC_TRIM_ENV when it compiles
 * the runtime (buildsInChild); resolves with the child's exit code, or undefined when the build is to run in this process.
 */
export async function buildInChild(argv: string[]): Promise<number | undefined> {
  if (!buildsInChild(argv) || !process.argv[1]) return undefined;
  return new Promise((done) => {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1], ...argv], { stdio: "inherit", env: { ...process.env, ...MALLOC_TRIM_ENV } });
    child.once("error", () => done(undefined));
    // A child stopped by a signal (killed, out of memory) is a failed build.
    child.once("exit", (code) => done(code ?? 3));
  });
}

/** Files of the build cache (.sitetags-cache/): read as JSON when present and whole, written atomically. */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { threadId } from "node:worker_threads";

/** A cache file's JSON, or undefined when it is missing or unreadable (a cache miss, never an error). */
export async function cachedJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}

/** Writes beside the target, then renames: a reader sees the old file or the new one, never half of one. */
export async function writeAtomic(file: string, data: string | Uint8Array) {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, data);
  await rename(tmp, file);
}

/** cachedJson, synchronously (a worker thread's: synchronous file calls cost a fraction of the CPU of fs/promises' trips through libuv's pool). */
export function cachedJsonSync<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}

/** The cache folders this thread has made (one mkdir each, not one per file written). */
const madeDirs = new Set<string>();

/** writeAtomic, synchronously; the temporary name holds the thread too, since threads of one process write side by side. */
export function writeAtomicSync(file: string, data: string | Uint8Array): void {
  const dir = dirname(file);
  if (!madeDirs.has(dir)) {
    mkdirSync(dir, { recursive: true });
    madeDirs.add(dir);
  }
  const tmp = `${file}.tmp-${process.pid}-${threadId}`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

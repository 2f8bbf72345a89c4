/** Files of the build cache (.sitetags-cache/): read as JSON when present and whole, written atomically. */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

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

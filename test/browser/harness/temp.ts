/**
 * Temporary directories of the harness (dist dirs, catalogues, the
 * certificate). Removed by `removeTempDirs()`, which useBrowserHarness calls
 * after a file's tests (vitest may end its worker processes without an
 * "exit" event, so that is only the fallback).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dirs = new Set<string>();
process.once("exit", () => removeTempDirs());

/** A new directory under os.tmpdir(), named prefix + random suffix. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
}

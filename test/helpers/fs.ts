/** Small file-system helpers shared by the generator tests. */
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { listFiles } from "../../generator/walk.js";

export const REPO = join(import.meta.dirname, "..", "..");
export const SITES = join(REPO, "sites");

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `sitetags-${prefix}-`));
}

/** A private copy of the real catalogue, safe to edit. */
export function copyCatalogue(): string {
  const dir = tempDir("sites");
  cpSync(SITES, dir, { recursive: true, filter: (src) => !src.endsWith(".schema.json") });
  return dir;
}

/** path -> sha256 of every file below dir (an empty map for a missing dir). */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const full of listFiles(dir)) out[relative(dir, full)] = createHash("sha256").update(readFileSync(full)).digest("hex");
  return out;
}

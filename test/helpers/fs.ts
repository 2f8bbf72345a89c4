/** Small file-system helpers shared by the generator tests. */
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

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
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out[relative(dir, full)] = createHash("sha256").update(readFileSync(full)).digest("hex");
    }
  };
  walk(dir);
  return out;
}

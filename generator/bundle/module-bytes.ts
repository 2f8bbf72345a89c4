/**
 * Each linked bundle's minified bytes per piece (core, each module, devChecks,
 * config), kept in the build cache by inputsHash: a bundle with the same
 * inputsHash has the same bytes, so a rebuild that reuses it reports its
 * pieces without linking it again (issue #21: at 600 sites, re-linking every
 * reused bundle to measure it was a third of a warm rebuild).
 */
import { join } from "node:path";
import { cachedJson, writeAtomic } from "./cache-file.js";
import { stableStringify } from "./hash.js";

const FILE = "module-bytes.json";

/** inputsHash -> bytes per piece, from the cache (empty when there is none). */
export async function readModuleBytes(cacheDir: string): Promise<Map<string, Record<string, number>>> {
  const data = await cachedJson<Record<string, Record<string, number>>>(join(cacheDir, FILE));
  return new Map(data && typeof data === "object" ? Object.entries(data) : []);
}

/**
 * Records the bytes per piece of this build's bundles, keeping the known
 * ones of bundles the manifest still names (a build narrowed to one site
 * keeps the others'; inputs no manifest entry has any more are dropped, so
 * the file does not grow). Writes only on a change.
 */
export async function writeModuleBytes(
  cacheDir: string,
  known: ReadonlyMap<string, Record<string, number>>,
  reports: ReadonlyArray<{ inputsHash: string; moduleBytes: Record<string, number> }>,
  manifest: { bundles: ReadonlyArray<{ inputsHash: string }> },
): Promise<void> {
  const next: Record<string, Record<string, number>> = {};
  for (const { inputsHash } of manifest.bundles) {
    const bytes = known.get(inputsHash);
    if (bytes) next[inputsHash] = bytes;
  }
  for (const r of reports) if (Object.keys(r.moduleBytes).length) next[r.inputsHash] = r.moduleBytes;
  // Unchanged: the same inputs, each with the same bytes. A reused bundle's record is the object read (compared by reference): only the
  // linked bundles' are serialised (issue #21: serialising all 2,280 twice was the phase's 0.1 s at 600 sites).
  const hashes = Object.keys(next);
  const same = (h: string) => known.get(h) === next[h] || (known.has(h) && stableStringify(known.get(h)) === stableStringify(next[h]));
  if (hashes.length === known.size && hashes.every(same)) return;
  await writeAtomic(join(cacheDir, FILE), JSON.stringify(next)).catch(() => undefined);
}

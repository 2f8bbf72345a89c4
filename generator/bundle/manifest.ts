/**
 * dist/manifest.json: its entries, the partial manifest of a sharded build,
 * reading the previous one and assembling the next (the write step's input).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Catalogue, ResolvedBundle } from "../config/load.js";
import { compareText } from "../compare-text.js";
import { sha256 } from "./hash.js";
import { selectBundles, type Selection } from "./plan.js";
import type { DeferredEntry } from "./deferred.js";

export interface ManifestEntry {
  site: string;
  env: string;
  file: string;
  alias: string;
  bytes: number;
  gzipBytes: number;
  /** node:zlib brotli at quality 5, as the CDN compresses on the fly for most browsers. Budgets stay on gzipBytes. */
  brotliBytes: number;
  integrity: string;
  modules: string[];
  inputsHash: string;
  /** The second file, loaded after the first page view (deferred.ts): absent for a bundle with nothing to defer. Not budgeted. */
  deferred?: DeferredEntry;
}

export interface Manifest {
  bundles: ManifestEntry[];
  /** Only in a sharded build's partial manifest (build --shard I/N): which slice of which selection it holds; `manifest merge` checks and drops it. */
  shard?: ShardInfo;
}

export interface ShardInfo {
  index: number;
  count: number;
  /** Bundles in the whole selection (all shards together). */
  total: number;
  /** The narrowing the shards were built with (absent: every site, every environment). */
  sites?: string[];
  envs?: string[];
  /** First 16 hex digits of the runtime hash (sources and toolchain): shards of one build agree on it. */
  runtime: string;
  /** First 16 hex digits of the sha256 of the catalogue's files: shards of one build agree on it too. */
  catalogue: string;
}

export async function readManifest(outDir: string): Promise<Manifest> {
  try {
    const parsed = JSON.parse(await readFile(join(outDir, "manifest.json"), "utf8")) as Manifest;
    return Array.isArray(parsed.bundles) ? parsed : { bundles: [] };
  } catch {
    return { bundles: [] };
  }
}

/**
 * The next manifest: the previous one's entries for bundles still in the
 * catalogue, replaced by this build's entries; a shard's manifest holds only
 * its own bundles, plus what `manifest merge` needs to check the whole.
 */
export function nextManifest(args: {
  catalogue: Catalogue;
  previous: Manifest;
  entries: ManifestEntry[];
  selected: ResolvedBundle[];
  selection: Selection;
  runtimeHash: string;
}): { manifest: Manifest; kept: Set<string> } {
  const { catalogue, previous, entries, selected, selection, runtimeHash } = args;
  const knownKeys = new Set(catalogue.bundles.map((b) => `${b.site}/${b.env}`));
  const next = new Map(previous.bundles.filter((b) => knownKeys.has(`${b.site}/${b.env}`)).map((b) => [`${b.site}/${b.env}`, b]));
  for (const entry of entries) next.set(`${entry.site}/${entry.env}`, entry);
  if (selection.shard) for (const key of [...next.keys()]) if (!selected.some((b) => `${b.site}/${b.env}` === key)) next.delete(key);
  const shard: ShardInfo | undefined = selection.shard && {
    ...selection.shard,
    total: selectBundles(catalogue.bundles, { sites: selection.sites, envs: selection.envs }).length,
    ...(selection.sites?.length ? { sites: [...selection.sites].sort() } : {}),
    ...(selection.envs?.length ? { envs: [...selection.envs].sort() } : {}),
    runtime: runtimeHash.slice(0, 16),
    catalogue: sha256(catalogue.files.map((f) => `${f.file}\0${f.text}`).join("\0")).slice(0, 16),
  };
  const manifest: Manifest = {
    bundles: [...next.values()].sort((a, b) => compareText(a.site, b.site) || compareText(a.env, b.env)),
    ...(shard ? { shard } : {}),
  };
  return { manifest, kept: new Set(next.keys()) };
}

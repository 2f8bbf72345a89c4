/**
 * `sitetags manifest merge DIR…`: combines the partial outputs of a sharded
 * build (each DIR holds one `build --shard I/N`'s dist: its bundles and its
 * partial manifest) into one dist/ and manifest, byte for byte what an
 * unsharded build of the same selection writes. It refuses shards of
 * different builds, overlapping or missing shards and bundles, a bundle two
 * shards built from different inputs, and files whose bytes do not match
 * their manifest entry; then dist/ is left as it was.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { DIAGNOSTICS } from "../diagnostics/diagnostics.js";
import { compareText } from "../compare-text.js";
import { loadCatalogue } from "../config/load.js";
import { commitFiles, MODULE_NAMES, readManifest, selectBundles, type Manifest, type ManifestEntry, type ShardInfo } from "./build.js";
import { sha256, sha384Integrity, stableStringify } from "./hash.js";

export interface MergeOptions {
  dirs: string[];
  outDir: string;
  /** The catalogue, to name the bundles no shard holds (optional: the shard descriptors alone find missing shards). */
  sitesDir?: string;
}

export interface MergeResult {
  ok: boolean;
  exitCode: 0 | 3;
  diagnostics: Diagnostic[];
  manifest?: Manifest;
  bundles: number;
}

const key = (b: Pick<ManifestEntry, "site" | "env">) => `${b.site}/${b.env}`;

export async function mergeShards(options: MergeOptions): Promise<MergeResult> {
  const diagnostics: Diagnostic[] = [];
  const shards: Array<{ dir: string; manifest: Manifest & { shard: ShardInfo } }> = [];
  for (const dir of options.dirs) {
    const manifest = await readManifest(dir);
    if (!manifest.shard) diagnostics.push(DIAGNOSTICS.notAShard(dir));
    else shards.push({ dir, manifest: manifest as Manifest & { shard: ShardInfo } });
  }
  if (diagnostics.length) return { ok: false, exitCode: 3, diagnostics, bundles: 0 };

  // One build: the same slicing, selection and sources.
  const describe = (s: ShardInfo) =>
    stableStringify({ count: s.count, total: s.total, sites: s.sites, envs: s.envs, runtime: s.runtime, catalogue: s.catalogue });
  const first = shards[0].manifest.shard;
  for (const { dir, manifest } of shards.slice(1)) {
    if (describe(manifest.shard) !== describe(first)) {
      const what =
        manifest.shard.runtime !== first.runtime
          ? `other sources or toolchain (runtime ${manifest.shard.runtime}, not ${first.runtime})`
          : manifest.shard.catalogue !== first.catalogue
            ? `another catalogue (sites/ ${manifest.shard.catalogue}, not ${first.catalogue})`
            : `another slicing or selection (${manifest.shard.index}/${manifest.shard.count} of ${manifest.shard.total}, not of ${first.count} x ${first.total})`;
      diagnostics.push(DIAGNOSTICS.differentBuilds(dir, shards[0].dir, what));
    }
  }
  const byIndex = new Map<number, string[]>();
  for (const { dir, manifest } of shards) byIndex.set(manifest.shard.index, [...(byIndex.get(manifest.shard.index) ?? []), dir]);
  for (const [index, dirs] of byIndex) if (dirs.length > 1) diagnostics.push(DIAGNOSTICS.shardTwice(`${index}/${first.count}`, dirs));
  const absent = Array.from({ length: first.count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (absent.length) diagnostics.push(DIAGNOSTICS.shardsMissing(absent.map((i) => `${i}/${first.count}`)));

  // Bundles: each in exactly one shard, from one set of inputs.
  const seen = new Map<string, { dir: string; entry: ManifestEntry }>();
  for (const { dir, manifest } of shards) {
    for (const entry of manifest.bundles) {
      const other = seen.get(key(entry));
      if (!other) seen.set(key(entry), { dir, entry });
      else if (other.entry.inputsHash !== entry.inputsHash)
        diagnostics.push(DIAGNOSTICS.inputsDiffer(`${entry.env}/${entry.site}`, other.dir, other.entry.inputsHash, dir, entry.inputsHash));
      else diagnostics.push(DIAGNOSTICS.bundleTwice(`${entry.env}/${entry.site}`, other.dir, dir));
    }
  }
  if (!diagnostics.length && seen.size !== first.total) diagnostics.push(DIAGNOSTICS.bundleCount(seen.size, first.total));
  if (!diagnostics.length && options.sitesDir) {
    const catalogue = await loadCatalogue({ sitesDir: options.sitesDir, moduleNames: MODULE_NAMES });
    if (!catalogue.diagnostics.length) {
      const expected = selectBundles(catalogue.bundles, { sites: first.sites, envs: first.envs }).map(key);
      const missing = expected.filter((k) => !seen.has(k));
      if (missing.length) diagnostics.push(DIAGNOSTICS.bundlesMissing(missing.map((k) => k.split("/").reverse().join("/"))));
    }
  }
  if (diagnostics.length) return { ok: false, exitCode: 3, diagnostics, bundles: seen.size };

  // The bytes: each file must be what its entry says.
  const files: Array<{ path: string; data: string; named?: boolean }> = [];
  for (const { dir, entry } of seen.values()) {
    const [named, alias] = await Promise.all([
      readFile(join(dir, entry.file), "utf8").catch(() => undefined),
      readFile(join(dir, entry.alias), "utf8").catch(() => undefined),
    ]);
    const expectedName = `sitetags.${named === undefined ? "" : sha256(named).slice(0, 10)}.min.js`;
    if (named === undefined || alias === undefined) diagnostics.push(DIAGNOSTICS.fileMissing(join(dir, named === undefined ? entry.file : entry.alias)));
    else if (sha384Integrity(named) !== entry.integrity || alias !== named || !entry.file.endsWith(expectedName))
      diagnostics.push(DIAGNOSTICS.fileMismatch(join(dir, entry.file)));
    else files.push({ path: join(options.outDir, entry.file), data: named, named: true }, { path: join(options.outDir, entry.alias), data: named });
    // The deferred file the first file names (deferred.ts): kept, checked like the first.
    const deferred = entry.deferred;
    if (deferred) {
      const data = await readFile(join(dir, deferred.file), "utf8").catch(() => undefined);
      if (data === undefined) diagnostics.push(DIAGNOSTICS.fileMissing(join(dir, deferred.file)));
      else if (sha384Integrity(data) !== deferred.integrity || !deferred.file.endsWith(`sitetags.defer.${sha256(data).slice(0, 10)}.min.js`))
        diagnostics.push(DIAGNOSTICS.fileMismatch(join(dir, deferred.file)));
      else files.push({ path: join(options.outDir, deferred.file), data, named: true });
    }
  }
  if (diagnostics.length) return { ok: false, exitCode: 3, diagnostics, bundles: seen.size };
  const manifest: Manifest = { bundles: [...seen.values()].map((s) => s.entry).sort((a, b) => compareText(a.site, b.site) || compareText(a.env, b.env)) };
  files.push({ path: join(options.outDir, "manifest.json"), data: `${JSON.stringify(manifest, null, 2)}\n` });
  try {
    await commitFiles(files);
  } catch (err) {
    return { ok: false, exitCode: 3, diagnostics: [DIAGNOSTICS.writeFailed((err as Error).message)], bundles: seen.size };
  }
  return { ok: true, exitCode: 0, diagnostics: [], manifest, bundles: manifest.bundles.length };
}

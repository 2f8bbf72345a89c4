/**
 * The catalogue through a cache of each site file's outcome (issue #21: at
 * 600 sites, a rebuild spent most of its time parsing and validating YAML
 * that had not changed). A site file that loaded without a single
 * diagnostic is kept in `CACHE/config/KEY.json`: its checked model and its
 * resolved bundles (with their inputsHash). KEY is the sha256 of everything
 * that decides that outcome: the file's name and bytes, _org.yaml's name and
 * bytes (every site's settings are merged over it), the generator hash
 * (the sources of generator/config, generator/bundle and runtime-modules,
 * which hold the schemas, the checks and the runtime registry, and the
 * toolchain versions), the versions of the parsing and checking packages,
 * the module names and where the files are shown from. A change to any of
 * them is another key: a miss.
 *
 * A hit reads only the catalogue index (`CACHE/config/KEY.index.json`, KEY
 * the key of _org.yaml's entry): per site file, its code, environments and
 * hosts and, per bundle, all but its config (its core piece instead). The
 * full entry (the checked model, each bundle's config) is read when
 * something asks for it: the bundles that are built, not the ones reused
 * (issue #21: at 600 sites, parsing the 600 full entries, 33 MB of JSON, was
 * half of a one-site rebuild). A file the index lacks is read whole as
 * before.
 *
 * Only the files that miss go through loadCatalogue (with _org.yaml); the
 * checks across files (each code once, each host once, host patterns) run
 * again over every site's cached codes and hosts. Whenever anything is not
 * clean (a diagnostic, even a warning, in the files loaded; a clash across
 * files; an unreadable or undecodable file; no cached organisation file) the
 * whole catalogue is loaded from YAML as before, so diagnostics and their
 * order are exactly loadCatalogue's.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, utimesSync } from "node:fs";
import { readdir, rm, stat } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";
import { cachedJson, writeAtomic, writeAtomicSync } from "../bundle/cache-file.js";
import { configLoader } from "./load-entry.js";
import { ORG_FILE, type Catalogue, type LoadOptions, type ResolvedBundle, type SiteModel } from "./catalogue.js";
import type { OrgFile } from "./schema.js";
import type { CachedSource } from "./yaml-source.js";

/** Bumped when the shape of a cache entry changes. */
const FORMAT = "3";
/** Packages whose behaviour decides a file's outcome besides our sources (parsing, schemas, selector and ReDoS checks). */
const PACKAGES = ["yaml", "zod", "css-what", "recheck"];

interface SiteEntry {
  site: SiteModel;
  bundles: Array<ResolvedBundle & { inputsHash: string }>;
}

/** A site file's line in the catalogue index: its entry without the site's data and the bundles' configs, each bundle with its core piece. */
export interface IndexEntry {
  code: string;
  file: string;
  envs: SiteModel["envs"];
  hosts: SiteModel["data"]["hosts"];
  bundles: Array<Omit<ResolvedBundle, "config"> & { inputsHash: string; core: string }>;
}

/** The catalogue index: each site file's IndexEntry by the name of its full entry. */
type CatalogueIndex = Record<string, IndexEntry>;

export interface CachedLoadOptions extends LoadOptions {
  cacheDir: string;
  /** The generator hash (computeRuntimeHash): any change to the generator's or runtime's sources misses every entry. */
  generatorHash: string;
  /** Each bundle's inputsHash, kept with it (the build's plan compares it with the manifest's). */
  inputsHashOf: (bundle: ResolvedBundle) => string;
  /** The package root, for the packages' versions. */
  root: string;
  /** Each bundle's core piece (plan.ts coreOf), kept in the index so that a reused bundle's config need not be read. */
  coreOf: (bundle: ResolvedBundle) => string;
}

export interface CachedLoad {
  catalogue: Catalogue;
  /** Site files whose outcome came from the cache. */
  hits: number;
  /** Site files parsed and checked (all of them when the whole catalogue was loaded from YAML). */
  parsed: number;
  /** Each bundle's inputsHash, when it came from the cache. */
  inputsHashes: Map<ResolvedBundle, string>;
  /** Each bundle's core piece, when it came from the cache. */
  cores: Map<ResolvedBundle, string>;
  /** Whether _org.yaml's model and source came from the cache (a file that missed was checked over them without parsing _org.yaml). */
  orgFromCache: boolean;
}

/** _org.yaml's entry: its model, and its source's parts that the checks of a site file read (positions), when they survive JSON. */
interface OrgEntry {
  org: OrgFile;
  source?: CachedSource;
}

const sha256 = (...parts: Array<string | Uint8Array>) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p).update("\0");
  return h.digest("hex");
};

function packageVersions(root: string): string {
  return PACKAGES.map((name) => {
    const file = join(root, "node_modules", name, "package.json");
    return `${name}@${existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version : "missing"}`;
  }).join(",");
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** The file's text, or undefined when it is not valid UTF-8 (loadCatalogue then reports it). */
function decode(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Whether the catalogue's codes and hosts clash across files (each code once, each host once, no host below another site's pattern). */
function clashAcrossFiles(sites: ReadonlyArray<Pick<IndexEntry, "code" | "envs" | "hosts">>): boolean {
  const codes = new Set<string>();
  const hostOwner = new Map<string, string>();
  for (const site of sites) {
    if (codes.has(site.code)) return true;
    codes.add(site.code);
    for (const env of site.envs)
      for (const host of site.hosts[env] ?? []) {
        const owner = hostOwner.get(host);
        if (owner !== undefined) return true;
        hostOwner.set(host, site.code);
      }
  }
  for (const [pattern, site] of hostOwner) {
    if (!pattern.startsWith("*.")) continue;
    const suffix = pattern.slice(1);
    for (const [host, owner] of hostOwner)
      if (owner !== site && host !== pattern && (host.endsWith(suffix) || (host.startsWith("*.") && host.slice(1).endsWith(suffix)))) return true;
  }
  return false;
}

/** The catalogue's files and every cache key, or undefined when the folder cannot be read so (the whole catalogue is then loaded from YAML). */
function catalogueKeys(options: CachedLoadOptions) {
  const { sitesDir, cacheDir } = options;
  const dir = join(cacheDir, "config");
  let names: string[];
  try {
    names = readdirSync(sitesDir)
      .filter((n) => n.endsWith(".yaml") || n.endsWith(".yml"))
      .sort();
  } catch {
    return undefined;
  }
  if (!names.includes(ORG_FILE)) return undefined;
  // Read synchronously: 600 small files through fs/promises cost four times the CPU (an open, a stat, a read and a close each, through the thread pool).
  const read = names.map((n) => {
    try {
      return readFileSync(join(sitesDir, n));
    } catch {
      return undefined;
    }
  });
  const texts = read.map((bytes) => bytes && decode(bytes));
  if (texts.some((t) => t === undefined)) return undefined;
  const files = names.map((file, i) => ({ file, text: texts[i]! }));
  const parent = dirname(sitesDir);
  const display = (name: string) => relative(parent, join(sitesDir, name)) || name;
  const orgIndex = names.indexOf(ORG_FILE);
  const common = sha256(FORMAT, options.generatorHash, packageVersions(options.root), options.moduleNames.join(","), display(ORG_FILE), read[orgIndex]!);
  // Each file's key once (it names the file's entry, its line of the index and what prune keeps).
  const keys = names.map((name, i) => (name.startsWith("_") ? "" : sha256(common, display(name), read[i]!)));
  const siteIndexes = names.flatMap((n, i) => (n.startsWith("_") ? [] : [i]));
  const entryName = (key: string) => `${key.slice(0, 32)}.json`;
  const entryFile = (key: string) => join(dir, entryName(key));
  const indexFile = join(dir, `${common.slice(0, 32)}.index.json`);
  return { dir, names, texts, files, display, orgIndex, common, keyOf: (i: number) => keys[i], siteIndexes, entryName, entryFile, indexFile };
}

/** What prune keeps for the catalogue as it is now: _org.yaml's entry, each site file's and the index. */
function keptBy(keys: NonNullable<ReturnType<typeof catalogueKeys>>): Set<string> {
  const { common, keyOf, siteIndexes, entryName, indexFile } = keys;
  return new Set([...[common, ...siteIndexes.map(keyOf)].map(entryName), basename(indexFile)]);
}

/** The catalogue's bundles by site code, each site's in the catalogue's order. */
function bundlesBySite(catalogue: Catalogue): Map<string, ResolvedBundle[]> {
  const bySite = new Map<string, ResolvedBundle[]>();
  for (const b of catalogue.bundles) {
    const list = bySite.get(b.site);
    if (list) list.push(b);
    else bySite.set(b.site, [b]);
  }
  return bySite;
}

/**
 * A loaded site's entry: the site and its bundles (`bySite`, bundlesBySite: a filter of the catalogue's bundles per site was quadratic, 0.1 s
 * of a config thread at 600 sites), each with its inputsHash.
 */
function siteEntryOf(bySite: ReadonlyMap<string, ResolvedBundle[]>, site: SiteModel, options: CachedLoadOptions): SiteEntry {
  return { site, bundles: (bySite.get(site.code) ?? []).map((b) => ({ ...b, inputsHash: options.inputsHashOf(b) })) };
}

/** A part of a cold build's config phase (config-worker.ts): which of the catalogue's site files it loads. */
export interface ConfigPart {
  part: number;
  parts: number;
}

/** The site files of `part`: every `parts`-th of the sorted site files, from the `part`-th. */
export const sitesOfPart = <T>(siteIndexes: readonly T[], { part, parts }: ConfigPart): T[] => siteIndexes.filter((_, j) => j % parts === part);

/**
 * One part of a cold build's config phase, on a thread of its own (config-worker.ts; issue #21: the parse of 600 site files took one core
 * for 9 s while the other waited): loads _org.yaml and the part's site files (loadCatalogue with `only`, as a partial miss of
 * loadCatalogueCached does), and, when that load is clean, writes each site file's entry (part 0 also _org.yaml's) and answers the part's
 * lines of the catalogue index, by entry name. Anything not clean answers undefined and writes nothing: the build's own
 * loadCatalogueCached then loads what is missing as always, so diagnostics are exactly its own. Checks across the parts' files (each code
 * and host once) are loadCatalogueCached's, over the index, as for any hit.
 */
export async function loadConfigPart(options: CachedLoadOptions & ConfigPart): Promise<Array<[string, IndexEntry]> | undefined> {
  const keys = catalogueKeys(options);
  if (!keys) return undefined;
  const { names, texts, display, orgIndex, common, keyOf, siteIndexes, entryName, entryFile } = keys;
  const mine = sitesOfPart(siteIndexes, options);
  // More parts than site files: this one has nothing to load (with no site file at all, loadCatalogueCached reports it).
  if (!mine.length) return [];
  const { loadCatalogue } = await configLoader();
  const catalogue = await loadCatalogue({ ...options, only: [ORG_FILE, ...mine.map((i) => names[i])] });
  if (catalogue.diagnostics.length || !catalogue.org || catalogue.sites.length !== mine.length) return undefined;
  const writes: Array<Promise<void>> = [];
  if (options.part === 0)
    writes.push(orgEntryOf(catalogue.org, display(ORG_FILE), texts[orgIndex]!).then((entry) => writeAtomic(entryFile(common), JSON.stringify(entry))));
  const lines: Array<[string, IndexEntry]> = [];
  const bySite = bundlesBySite(catalogue);
  for (const [j, site] of catalogue.sites.entries()) {
    const key = keyOf(mine[j]);
    if (site.file !== display(names[mine[j]])) return undefined;
    const entry = siteEntryOf(bySite, site, options);
    // Synchronously: this thread has nothing else to do meanwhile, and each file through fs/promises cost a mkdir, an open, a write, a close
    // and a rename through libuv's pool (0.5 s of a config thread's CPU at 600 sites).
    writeAtomicSync(entryFile(key), JSON.stringify(entry));
    lines.push([entryName(key), indexLineOf(entry, options.coreOf)]);
  }
  await Promise.all(writes);
  return lines;
}

/**
 * The catalogue index from the parts' lines (loadConfigPart), in the order loadCatalogueCached writes it, once every part answered: the
 * build's loadCatalogueCached then finds every site file in it and reads each full entry only when it is asked for. Written only when
 * the parts cover every site file of the catalogue as it is now.
 */
export async function writeIndexOfParts(options: CachedLoadOptions, parts: ReadonlyArray<Array<[string, IndexEntry]> | undefined>): Promise<void> {
  const keys = catalogueKeys(options);
  if (!keys || parts.some((p) => !p)) return;
  const lines = new Map(parts.flatMap((p) => p!));
  const names = keys.siteIndexes.map((i) => keys.entryName(keys.keyOf(i)));
  if (lines.size !== names.length || names.some((n) => !lines.has(n))) return;
  // A cache that cannot be written is only slower next time; what the catalogue no longer names goes, as after any write of loadCatalogueCached.
  await writeAtomic(keys.indexFile, JSON.stringify(Object.fromEntries(names.map((n) => [n, lines.get(n)!])))).catch(() => undefined);
  await prune(keys.dir, keptBy(keys));
}

export async function loadCatalogueCached(options: CachedLoadOptions): Promise<CachedLoad> {
  const { sitesDir } = options;
  const full = async (): Promise<CachedLoad> => {
    const { loadCatalogue } = await configLoader();
    const catalogue = await loadCatalogue(options);
    return {
      catalogue,
      hits: 0,
      parsed: catalogue.files.filter((f) => f.file !== ORG_FILE).length,
      inputsHashes: new Map(),
      cores: new Map(),
      orgFromCache: false,
    };
  };

  const keys = catalogueKeys(options);
  if (!keys) return full();
  const { dir, names, texts, files, display, orgIndex, common, keyOf, siteIndexes, entryName, entryFile, indexFile } = keys;

  const [org, index] = await Promise.all([cachedJson<OrgEntry>(entryFile(common)), cachedJson<CatalogueIndex>(indexFile)]);
  // A hit: the file's line of the index (its full entry read only when asked for), else its full entry.
  const cached: Array<IndexEntry | SiteEntry | undefined> = await Promise.all(
    siteIndexes.map((i) => {
      const name = entryName(keyOf(i));
      const line = index?.[name];
      // Touched, so that another build's prune sharing this cache keeps it until this one has read it (prune, PRUNE_GRACE_MS).
      return line && touch(join(dir, name)) ? line : cachedJson<SiteEntry>(join(dir, name));
    }),
  );
  const missed = siteIndexes.filter((_, j) => !cached[j]);
  let catalogue: Catalogue;
  let orgFromCache = !!org;
  if (!org || missed.length === siteIndexes.length) {
    // Nothing to reuse: the whole catalogue from YAML, remembered if clean.
    const loaded = await full();
    catalogue = loaded.catalogue;
    orgFromCache = false;
    if (catalogue.diagnostics.length || !catalogue.org) return loaded;
  } else if (missed.length) {
    // _org.yaml's model and positions from its entry (issue #21: its parse and checks were a sixth of a one-site rebuild's config phase).
    const { loadCatalogue, sourceFromCache } = await configLoader();
    orgFromCache = org.source !== undefined;
    const cachedOrg = org.source && { model: org.org, source: sourceFromCache(display(ORG_FILE), texts[orgIndex]!, org.source) };
    const missedNames = missed.map((i) => names[i]);
    catalogue = await loadCatalogue({ ...options, only: cachedOrg ? missedNames : [ORG_FILE, ...missedNames], org: cachedOrg });
    if (catalogue.diagnostics.length) return full();
  } else catalogue = { sitesDir, org: org.org, sites: [], bundles: [], diagnostics: [], files: [] };

  // The fresh outcomes, per site file, remembered for next time.
  const fresh = new Map<string, SiteEntry>();
  const bySite = bundlesBySite(catalogue);
  for (const site of catalogue.sites) fresh.set(site.file, siteEntryOf(bySite, site, options));
  const lines: IndexEntry[] = [];
  const sites: SiteModel[] = [];
  const inputsHashes = new Map<ResolvedBundle, string>();
  const cores = new Map<ResolvedBundle, string>();
  const bundles: ResolvedBundle[] = [];
  const writes: Array<Promise<void>> = [];
  let indexStale = !index || Object.keys(index).length !== siteIndexes.length;
  if (!org) writes.push(orgEntryOf(catalogue.org!, display(ORG_FILE), texts[orgIndex]!).then((entry) => writeAtomic(entryFile(common), JSON.stringify(entry))));
  for (const [j, i] of siteIndexes.entries()) {
    const hit = cached[j];
    const entry = hit && "site" in hit ? hit : hit ? undefined : fresh.get(display(names[i]));
    // A missed file that yielded no site (none should, without a diagnostic): load it all as before.
    if (!hit && !entry) return full();
    if (!hit) writes.push(writeAtomic(entryFile(keyOf(i)), JSON.stringify(entry)));
    const line = entry ? indexLineOf(entry, options.coreOf) : (hit as IndexEntry);
    if (entry) indexStale = true;
    lines.push(line);
    // (A rest pattern would read every property: the lazy bundles come without their inputsHash.)
    const { site, siteBundles } = entry
      ? { site: entry.site, siteBundles: entry.bundles.map(({ inputsHash: _h, ...bundle }) => bundle) }
      : lazySite(line, entryFile(keyOf(i)));
    sites.push(site);
    for (const [b, bundle] of siteBundles.entries()) {
      inputsHashes.set(bundle, line.bundles[b].inputsHash);
      cores.set(bundle, line.bundles[b].core);
      bundles.push(bundle);
    }
  }
  if (clashAcrossFiles(lines)) return full();
  if (indexStale) writes.push(writeAtomic(indexFile, JSON.stringify(Object.fromEntries(siteIndexes.map((i, j) => [entryName(keyOf(i)), lines[j]])))));
  // A cache that cannot be written is only slower next time.
  await Promise.all(writes.map((w) => w.catch(() => undefined)));
  if (writes.length) await prune(dir, keptBy(keys));

  return {
    catalogue: { sitesDir, org: catalogue.org, sites, bundles, diagnostics: [], files },
    hits: siteIndexes.length - missed.length,
    parsed: missed.length,
    inputsHashes,
    cores,
    orgFromCache,
  };
}

/** _org.yaml's entry, its source parsed again for its positions (once per change of its bytes). */
async function orgEntryOf(org: OrgFile, file: string, text: string): Promise<OrgEntry> {
  const { parseYamlSource, cachedSourceOf } = await configLoader();
  const parsed = parseYamlSource(file, text);
  return { org, source: parsed.diagnostics.length ? undefined : cachedSourceOf(parsed.source) };
}

/** A site file's line of the catalogue index. */
function indexLineOf(entry: SiteEntry, coreOf: (bundle: ResolvedBundle) => string): IndexEntry {
  const { code, file, envs, data } = entry.site;
  return { code, file, envs, hosts: data.hosts, bundles: entry.bundles.map(({ config: _c, ...rest }, b) => ({ ...rest, core: coreOf(entry.bundles[b]) })) };
}

/**
 * A site and its bundles from the index line, their `data` and `config` read from the full entry (`file`) on first use: the same objects
 * (same keys, in the same order) as the entry's, for whoever reads them.
 */
function lazySite(line: IndexEntry, file: string): { site: SiteModel; siteBundles: ResolvedBundle[] } {
  let whole: SiteEntry | undefined;
  const entry = () => (whole ??= JSON.parse(readFileSync(file, "utf8")) as SiteEntry);
  const site = { code: line.code, file: line.file } as SiteModel;
  Object.defineProperty(site, "data", { enumerable: true, configurable: true, get: () => entry().site.data });
  site.envs = line.envs;
  const siteBundles = line.bundles.map(({ core: _core, inputsHash: _h, site: code, env, ...rest }, b) => {
    const bundle = { site: code, env } as ResolvedBundle;
    Object.defineProperty(bundle, "config", { enumerable: true, configurable: true, get: () => entry().bundles[b].config });
    return Object.assign(bundle, rest);
  });
  return { site, siteBundles };
}

/**
 * How long an entry no catalogue of this build names is kept after it was last written or used. A build reads a hit's full entry only when
 * it links the bundle (lazySite), up to minutes later; another build sharing the cache (a shard beside it, another catalogue, a test) prunes
 * by its own catalogue, so without this it could remove the entry in between and the first build would fail to read it.
 */
export const PRUNE_GRACE_MS = 60 * 60 * 1000;

/** Marks an entry as used now (its modification time), or false when it is gone. */
function touch(file: string): boolean {
  try {
    const now = new Date();
    utimesSync(file, now, now);
    return true;
  } catch {
    return false;
  }
}

/**
 * Removes the entries of files and inputs that are gone, so the cache does not grow with every edit: those not in `keep` and neither written
 * nor used (touch) in the last PRUNE_GRACE_MS.
 */
async function prune(dir: string, keep: Set<string>) {
  const names = await readdir(dir).catch(() => [] as string[]);
  const before = Date.now() - PRUNE_GRACE_MS;
  await Promise.all(
    names
      .filter((n) => n.endsWith(".json") && !keep.has(n))
      .map(async (n) => {
        const file = join(dir, n);
        const info = await stat(file).catch(() => undefined);
        if (info && info.mtimeMs < before) await rm(file, { force: true });
      }),
  );
}

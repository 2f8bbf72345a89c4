/**
 * The build: catalogue -> build plan -> generated entries -> rollup + terser
 * (once per runtime piece: the core, each feature module, the data-layer
 * checks) -> bundles linked from the pieces and the inlined config -> dist/ +
 * manifest. Incremental (unchanged inputs are reused), parallel
 * (worker threads), deterministic (no timestamps; sorted manifest) and atomic
 * (nothing is written unless every bundle succeeded).
 */
import { access, mkdir, readFile, rename, rm, writeFile, readdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { gzip, constants as zlib } from "node:zlib";
import { promisify } from "node:util";
import { loadCatalogue, type Catalogue, type ResolvedBundle } from "../config/load.js";
import { ModulesSchema } from "../config/schema.js";
import { sortDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import { computeRuntimeHash, sha256, sha384Integrity, stableStringify } from "./hash.js";
import { CONFIG_TOKEN, DEV_CHECKS_TOKEN, MODULES_TOKEN, coreEntry } from "./entry.js";
import { compileRuntime } from "./compile-runtime.js";
import { createPiecePool, prepareInWorker, type JobOutcome } from "./pool.js";
import { availableParallelism } from "node:os";
import type { PieceResult } from "./compile-piece.js";
import type { PrepareOutput } from "./prepare.js";
import { packageRoot } from "./paths.js";
import { compareText } from "../compare-text.js";
import { nearest } from "../config/issues.js";
import { ENV_NAMES } from "../config/constants.js";

export interface ManifestEntry {
  site: string;
  env: string;
  file: string;
  alias: string;
  bytes: number;
  gzipBytes: number;
  integrity: string;
  modules: string[];
  inputsHash: string;
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

export interface BundleReport extends ManifestEntry {
  status: "built" | "reused";
  budgetGzipBytes: number;
  /** Minified bytes (UTF-8) per piece: core (with the factories object's keys), each feature module, devChecks (non-production), config; they add up to `bytes`. */
  moduleBytes: Record<string, number>;
  moduleSources: Record<string, string>;
}

export interface BuildOptions {
  sitesDir?: string;
  outDir?: string;
  cacheDir?: string;
  /** Narrow to these site codes. */
  sites?: string[];
  /** Narrow to these environments. */
  envs?: string[];
  /** 1-based slice I of N of the sorted bundle list. */
  shard?: { index: number; count: number };
  workers?: number;
  /** Ignore the manifest (rebuild everything selected); the piece cache still applies. */
  force?: boolean;
  onProgress?: (event: { done: number; total: number; label: string }) => void;
  /** Compile and check but write nothing (used by inspect). */
  dryRun?: boolean;
  /** The package root holding runtime-modules/ and the tsconfigs (tests point it at a copy). */
  root?: string;
}

export interface BuildResult {
  ok: boolean;
  /** 1 invalid configuration, 3 build failure (contract exit codes); 0 success. */
  exitCode: 0 | 1 | 3;
  diagnostics: Diagnostic[];
  bundles: BundleReport[];
  built: number;
  reused: number;
  /** Runtime pieces compiled (not from the cache): core, feature modules, data-layer checks. */
  piecesCompiled: number;
  timeMs: number;
  manifest?: Manifest;
  catalogue?: Catalogue;
  /** Milliseconds spent in each phase (for the benchmark). */
  phases: Record<string, number>;
}

export const MODULE_NAMES = Object.keys(ModulesSchema.shape);

const FORBIDDEN: Array<[RegExp, string]> = [
  [/\beval\s*\(/, "eval("],
  [/\bnew Function\b|\bFunction\s*\(\s*["'`]/, "new Function"],
  [/document\.write(ln)?\s*\(/, "document.write"],
  [/\bset(Timeout|Interval)\(\s*["'`]/, "a string timer"],
];

/** Non-production bundles carry the data-layer push checks; production bundles skip them and their code. */
export function hasDevChecks(bundle: Pick<ResolvedBundle, "env">): boolean {
  return bundle.env !== "prod";
}

/** A module set with or without the checks: the typed entry written for it (entries/KEY.ts). */
function shapeKeyOf(runtimeHash: string, bundle: ResolvedBundle): string {
  return sha256(`${runtimeHash}\0${bundle.modules.join(",")}\0${hasDevChecks(bundle) ? "dev" : "prod"}`).slice(0, 16);
}

/** A compiled piece ("core", "devChecks" or a module name) of this runtime. */
function pieceKeyOf(runtimeHash: string, name: string): string {
  return sha256(`${runtimeHash}\0piece\0${name}`).slice(0, 16);
}

/** Pieces a bundle is linked from. */
function piecesOf(bundle: ResolvedBundle): string[] {
  return ["core", ...bundle.modules, ...(hasDevChecks(bundle) ? ["devChecks"] : [])];
}

/** The compiled pieces by name, and the registry order in which a bundle hands its modules to boot. */
interface PieceSet {
  order: string[];
  pieces: Map<string, PieceResult>;
}

/**
 * V8's explicit compile hint (Chrome 136+; other engines read a comment): it
 * must be the file's very first bytes. The bundle runs nearly all of its
 * functions while the page loads (boot, consent, identity, the page view), so
 * V8 compiles them all up front, on the streaming thread while the script
 * downloads, instead of lazily on the main thread at each first call, which
 * also parsed each function twice. `npm run bench` (edge) measures the
 * main-thread time with it.
 */
export const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";

/**
 * Links one bundle: the core with its placeholders replaced by the config
 * JSON, the object of the bundle's module pieces (registry order) and the
 * checks piece or `void 0`. Also the minified bytes of each piece in it.
 */
function linkBundle(set: PieceSet, bundle: ResolvedBundle): { code: string; moduleBytes: Record<string, number> } {
  const core = set.pieces.get("core")!.code;
  const modules = set.order.filter((m) => bundle.modules.includes(m));
  const factories = `{${modules.map((m) => `${m}:${set.pieces.get(m)!.code}`).join(",")}}`;
  const checks = hasDevChecks(bundle) ? set.pieces.get("devChecks")!.code : "void 0";
  const config = inlineConfig(bundle.config);
  const values: Record<string, string> = { [CONFIG_TOKEN]: config, [MODULES_TOKEN]: factories, [DEV_CHECKS_TOKEN]: checks };
  const code = COMPILE_HINT + core.replace(new RegExp(`${CONFIG_TOKEN}|${MODULES_TOKEN}|${DEV_CHECKS_TOKEN}`, "g"), (token) => values[token]);
  // UTF-8 bytes, as served: the rows add up to the bundle's size.
  const size = (text: string) => Buffer.byteLength(text);
  const moduleBytes: Record<string, number> = {};
  for (const m of modules) moduleBytes[m] = size(set.pieces.get(m)!.code);
  if (hasDevChecks(bundle)) moduleBytes.devChecks = size(checks);
  moduleBytes.config = size(config);
  return { code, moduleBytes: { core: size(code) - Object.values(moduleBytes).reduce((a, b) => a + b, 0), ...moduleBytes } };
}

const gzipAsync = promisify(gzip);

export function defaultPaths(cwd = process.cwd()) {
  return { sitesDir: join(cwd, "sites"), outDir: join(cwd, "dist"), cacheDir: join(cwd, ".sitetags-cache") };
}

/** Serialises the config for inlining: valid JS in every engine (U+2028/9 escaped). */
export function inlineConfig(config: unknown): string {
  return JSON.stringify(config).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029").replace(/<\//g, "<\\/");
}

export function selectBundles(all: ResolvedBundle[], options: Pick<BuildOptions, "sites" | "envs" | "shard">): ResolvedBundle[] {
  const sorted = [...all].sort((a, b) => compareText(a.site, b.site) || compareText(a.env, b.env));
  const narrowed = sorted.filter((b) => (!options.sites?.length || options.sites.includes(b.site)) && (!options.envs?.length || options.envs.includes(b.env)));
  if (!options.shard) return narrowed;
  const { index, count } = options.shard;
  return narrowed.filter((_, i) => i % count === index - 1);
}

/** What decides a bundle's bytes besides the runtime: its resolved config (and its budget). Two bundles with the same inputsHash have the same bytes. */
export function inputsHashOf(runtimeHash: string, bundle: Pick<ResolvedBundle, "config" | "budgetGzipBytes">): string {
  return sha256(`${runtimeHash}\0${stableStringify(bundle.config)}\0${bundle.budgetGzipBytes}`).slice(0, 16);
}

export async function readManifest(outDir: string): Promise<Manifest> {
  try {
    const parsed = JSON.parse(await readFile(join(outDir, "manifest.json"), "utf8")) as Manifest;
    return Array.isArray(parsed.bundles) ? parsed : { bundles: [] };
  } catch {
    return { bundles: [] };
  }
}

async function cachedJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}

async function writeAtomic(file: string, data: string | Uint8Array) {
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, data);
  await rename(tmp, file);
}

function usageDiagnostics(catalogue: Catalogue, options: BuildOptions): Diagnostic[] {
  const out: Diagnostic[] = [];
  const codes = new Set(catalogue.bundles.map((b) => b.site));
  const hint = (word: string, known: Set<string>) => {
    const near = nearest(word, [...known]);
    return near ? ` (did you mean "${near}"?)` : "";
  };
  for (const site of options.sites ?? []) if (!codes.has(site)) out.push({ code: "CONFIG_UNKNOWN_SITE", message: `no site "${site}" in the catalogue${hint(site, codes)}`, severity: "error" });
  // An unknown site says it all: its environments cannot be checked.
  if (out.length) return out;
  const envs = new Set<string>(catalogue.bundles.filter((b) => !options.sites?.length || options.sites.includes(b.site)).map((b) => b.env));
  // A suggestion only for a name that is no environment at all ("prd"): "oat" on a site without it is no typo.
  for (const env of options.envs ?? []) if (!envs.has(env)) out.push({ code: "CONFIG_UNKNOWN_ENV_OPTION", message: `no selected site has environment "${env}"${(ENV_NAMES as readonly string[]).includes(env) ? "" : hint(env, envs)}`, severity: "error" });
  return out;
}

export async function build(options: BuildOptions = {}): Promise<BuildResult> {
  const started = performance.now();
  const defaults = defaultPaths();
  const sitesDir = options.sitesDir ?? defaults.sitesDir;
  const outDir = options.outDir ?? defaults.outDir;
  const cacheDir = options.cacheDir ?? defaults.cacheDir;
  const root = options.root ?? packageRoot();
  const runtimeDir = join(root, "runtime-modules");
  const phases: Record<string, number> = {};
  let mark = started;
  const phase = (name: string) => {
    const now = performance.now();
    phases[name] = Math.round(now - mark);
    mark = now;
  };
  const result: BuildResult = { ok: false, exitCode: 1, diagnostics: [], bundles: [], built: 0, reused: 0, piecesCompiled: 0, timeMs: 0, phases };
  // Warnings of the configuration go with every result; they fail nothing.
  let warnings: Diagnostic[] = [];
  const done = (r: BuildResult) => ({ ...r, diagnostics: warnings.length ? sortDiagnostics([...warnings, ...r.diagnostics]) : r.diagnostics, timeMs: Math.round(performance.now() - started) });

  const catalogue = await loadCatalogue({ sitesDir, moduleNames: MODULE_NAMES });
  result.catalogue = catalogue;
  phase("config");
  if (catalogue.diagnostics.some((d) => d.severity === "error")) return done({ ...result, diagnostics: catalogue.diagnostics });
  warnings = catalogue.diagnostics;
  const usage = usageDiagnostics(catalogue, options);
  if (usage.length) return done({ ...result, diagnostics: usage });

  const selected = selectBundles(catalogue.bundles, options);
  const runtimeHash = computeRuntimeHash(root);
  const previous = options.force ? { bundles: [] } : await readManifest(outDir);
  const previousByKey = new Map(previous.bundles.map((b) => [`${b.site}/${b.env}`, b]));

  // Plan: which bundles can be reused as they are, which pieces need compiling.
  const toBuild: Array<{ bundle: ResolvedBundle; inputsHash: string }> = [];
  const reports: BundleReport[] = [];
  const reused: Array<{ bundle: ResolvedBundle; old: ManifestEntry }> = [];
  for (const bundle of selected) {
    const inputsHash = inputsHashOf(runtimeHash, bundle);
    const old = previousByKey.get(`${bundle.site}/${bundle.env}`);
    if (old && old.inputsHash === inputsHash && existsSync(join(outDir, old.file)) && existsSync(join(outDir, old.alias))) reused.push({ bundle, old });
    else toBuild.push({ bundle, inputsHash });
  }

  // Pieces: from the cache, or compiled.
  const set: PieceSet = { order: (await cachedJson<string[]>(join(cacheDir, "pieces", `order-${runtimeHash.slice(0, 16)}.json`))) ?? [], pieces: new Map() };
  const wanted = new Set([...toBuild, ...reused].flatMap(({ bundle }) => piecesOf(bundle)));
  const missing = new Map<string, string>();
  for (const name of wanted) {
    const key = pieceKeyOf(runtimeHash, name);
    const cached = set.order.length ? await cachedJson<PieceResult>(join(cacheDir, "pieces", `${key}.json`)) : undefined;
    if (cached) set.pieces.set(name, cached);
    else if (toBuild.some(({ bundle }) => piecesOf(bundle).includes(name))) missing.set(key, name);
  }
  for (const { bundle, old } of reused) {
    const linked = piecesOf(bundle).every((p) => set.pieces.has(p)) ? linkBundle(set, bundle).moduleBytes : {};
    reports.push({ ...old, status: "reused", budgetGzipBytes: bundle.budgetGzipBytes, moduleBytes: linked, moduleSources: bundle.moduleSources });
  }
  const diagnostics: Diagnostic[] = [];
  const total = toBuild.length + missing.size;
  let progress = 0;
  if (missing.size) {
    const compiledRuntime = join(cacheDir, "runtime", runtimeHash.slice(0, 16));
    await mkdir(join(cacheDir, "pieces"), { recursive: true });
    // Workers load rollup and terser while stage A runs; the registry and the typed entries (ts-morph) run on another.
    const pool = createPiecePool(Math.min(options.workers ?? availableParallelism(), missing.size));
    const shapes = new Map<string, { modules: string[]; devChecks: boolean }>();
    for (const { bundle } of toBuild) shapes.set(shapeKeyOf(runtimeHash, bundle), { modules: bundle.modules, devChecks: hasDevChecks(bundle) });
    const expressions = [...missing].filter(([, name]) => name !== "core");
    try {
      const prepared = prepareInWorker({ root, cacheDir, runtimeHash, compiledRuntime, moduleNames: MODULE_NAMES, shapes: [...shapes].sort(([a], [b]) => compareText(a, b)), pieces: expressions });
      prepared.catch(() => undefined); // awaited below; not unhandled if stage A throws first
      const runtimeDiagnostics = await compileRuntime({ root, runtimeDir, outDir: compiledRuntime });
      diagnostics.push(...runtimeDiagnostics);
      const onDone = (o: JobOutcome) => {
        options.onProgress?.({ done: Math.min(total, ++progress), total, label: o.ok ? `compiled ${o.result.name}` : `failed ${o.name}` });
        return o;
      };
      // The core first: the longest job, and it needs no registry.
      const coreKey = [...missing].find(([, name]) => name === "core")?.[0];
      const outcomes: Array<Promise<JobOutcome>> = [];
      if (!diagnostics.length && coreKey) outcomes.push(pool.submit({ key: coreKey, name: "core", kind: "core", entry: coreEntry(compiledRuntime), packageRoot: root }).then(onDone));
      const prep = await prepared.catch((err: Error): PrepareOutput => ({ diagnostics: [{ code: "BUILD_COMPILE_ERROR", message: `reading the registry and writing the typed entries: ${err.message}`, severity: "error" }], order: [], jobs: [] }));
      diagnostics.push(...prep.diagnostics);
      phase("runtime+entries");
      if (!diagnostics.length) {
        for (const job of prep.jobs) outcomes.push(pool.submit(job).then(onDone));
        set.order = prep.order;
        await writeAtomic(join(cacheDir, "pieces", `order-${runtimeHash.slice(0, 16)}.json`), JSON.stringify(prep.order));
      }
      for (const o of await Promise.all(outcomes)) {
        if (!o.ok) {
          diagnostics.push({ code: "BUILD_COMPILE_ERROR", message: `runtime piece ${o.name}: ${o.error}`, severity: "error" });
          continue;
        }
        set.pieces.set(o.result.name, o.result);
        await writeAtomic(join(cacheDir, "pieces", `${o.result.key}.json`), JSON.stringify(o.result));
        result.piecesCompiled++;
      }
    } finally {
      await pool.close();
    }
    if (diagnostics.length) return done({ ...result, exitCode: 3, diagnostics });
    phase("pieces");
  }

  // Bundles: link the pieces and the config, hash, measure, check (gzip on the thread pool, all at once).
  const linked = toBuild.map(({ bundle, inputsHash }) => ({ bundle, inputsHash, ...linkBundle(set, bundle) }));
  const gzipped = await Promise.all(linked.map(({ code }) => gzipAsync(code, { level: zlib.Z_BEST_COMPRESSION })));
  const outputs: Array<{ report: BundleReport; code: string }> = [];
  for (const [i, { bundle, inputsHash, code, moduleBytes }] of linked.entries()) {
    const bytes = Buffer.byteLength(code);
    const gzipBytes = gzipped[i].length;
    const hash = sha256(code).slice(0, 10);
    const dir = `${bundle.env}/${bundle.site}`;
    const report: BundleReport = {
      site: bundle.site,
      env: bundle.env,
      file: `${dir}/sitetags.${hash}.min.js`,
      alias: `${dir}/sitetags.min.js`,
      bytes,
      gzipBytes,
      integrity: sha384Integrity(code),
      modules: bundle.modules,
      inputsHash,
      status: "built",
      budgetGzipBytes: bundle.budgetGzipBytes,
      moduleBytes,
      moduleSources: bundle.moduleSources,
    };
    for (const [pattern, what] of FORBIDDEN) {
      if (pattern.test(code)) diagnostics.push({ code: "BUILD_FORBIDDEN_CODE", message: `bundle ${dir} contains ${what}, which the page's Content-Security-Policy forbids`, severity: "error" });
    }
    if (gzipBytes > bundle.budgetGzipBytes) {
      diagnostics.push({
        code: "BUILD_OVER_BUDGET",
        message: `bundle ${dir} is ${gzipBytes} bytes gzipped, ${gzipBytes - bundle.budgetGzipBytes} over its budget of ${bundle.budgetGzipBytes} (modules: ${Object.entries(report.moduleBytes).map(([m, b]) => `${m} ${b}`).join(", ")} minified bytes)`,
        file: bundle.budgetSource?.file,
        line: bundle.budgetSource?.line,
        column: bundle.budgetSource?.column,
        path: "budget.gzipBytes",
        severity: "error",
      });
    }
    outputs.push({ report, code });
    reports.push(report);
    options.onProgress?.({ done: Math.min(total, ++progress), total, label: dir });
  }
  if (diagnostics.length) return done({ ...result, exitCode: 3, diagnostics, bundles: reports });
  phase("bundles");

  // Write: bundles first (new names), then the manifest, then prune.
  const knownKeys = new Set(catalogue.bundles.map((b) => `${b.site}/${b.env}`));
  const next = new Map(previous.bundles.filter((b) => knownKeys.has(`${b.site}/${b.env}`)).map((b) => [`${b.site}/${b.env}`, b]));
  for (const r of reports) {
    const { status: _s, budgetGzipBytes: _b, moduleBytes: _m, moduleSources: _ms, ...entry } = r;
    next.set(`${r.site}/${r.env}`, entry);
  }
  // A shard's manifest is partial: its own bundles and what `manifest merge` needs to check the whole.
  if (options.shard) for (const key of [...next.keys()]) if (!selected.some((b) => `${b.site}/${b.env}` === key)) next.delete(key);
  const shard: ShardInfo | undefined = options.shard && {
    ...options.shard,
    total: selectBundles(catalogue.bundles, { sites: options.sites, envs: options.envs }).length,
    ...(options.sites?.length ? { sites: [...options.sites].sort() } : {}),
    ...(options.envs?.length ? { envs: [...options.envs].sort() } : {}),
    runtime: runtimeHash.slice(0, 16),
    catalogue: sha256(catalogue.files.map((f) => `${f.file}\0${f.text}`).join("\0")).slice(0, 16),
  };
  const manifest: Manifest = { bundles: [...next.values()].sort((a, b) => compareText(a.site, b.site) || compareText(a.env, b.env)), ...(shard ? { shard } : {}) };
  if (!options.dryRun && (outputs.length || stableStringify(manifest) !== stableStringify(previous))) {
    try {
      const files = outputs.flatMap(({ report, code }) => [
        { path: join(outDir, report.file), data: code, named: true },
        { path: join(outDir, report.alias), data: code },
      ]);
      files.push({ path: join(outDir, "manifest.json"), data: `${JSON.stringify(manifest, null, 2)}\n` });
      await commitFiles(files);
      await prune(outDir, manifest, options.shard ? { bundles: previous.bundles.filter((b) => next.has(`${b.site}/${b.env}`)) } : previous);
    } catch (err) {
      return done({ ...result, exitCode: 3, diagnostics: [{ code: "BUILD_WRITE_FAILED", message: (err as Error).message, severity: "error" }] });
    }
  }
  phase("write");
  reports.sort((a, b) => compareText(a.site, b.site) || compareText(a.env, b.env));
  return done({ ...result, ok: true, exitCode: 0, bundles: reports, built: outputs.length, reused: reports.length - outputs.length, manifest });
}

/**
 * Writes files so that dist/ changes all at once or not at all: every file
 * is first written beside its target (.tmp-PID), in new directories as
 * needed; only when all are written are they renamed into place, in order
 * (the manifest last). A failure while writing removes the temporaries and
 * the directories made for them; a failure while renaming puts back what
 * was renamed (the earlier content of a replaced file, kept in memory).
 */
export async function commitFiles(files: Array<{ path: string; data: string; named?: boolean }>): Promise<void> {
  const tmp = (path: string) => `${path}.tmp-${process.pid}`;
  const madeDirs: string[] = [];
  /** Removes the temporaries and the directories made for them. */
  const cleanUp = async () => {
    await Promise.all(files.map((f) => rm(tmp(f.path), { force: true }).catch(() => undefined)));
    for (const dir of madeDirs.reverse()) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  };
  try {
    for (const made of await Promise.all([...new Set(files.map((f) => dirname(f.path)))].map((dir) => mkdir(dir, { recursive: true })))) if (made) madeDirs.push(made);
    await allSettledOrThrow(files.map((f) => writeFile(tmp(f.path), f.data)));
  } catch (err) {
    await cleanUp();
    throw err;
  }
  // What a rollback puts back: a replaced file's bytes; a content-named file (sitetags.HASH.min.js) that was there holds these very bytes, so it stays.
  const befores = await Promise.all(files.map((f): Promise<Buffer | "same" | undefined> => (f.named ? access(f.path).then(() => "same" as const, () => undefined) : readFile(f.path).catch(() => undefined))));
  const renamed: Array<{ path: string; before: Buffer | "same" | undefined }> = [];
  const put = (i: number) => rename(tmp(files[i].path), files[i].path).then(() => void renamed.push({ path: files[i].path, before: befores[i] }));
  try {
    // All but the last (the manifest) at once, then the last.
    await allSettledOrThrow(files.slice(0, -1).map((_, i) => put(i)));
    if (files.length) await put(files.length - 1);
  } catch (err) {
    for (const r of renamed.reverse()) {
      if (r.before === "same") continue;
      await (r.before ? writeFile(r.path, r.before) : rm(r.path, { force: true })).catch(() => undefined);
    }
    await cleanUp();
    throw err;
  }
}

/** Waits for every promise (none is left running), then throws the first failure, if any. */
async function allSettledOrThrow(promises: Array<Promise<unknown>>): Promise<void> {
  const failed = (await Promise.allSettled(promises)).find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}

/** Removes hashed files no manifest entry names, and bundles of sites that left the catalogue. */
async function prune(outDir: string, manifest: Manifest, previous: Manifest) {
  const keep = new Set(manifest.bundles.flatMap((b) => [b.file, b.alias]));
  const dirs = new Set([...manifest.bundles, ...previous.bundles].map((b) => `${b.env}/${b.site}`));
  for (const dir of dirs) {
    let names: string[];
    try {
      names = await readdir(join(outDir, dir));
    } catch {
      continue;
    }
    for (const name of names) {
      if (/^sitetags\.([0-9a-f]{10}\.)?min\.js$/.test(name) && !keep.has(`${dir}/${name}`)) await rm(join(outDir, dir, name), { force: true });
    }
  }
}

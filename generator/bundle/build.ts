/**
 * The build, in the README's steps: the catalogue (config/) -> the plan
 * (plan.ts) -> the typed entries and the compiled pieces (compile.ts: rollup
 * and terser once per runtime piece, on worker threads) -> the bundles linked
 * from the pieces and the inlined config (link.ts) -> dist/ and the manifest
 * (manifest.ts, write.ts). Incremental (unchanged inputs are reused),
 * deterministic (no timestamps; sorted manifest) and atomic (nothing is
 * written unless every bundle succeeded).
 */
import { loadCatalogueCached, writeIndexOfParts } from "../config/cached-load.js";
import type { Catalogue, ResolvedBundle } from "../config/catalogue.js";
import { availableParallelism } from "node:os";
import { sortDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import { DIAGNOSTICS } from "../diagnostics/diagnostics.js";
import { compareText } from "../compare-text.js";
import { cachedPieces, compilePieces, piecesCachedFor } from "./compile.js";
import { runtimeChange, stableStringify, takeRuntimeSnapshot } from "./hash.js";
import { linkBundle, linkBundles, type BundleReport } from "./link.js";
import { nextManifest, readManifest, type Manifest } from "./manifest.js";
import { defaultPaths, packageRoot } from "./paths.js";
import { basename, join } from "node:path";
import { coreOf, inputsHashOf, MODULE_NAMES, piecesOf, rememberCores, planBundles, selectBundles, usageDiagnostics, type Selection } from "./plan.js";
import { commitDist, createStaging } from "./write.js";
import { readModuleBytes, writeModuleBytes } from "./module-bytes.js";
import { takeStampedManifest, takeStampInputsKey, writeStamp } from "./stamp.js";

export { commitFiles } from "./write.js";
export { inlineConfig, linkBundle, type BundleReport } from "./link.js";
export { COMPILE_HINT } from "./compile-hint.js";
export { readManifest, type Manifest, type ManifestEntry, type ShardInfo } from "./manifest.js";
export { hasDevChecks, inputsHashOf, MODULE_NAMES, selectBundles } from "./plan.js";

export interface BuildOptions extends Selection {
  sitesDir?: string;
  outDir?: string;
  cacheDir?: string;
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
  /** Milliseconds spent in each phase, in order (for the benchmark's profile; README "Where a build's time goes"). */
  phases: Record<string, number>;
  /** The process's peak resident memory (MB) at the end of each phase of `phases`. */
  peaks?: Record<string, number>;
  /** CPU time (user + system, every thread of the process) spent in each phase of `phases`, ms. */
  cpuMs?: Record<string, number>;
}

export { defaultPaths } from "./paths.js";

const byBundle = (a: { site: string; env: string }, b: { site: string; env: string }) => compareText(a.site, b.site) || compareText(a.env, b.env);

export async function build(options: BuildOptions = {}): Promise<BuildResult> {
  const started = performance.now();
  const defaults = defaultPaths();
  const sitesDir = options.sitesDir ?? defaults.sitesDir;
  const outDir = options.outDir ?? defaults.outDir;
  const cacheDir = options.cacheDir ?? defaults.cacheDir;
  const root = options.root ?? packageRoot();
  const phases: Record<string, number> = {};
  const peaks: Record<string, number> = {};
  const cpuMs: Record<string, number> = {};
  let mark = started;
  let cpuMark = process.cpuUsage();
  const phase = (name: string) => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    phases[name] = Math.round(now - mark);
    cpuMs[name] = Math.round((cpu.user - cpuMark.user + cpu.system - cpuMark.system) / 1000);
    peaks[name] = Math.round(process.resourceUsage().maxRSS / 1024);
    mark = now;
    cpuMark = cpu;
  };
  const result: BuildResult = { ok: false, exitCode: 1, diagnostics: [], bundles: [], built: 0, reused: 0, piecesCompiled: 0, timeMs: 0, phases, peaks, cpuMs };
  // Warnings of the configuration go with every result; they fail nothing.
  let warnings: Diagnostic[] = [];
  const done = (r: BuildResult) => ({
    ...r,
    diagnostics: warnings.length ? sortDiagnostics([...warnings, ...r.diagnostics]) : r.diagnostics,
    timeMs: Math.round(performance.now() - started),
  });

  // The stamp's key of the inputs as they are before anything is read: a file that changes while the build runs is not stamped as built (stamp.ts).
  const stampInput = { root, sitesDir, outDir, cacheDir, sites: options.sites, envs: options.envs };
  const stamping = !options.dryRun && !options.shard;
  let stampInputs: string | undefined;
  try {
    stampInputs = stamping ? takeStampInputsKey(stampInput) : undefined;
  } catch {
    stampInputs = undefined;
  }
  // The manifest as the CLI's replay found it a moment ago, every file it names present (stamp.ts), else read below.
  const stampedManifest = takeStampedManifest(stampInput);

  // 1. Config: each unchanged site file's outcome from the cache. The runtime's files as they are hashed (taken here, or by the CLI a moment
  // ago: generator/cli/child.ts): the build checks them again before it caches pieces (compile.ts) and before it writes dist/ (below), so
  // that what it writes is what it hashed (README "Incremental").
  const snapshot = takeRuntimeSnapshot(root);
  const runtimeHash = snapshot.hash;
  const configOptions = {
    sitesDir,
    moduleNames: MODULE_NAMES,
    cacheDir,
    generatorHash: runtimeHash,
    inputsHashOf: (bundle: ResolvedBundle) => inputsHashOf(runtimeHash, bundle),
    coreOf,
    root,
  };
  // A build that will compile the runtime (no pieces for this runtime yet: a cold build, or the runtime changed, so every config entry misses
  // too) parses the catalogue on threads of their own, a part of the site files each, one per core (issue #21: at 600 sites one thread took
  // 9 s while the other core waited), which fill the config cache; this thread writes the catalogue index from their lines and then reads
  // the catalogue from the cache, without the parse's heap beside the compile's threads (issue #21: peak memory). A part that is not clean
  // is loaded here again, as always.
  if (!piecesCachedFor(cacheDir, runtimeHash))
    await import("./pool.js")
      .then(({ loadConfigInWorkers }) => loadConfigInWorkers({ sitesDir, cacheDir, root, runtimeHash }, options.workers ?? availableParallelism()))
      .then((parts) => (parts.length ? writeIndexOfParts(configOptions, parts) : undefined))
      .catch(() => undefined);
  const { catalogue, inputsHashes, cores } = await loadCatalogueCached(configOptions);
  // A cached bundle's core is known without reading its config (config/cached-load.ts).
  rememberCores(cores);
  result.catalogue = catalogue;
  phase("config");
  if (catalogue.diagnostics.some((d) => d.severity === "error")) return done({ ...result, diagnostics: catalogue.diagnostics });
  warnings = catalogue.diagnostics;
  const usage = usageDiagnostics(catalogue, options);
  if (usage.length) return done({ ...result, diagnostics: usage });

  // 2. Plan: which bundles can be reused as they are, which pieces need compiling.
  const selected = selectBundles(catalogue.bundles, options);
  const handed = stamping && !options.force ? stampedManifest : undefined;
  const previous = options.force ? { bundles: [] } : (handed ?? (await readManifest(outDir)));
  const plan = planBundles(selected, runtimeHash, previous, outDir, inputsHashes, handed !== undefined);
  const { set, missing } = await cachedPieces(plan, { cacheDir, runtimeHash });
  // A reused bundle's bytes per piece: recorded by the build that linked it (same inputsHash, same bytes), else measured by linking it again.
  const knownBytes = await readModuleBytes(cacheDir);
  const reports: BundleReport[] = plan.reused.map(({ bundle, old }) => ({
    ...old,
    status: "reused",
    budgetGzipBytes: bundle.budgetGzipBytes,
    moduleBytes: knownBytes.get(old.inputsHash) ?? (piecesOf(bundle).every((p) => set.pieces.has(p)) ? linkBundle(set, bundle).moduleBytes : {}),
    moduleSources: bundle.moduleSources,
  }));
  const total = plan.toBuild.length + missing.size;
  let progress = 0;
  const tick = (label: string) => options.onProgress?.({ done: Math.min(total, ++progress), total, label });
  phase("plan");

  // 3-4. Entries and pieces: from the cache, or compiled.
  if (missing.size) {
    const compiled = await compilePieces(missing, plan.toBuild, set, {
      root,
      cacheDir,
      runtimeHash,
      snapshot,
      workers: options.workers,
      onPiece: tick,
      phase,
    });
    result.piecesCompiled = compiled.compiled;
    if (compiled.diagnostics.length) return done({ ...result, exitCode: 3, diagnostics: compiled.diagnostics });
    phase("pieces");
  }

  // 5. Link: the pieces and the config, hashed, measured and checked; each bundle staged beside its target as soon as it is linked (write.ts).
  const staging = createStaging();
  let stageError: Error | undefined;
  // A deferred file's name holds its content hash (deferred.ts): the first bundle to name it writes it, every other bundle's copy is staged
  // as a hard link of that one (write.ts); the alias likewise of the bundle's hashed file (issue #21: at 600 sites, 4,560 of the 6,840
  // files written were these copies).
  const deferredStaged = new Map<string, { path: string; staged: Promise<void> }>();
  const stageDeferred = async (path: string, code: string) => {
    const first = deferredStaged.get(basename(path));
    if (!first) {
      const staged = staging.stage(path, code, true);
      deferredStaged.set(basename(path), { path, staged });
      return staged;
    }
    await first.staged.catch(() => undefined);
    return staging.stage(path, code, true, first.path);
  };
  const emit = options.dryRun
    ? undefined
    : async (report: BundleReport, code: Buffer, deferredCode?: string) => {
        if (stageError) return;
        try {
          const file = join(outDir, report.file);
          await Promise.all([
            // The deferred file the first one names.
            ...(report.deferred && deferredCode !== undefined ? [stageDeferred(join(outDir, report.deferred.file), deferredCode)] : []),
            staging.stage(file, code, true).then(() => staging.stage(join(outDir, report.alias), code, false, file)),
          ]);
        } catch (err) {
          stageError ??= err as Error;
        }
      };
  const { outputs, diagnostics, spent } = await linkBundles(plan.toBuild, set, tick, cacheDir, emit, { threads: options.workers });
  reports.push(...outputs.map((o) => o.report));
  if (diagnostics.length) {
    await staging.abort();
    return done({ ...result, exitCode: 3, diagnostics, bundles: reports });
  }
  phase("bundles");
  // Where the bundles' wall time went, summed over the bundles in flight together (so more than the phase's wall time): linking, compressing, staging.
  for (const [name, ms] of Object.entries(spent)) phases[`bundles:${name}`] = Math.round(ms);

  // A runtime source written since the build hashed it: the bundles came from the pieces of the runtime before the write, which a reader of
  // dist/ would take for the runtime now. Nothing is written (issue #21 "stale": a build must not write the bundles of a runtime that changed
  // while it ran); the next build compiles the sources as they are then.
  const changedInput = runtimeChange(root, snapshot);
  if (changedInput !== undefined) {
    await staging.abort();
    return done({ ...result, exitCode: 3, diagnostics: [DIAGNOSTICS.inputsChanged(changedInput, "ran")], bundles: reports });
  }
  phase("check");
  // Write: bundles first (new names), then the manifest, then prune.
  const entries = reports.map(({ status: _s, budgetGzipBytes: _b, moduleBytes: _m, moduleSources: _ms, ...entry }) => entry);
  const { manifest, kept } = nextManifest({ catalogue, previous, entries, selected, selection: options, runtimeHash });
  const changed = outputs.length > 0 || stableStringify(manifest) !== stableStringify(previous);
  phase("manifest");
  if (!options.dryRun && changed) {
    try {
      if (stageError) throw stageError;
      await commitDist(staging, outDir, manifest, options.shard ? { bundles: previous.bundles.filter((b) => kept.has(`${b.site}/${b.env}`)) } : previous, () =>
        phase("commit"),
      );
    } catch (err) {
      await staging.abort();
      return done({ ...result, exitCode: 3, diagnostics: [DIAGNOSTICS.writeFailed((err as Error).message)] });
    }
    phase("prune");
  }
  await writeModuleBytes(cacheDir, knownBytes, reports, manifest);
  reports.sort(byBundle);
  phase("module-bytes");
  // What a rebuild with nothing changed would give, for the CLI to print without building (stamp.ts).
  if (stampInputs !== undefined) await writeStamp(stampInput, { diagnostics: warnings.length ? sortDiagnostics(warnings) : [], bundles: reports }, stampInputs);
  phase("stamp");
  return done({ ...result, ok: true, exitCode: 0, bundles: reports, built: outputs.length, reused: reports.length - outputs.length, manifest });
}

/**
 * Step 2 of the build, the plan: which bundles the selection holds, which of
 * them can be reused as they are (their inputs match the manifest), and which
 * compiled pieces each bundle is linked from.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Catalogue, ResolvedBundle } from "../config/load.js";
import { MODULE_NAMES } from "../config/module-names.js";
import { ENV_NAMES } from "../config/constants.js";
import { nearest } from "../config/nearest.js";
import { compareText } from "../compare-text.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { DIAGNOSTICS } from "../diagnostics/diagnostics.js";
import { featureKeyOf, featureSetOf } from "./features.js";
import { sha256, stableStringify } from "./hash.js";
import type { Manifest, ManifestEntry } from "./manifest.js";
import { DEFERRED_PIECE } from "./deferred.js";

export { MODULE_NAMES };

/** How the command line narrows the build. */
export interface Selection {
  /** Narrow to these site codes. */
  sites?: string[];
  /** Narrow to these environments. */
  envs?: string[];
  /** 1-based slice I of N of the sorted bundle list. */
  shard?: { index: number; count: number };
}

/** Non-production bundles carry the data-layer push checks; production bundles skip them and their code. */
export function hasDevChecks(bundle: Pick<ResolvedBundle, "env">): boolean {
  return bundle.env !== "prod";
}

/** A module set with or without the checks: the typed entry written for it (entries/KEY.ts). */
export function shapeKeyOf(runtimeHash: string, bundle: ResolvedBundle): string {
  return sha256(`${runtimeHash}\0${bundle.modules.join(",")}\0${hasDevChecks(bundle) ? "dev" : "prod"}`).slice(0, 16);
}

/** Cores known without reading the bundle's config: the config cache's (rememberCores). */
const knownCores = new WeakMap<object, string>();

/** Records the cores the config cache kept with its bundles, so that coreOf need not read a reused bundle's config (config/cached-load.ts). */
export function rememberCores(cores: ReadonlyMap<ResolvedBundle, string>): void {
  for (const [bundle, core] of cores) knownCores.set(bundle, core);
}

/** The core piece a bundle is linked from: "core.KEY", one per feature set of rule conditions, actions and event sources (features.ts). */
export function coreOf(bundle: Pick<ResolvedBundle, "config">): string {
  return knownCores.get(bundle) ?? `core.${featureKeyOf(featureSetOf(bundle.config))}`;
}

/** Whether a piece name is a core (coreOf). */
export const isCore = (name: string): boolean => name.startsWith("core.");

/** A compiled piece (a core, "devChecks" or a module name) of this runtime. */
export function pieceKeyOf(runtimeHash: string, name: string): string {
  return sha256(`${runtimeHash}\0piece\0${name}`).slice(0, 16);
}

/** Pieces a bundle is linked from. */
export function piecesOf(bundle: ResolvedBundle): string[] {
  return [coreOf(bundle), ...bundle.modules, ...(hasDevChecks(bundle) ? ["devChecks"] : []), DEFERRED_PIECE.name];
}

export function selectBundles(all: ResolvedBundle[], options: Selection): ResolvedBundle[] {
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

/** Unknown sites or environments on the command line (with a suggestion for a typo). */
export function usageDiagnostics(catalogue: Catalogue, options: Selection): Diagnostic[] {
  const out: Diagnostic[] = [];
  const codes = new Set(catalogue.bundles.map((b) => b.site));
  for (const site of options.sites ?? []) if (!codes.has(site)) out.push(DIAGNOSTICS.unknownSite(site, nearest(site, [...codes])));
  // An unknown site says it all: its environments cannot be checked.
  if (out.length) return out;
  const envs = new Set<string>(catalogue.bundles.filter((b) => !options.sites?.length || options.sites.includes(b.site)).map((b) => b.env));
  // A suggestion only for a name that is no environment at all ("prd"): "oat" on a site without it is no typo.
  for (const env of options.envs ?? [])
    if (!envs.has(env)) out.push(DIAGNOSTICS.unknownEnvOption(env, (ENV_NAMES as readonly string[]).includes(env) ? undefined : nearest(env, [...envs])));
  return out;
}

export interface Plan {
  toBuild: Array<{ bundle: ResolvedBundle; inputsHash: string }>;
  reused: Array<{ bundle: ResolvedBundle; old: ManifestEntry }>;
}

/**
 * Which selected bundles are reused as they are (same inputs as the manifest's entry, files present) and which are built. `known`:
 * inputsHashes already computed (the config cache's). `filesPresent`: every file `previous` names was found a moment ago (the CLI's replay,
 * stamp.ts takeStampedManifest), so they are not looked for again.
 */
export function planBundles(
  selected: ResolvedBundle[],
  runtimeHash: string,
  previous: Manifest,
  outDir: string,
  known?: ReadonlyMap<ResolvedBundle, string>,
  filesPresent = false,
): Plan {
  const previousByKey = new Map(previous.bundles.map((b) => [`${b.site}/${b.env}`, b]));
  const plan: Plan = { toBuild: [], reused: [] };
  for (const bundle of selected) {
    const inputsHash = known?.get(bundle) ?? inputsHashOf(runtimeHash, bundle);
    const old = previousByKey.get(`${bundle.site}/${bundle.env}`);
    if (
      old &&
      old.inputsHash === inputsHash &&
      (filesPresent ||
        (existsSync(join(outDir, old.file)) && existsSync(join(outDir, old.alias)) && (!old.deferred || existsSync(join(outDir, old.deferred.file)))))
    )
      plan.reused.push({ bundle, old });
    else plan.toBuild.push({ bundle, inputsHash });
  }
  return plan;
}

/**
 * `sitetags promote --from s3://… --to s3://…`: moves a published release's
 * bytes to another target (staging to production) without a rebuild: every
 * object is read from the source, checked against the release's integrity
 * and written to the target, in the order of release.ts. With --from-env and --to-env it moves one
 * environment's bundles to another environment's names.
 *
 * It promotes a bundle only when the configuration says the target
 * environment builds that very bundle: the inputsHash the current catalogue,
 * runtime and toolchain give for SITE x target environment must be the one
 * the source's bundle was built from. Otherwise it refuses, with the reason:
 * the keys in which the two environments' configurations differ, or that
 * the configuration changed since the source was built.
 */
import { computeRuntimeHash, stableStringify } from "../bundle/hash.js";
import { hasDevChecks, inputsHashOf, type ManifestEntry } from "../bundle/build.js";
import { packageRoot } from "../bundle/paths.js";
import type { ResolvedBundle } from "../config/load.js";
import { DIAGNOSTICS, type DiagnosticBody } from "../diagnostics/diagnostics.js";
import { applyPlan, entryKey, manifestText, readRelease, readRemoteManifest, releaseIdOf, type Item } from "./release.js";
import { emptyReport, loadPublishing, nextManifest, selects, withReport, type CommonOptions, type PublishReport } from "./publish.js";
import { aliasesTowards } from "./rollback.js";
import { keyOf, parseTarget } from "./target.js";

export interface PromoteOptions extends CommonOptions {
  from: string;
  to: string;
  /** A release of the source (default: the one it serves). */
  release?: string;
  /** Promote this environment's bundles… */
  fromEnv?: string;
  /** …as this environment's (both or neither). */
  toEnv?: string;
  /** The package root whose runtime decides inputsHash (tests point it at a copy). */
  root?: string;
}

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Dotted keys (two levels deep) in which two resolved configurations differ. */
export function differingKeys(a: unknown, b: unknown, prefix = "", depth = 2): string[] {
  if (stableStringify(a) === stableStringify(b)) return [];
  if (depth === 0 || !isPlain(a) || !isPlain(b)) return [prefix || "(the whole configuration)"];
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.flatMap((k) => differingKeys(a[k], b[k], prefix ? `${prefix}.${k}` : k, depth - 1));
}

/** Why `bundle` (of the target environment) is not the bundle `entry` holds; undefined when it is. */
function refusal(
  entry: ManifestEntry,
  bundle: ResolvedBundle | undefined,
  source: ResolvedBundle | undefined,
  runtimeHash: string,
  toEnv: string,
): DiagnosticBody | undefined {
  if (!bundle) return DIAGNOSTICS.promoteNoBundle(toEnv, entry.site);
  if (inputsHashOf(runtimeHash, bundle) === entry.inputsHash) return undefined;
  if (entry.env !== toEnv && source) {
    const keys = differingKeys(source.config, bundle.config);
    if (hasDevChecks(source) !== hasDevChecks(bundle)) keys.push("the data-layer checks (in non-production bundles only)");
    if (source.budgetGzipBytes !== bundle.budgetGzipBytes) keys.push("budget.gzipBytes");
    return DIAGNOSTICS.promoteDiffers(entry.env, toEnv, entry.site, keys);
  }
  return DIAGNOSTICS.promoteStale(`${entry.env}/${entry.site}`, entry.inputsHash, inputsHashOf(runtimeHash, bundle));
}

export async function promote(options: PromoteOptions): Promise<PublishReport> {
  const loaded = await loadPublishing(options.sitesDir);
  if (!loaded.settings) return { ...emptyReport(options.to, Boolean(options.dryRun)), exitCode: 1, diagnostics: loaded.diagnostics };
  const { settings, catalogue } = loaded;
  const runtimeHash = computeRuntimeHash(options.root ?? packageRoot());
  const bundles = new Map(catalogue.bundles.map((b) => [entryKey(b), b]));
  return withReport(options.to, options, async ({ s3 }, target, report) => {
    const from = parseTarget(options.from);
    const source = options.release ? await readRelease(s3, from, options.release) : await readRemoteManifest(s3, from);
    if (!source)
      return void report.diagnostics.push(options.release ? DIAGNOSTICS.noRelease(from.url, options.release) : DIAGNOSTICS.nothingPublished(from.url));
    const envs = options.fromEnv ? [options.fromEnv] : options.envs;
    const chosen = source.manifest.bundles.filter(selects({ sites: options.sites, envs }));
    if (!chosen.length) return void report.diagnostics.push(DIAGNOSTICS.sourceReleaseEmpty(source.id));
    const rename = (path: string) => (options.toEnv && options.fromEnv ? path.replace(new RegExp(`^${options.fromEnv}/`), `${options.toEnv}/`) : path);
    const promoted: ManifestEntry[] = [];
    for (const entry of chosen) {
      const toEnv = options.toEnv ?? entry.env;
      const why = refusal(entry, bundles.get(`${entry.site}/${toEnv}`), bundles.get(entryKey(entry)), runtimeHash, toEnv);
      if (why) report.diagnostics.push(why);
      promoted.push({
        ...entry,
        env: toEnv,
        file: rename(entry.file),
        alias: rename(entry.alias),
        ...(entry.deferred ? { deferred: { ...entry.deferred, file: rename(entry.deferred.file) } } : {}),
      });
    }
    if (report.diagnostics.length) return;
    const current = await readRemoteManifest(s3, target);
    const there = new Set((current?.manifest.bundles ?? []).flatMap((e) => [e, ...(e.deferred ? [e.deferred] : [])]).map((e) => `${e.file}\0${e.integrity}`));
    const hashed: Item[] = [];
    promoted.forEach((entry, i) => {
      if (there.has(`${entry.file}\0${entry.integrity}`)) report.skipped.push(entry.file);
      else hashed.push({ path: entry.file, integrity: entry.integrity, source: { bucket: from.bucket, key: keyOf(from, chosen[i].file) } });
      // The deferred file the promoted first file names, copied beside it (hashed files go before aliases and the manifest).
      const deferred = entry.deferred;
      const fromDeferred = chosen[i].deferred;
      if (deferred && fromDeferred && !there.has(`${deferred.file}\0${deferred.integrity}`) && !hashed.some((h) => h.path === deferred.file))
        hashed.push({ path: deferred.file, integrity: deferred.integrity, source: { bucket: from.bucket, key: keyOf(from, fromDeferred.file) } });
    });
    const aliases = aliasesTowards(target, current, promoted, report);
    const manifest = nextManifest(current?.manifest, promoted, { sites: options.sites, envs: options.toEnv ? [options.toEnv] : options.envs });
    const text = manifestText(manifest);
    report.written = { hashed: hashed.map((h) => h.path), aliases: aliases.map((a) => a.path), manifest: text !== current?.text };
    report.release = releaseIdOf(text);
    if (options.dryRun) return;
    await applyPlan(s3, { target, hashed, aliases, settings, manifest: report.written.manifest ? manifest : undefined });
  });
}

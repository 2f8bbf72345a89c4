/**
 * `sitetags publish --to s3://BUCKET/PREFIX`: uploads dist/ by its manifest
 * in the order of release.ts, only what the remote manifest does not
 * already have: a hashed file the remote lists is skipped, an alias is
 * rewritten only when its bundle changed, and the manifest (with its
 * release record) only when it differs.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { MODULE_NAMES, readManifest, type Manifest, type ManifestEntry } from "../bundle/build.js";
import { sha384Integrity } from "../bundle/hash.js";
import { loadCatalogue } from "../config/load.js";
import type { PublishingSettings } from "../config/schemas/publishing.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { DIAGNOSTICS } from "../diagnostics/diagnostics.js";
import { applyPlan, entryKey, manifestText, readRemoteManifest, releaseIdOf, sortEntries, type Item } from "./release.js";
import { createClient, parseTarget, type ClientOptions, type CountingClient, type Target } from "./target.js";

export interface PublishReport {
  ok: boolean;
  /** 0 done; 1 invalid configuration; 4 the publish failed (the remote still serves its previous release). */
  exitCode: 0 | 1 | 4;
  diagnostics: Diagnostic[];
  target: string;
  dryRun: boolean;
  /** The release the target serves afterwards (with --dry-run: would serve). */
  release?: string;
  previousRelease?: string;
  /** Objects written (from dist/, or from objects already in the store), by path below the prefix. */
  written: { hashed: string[]; aliases: string[]; manifest: boolean };
  /** Hashed files the target already had. */
  skipped: string[];
  /** Bundles whose alias changes: ENV/SITE, from which hashed file to which. */
  changes: Array<{ bundle: string; from?: string; to: string }>;
  /** HTTP requests sent to the store (retries included). */
  requests: number;
  timeMs: number;
}

export interface CommonOptions extends ClientOptions {
  sitesDir: string;
  dryRun?: boolean;
  /** Narrowing: these sites / environments only (the rest of the remote manifest stays). */
  sites?: string[];
  envs?: string[];
  /** A client to reuse (tests count requests through it). */
  client?: CountingClient;
}

export interface PublishOptions extends CommonOptions {
  to: string;
  outDir: string;
}

export function emptyReport(target: string, dryRun: boolean): PublishReport {
  return {
    ok: false,
    exitCode: 4,
    diagnostics: [],
    target,
    dryRun,
    written: { hashed: [], aliases: [], manifest: false },
    skipped: [],
    changes: [],
    requests: 0,
    timeMs: 0,
  };
}

/** The organisation's publishing settings (sites/_org.yaml), or the configuration's diagnostics. */
export async function loadPublishing(sitesDir: string) {
  const catalogue = await loadCatalogue({ sitesDir, moduleNames: MODULE_NAMES });
  if (catalogue.diagnostics.length || !catalogue.org) return { diagnostics: catalogue.diagnostics, catalogue };
  return { diagnostics: [], catalogue, settings: catalogue.org.publishing as PublishingSettings, apexDomain: catalogue.org.apexDomain };
}

export const selects = (options: Pick<CommonOptions, "sites" | "envs">) => (e: Pick<ManifestEntry, "site" | "env">) =>
  (!options.sites?.length || options.sites.includes(e.site)) && (!options.envs?.length || options.envs.includes(e.env));

/** The manifest after replacing the selected bundles of `remote` with `chosen` (all of remote, without narrowing). */
export function nextManifest(remote: Manifest | undefined, chosen: ManifestEntry[], options: Pick<CommonOptions, "sites" | "envs">): Manifest {
  const narrowed = Boolean(options.sites?.length || options.envs?.length);
  const keep = narrowed ? (remote?.bundles ?? []).filter((e) => !selects(options)(e) && !chosen.some((c) => entryKey(c) === entryKey(e))) : [];
  return { bundles: sortEntries([...keep, ...chosen]) };
}

/** Runs a plan-and-apply step with the report's bookkeeping: timing, requests, failures as exit 4. */
export async function withReport(
  target: string,
  options: CommonOptions,
  body: (client: CountingClient, t: Target, report: PublishReport) => Promise<void>,
): Promise<PublishReport> {
  const started = performance.now();
  const report = emptyReport(target, Boolean(options.dryRun));
  const client = options.client ?? createClient(options);
  const before = client.requests();
  try {
    await body(client, parseTarget(target), report);
    if (!report.diagnostics.length) Object.assign(report, { ok: true, exitCode: 0 });
  } catch (err) {
    report.diagnostics.push(DIAGNOSTICS.publishFailed(err as Error));
  } finally {
    if (!options.client) client.s3.destroy();
  }
  report.requests = client.requests() - before;
  report.timeMs = Math.round(performance.now() - started);
  if (!report.ok && report.exitCode === 0) report.exitCode = 4;
  return report;
}

export async function publish(options: PublishOptions): Promise<PublishReport> {
  const loaded = await loadPublishing(options.sitesDir);
  if (!loaded.settings) return { ...emptyReport(options.to, Boolean(options.dryRun)), exitCode: 1, diagnostics: loaded.diagnostics };
  const settings = loaded.settings;
  return withReport(options.to, options, async ({ s3 }, target, report) => {
    const local = await readManifest(options.outDir);
    if ((local as { shard?: unknown }).shard) return void report.diagnostics.push(DIAGNOSTICS.partialDist(options.outDir));
    const chosen = local.bundles.filter(selects(options));
    if (!chosen.length)
      return void report.diagnostics.push(
        DIAGNOSTICS.nothingToPublish(join(options.outDir, "manifest.json"), Boolean(options.sites?.length || options.envs?.length)),
      );
    const remote = await readRemoteManifest(s3, target);
    report.previousRelease = remote?.id;
    const remoteFiles = new Set(
      (remote?.manifest.bundles ?? []).flatMap((e) => [e, ...(e.deferred ? [e.deferred] : [])]).map((e) => `${e.file}\0${e.integrity}`),
    );
    const remoteByKey = new Map((remote?.manifest.bundles ?? []).map((e) => [entryKey(e), e]));
    const hashed: Item[] = [];
    const aliases: Item[] = [];
    for (const entry of chosen) {
      const current = remoteByKey.get(entryKey(entry));
      const changed = current?.file !== entry.file || current.integrity !== entry.integrity;
      const upload = !remoteFiles.has(`${entry.file}\0${entry.integrity}`);
      if (!upload) report.skipped.push(entry.file);
      if (changed) report.changes.push({ bundle: `${entry.env}/${entry.site}`, ...(current ? { from: current.file } : {}), to: entry.file });
      if (!upload && !changed) continue;
      const data = await readFile(join(options.outDir, entry.file));
      if (sha384Integrity(data) !== entry.integrity) return void report.diagnostics.push(DIAGNOSTICS.distMismatch(join(options.outDir, entry.file)));
      if (upload) hashed.push({ path: entry.file, integrity: entry.integrity, source: { data } });
      // The deferred file the first file names (hashed, immutable): uploaded with the hashed files, before any alias or manifest names it.
      const deferred = entry.deferred;
      if (deferred && !remoteFiles.has(`${deferred.file}\0${deferred.integrity}`) && !hashed.some((i) => i.path === deferred.file)) {
        const bytes = await readFile(join(options.outDir, deferred.file));
        if (sha384Integrity(bytes) !== deferred.integrity) return void report.diagnostics.push(DIAGNOSTICS.distMismatch(join(options.outDir, deferred.file)));
        hashed.push({ path: deferred.file, integrity: deferred.integrity, source: { data: bytes } });
      }
      if (changed) aliases.push({ path: entry.alias, integrity: entry.integrity, source: { data } });
    }
    const manifest = nextManifest(remote?.manifest, chosen, options);
    const text = manifestText(manifest);
    const plan = { target, hashed, aliases, settings, manifest: text === remote?.text ? undefined : manifest };
    report.written = { hashed: hashed.map((i) => i.path), aliases: aliases.map((i) => i.path), manifest: Boolean(plan.manifest) };
    if (options.dryRun) {
      report.release = plan.manifest ? releaseIdOf(text) : remote?.id;
      return;
    }
    report.release = (await applyPlan(s3, plan)) ?? remote?.id;
  });
}

/**
 * `sitetags releases` and `sitetags rollback --to RELEASE`. A rollback
 * rebuilds nothing and needs no dist/: the release's hashed files are still
 * in the store (a publish never deletes one), so each alias that differs
 * gets its release's hashed file's bytes (read from the store and checked
 * against the release's integrity), then the release's record becomes the
 * manifest again.
 */
import { listObjects } from "./remote.js";
import { DIAGNOSTICS } from "../diagnostics/diagnostics.js";
import { applyPlan, entryKey, readRelease, readRemoteManifest, RELEASES_DIR, type Item, type RemoteRelease } from "./release.js";
import { loadPublishing, emptyReport, withReport, type CommonOptions, type PublishReport } from "./publish.js";
import { createClient, keyOf, parseTarget, type ClientOptions, type CountingClient, type Target } from "./target.js";

export interface ReleaseInfo {
  id: string;
  /** When the store wrote the record (its clock, not ours). */
  lastModified?: string;
  bundles: number;
  current: boolean;
}

/** The target's releases, newest first (by the store's time), the current one marked. */
export async function listReleases(options: ClientOptions & { to: string; client?: CountingClient }): Promise<{ releases: ReleaseInfo[]; requests: number }> {
  const client = options.client ?? createClient(options);
  const before = client.requests();
  try {
    const target = parseTarget(options.to);
    const [current, objects] = await Promise.all([
      readRemoteManifest(client.s3, target),
      listObjects(client.s3, target.bucket, keyOf(target, `${RELEASES_DIR}/`)),
    ]);
    const ids = objects.flatMap((o) => {
      const m = /\/?([0-9a-f]{12})\.json$/.exec(o.key);
      return m ? [{ id: m[1], lastModified: o.lastModified }] : [];
    });
    ids.sort((a, b) => (b.lastModified?.getTime() ?? 0) - (a.lastModified?.getTime() ?? 0) || (a.id < b.id ? -1 : 1));
    const releases = await Promise.all(
      ids.map(async ({ id, lastModified }) => ({
        id,
        ...(lastModified ? { lastModified: lastModified.toISOString() } : {}),
        bundles: (await readRelease(client.s3, target, id))?.manifest.bundles.length ?? 0,
        current: id === current?.id,
      })),
    );
    return { releases, requests: client.requests() - before };
  } finally {
    if (!options.client) client.s3.destroy();
  }
}

/** The aliases to point at `wanted`'s hashed files (copies inside the target), against what `target` serves now. */
export function aliasesTowards(
  target: Target,
  current: RemoteRelease | undefined,
  wanted: Array<{ site: string; env: string; file: string; alias: string; integrity: string }>,
  report: PublishReport,
): Item[] {
  report.previousRelease = current?.id;
  const byKey = new Map((current?.manifest.bundles ?? []).map((e) => [entryKey(e), e]));
  const items: Item[] = [];
  for (const entry of wanted) {
    const now = byKey.get(entryKey(entry));
    if (now?.file === entry.file && now.integrity === entry.integrity) continue;
    report.changes.push({ bundle: `${entry.env}/${entry.site}`, ...(now ? { from: now.file } : {}), to: entry.file });
    items.push({ path: entry.alias, integrity: entry.integrity, source: { bucket: target.bucket, key: keyOf(target, entry.file) } });
  }
  return items;
}

export async function rollback(options: CommonOptions & { to: string; release: string }): Promise<PublishReport> {
  const loaded = await loadPublishing(options.sitesDir);
  if (!loaded.settings) return { ...emptyReport(options.to, Boolean(options.dryRun)), exitCode: 1, diagnostics: loaded.diagnostics };
  const settings = loaded.settings;
  return withReport(options.to, options, async ({ s3 }, target, report) => {
    const release = await readRelease(s3, target, options.release);
    if (!release) return void report.diagnostics.push(DIAGNOSTICS.noReleaseListed(target.url, options.release));
    const aliases = aliasesTowards(target, await readRemoteManifest(s3, target), release.manifest.bundles, report);
    report.release = release.id;
    report.written = { hashed: [], aliases: aliases.map((a) => a.path), manifest: release.id !== report.previousRelease };
    if (options.dryRun) return;
    await applyPlan(s3, { target, hashed: [], aliases, settings, manifest: report.written.manifest ? release.manifest : undefined });
  });
}

/**
 * Releases and the order that keeps a published prefix consistent.
 *
 * Layout below s3://BUCKET/PREFIX (the CDN serves it as the base URL):
 *   ENV/SITE/sitetags.HASH.min.js   immutable, content-addressed, never deleted
 *   ENV/SITE/sitetags.min.js        the alias: the current release's bytes
 *   releases/RELEASE.json           immutable release record: the manifest as published
 *   manifest.json                   the current release's manifest (the same bytes)
 *
 * RELEASE is the first 12 hex digits of the sha256 of the manifest's bytes.
 * Every change goes in the same order: the hashed files first; the aliases
 * only when all of them are there; then the release record; the manifest
 * last. A failure at any point leaves the aliases and the manifest of the
 * previous release (or, mid-way through the aliases, a mix of the two
 * releases' bytes, each a complete bundle), and running again completes it.
 */
import type { S3Client } from "@aws-sdk/client-s3";
import type { Manifest, ManifestEntry } from "../bundle/build.js";
import { compareText } from "../compare-text.js";
import { sha256, sha384Integrity } from "../bundle/hash.js";
import { IMMUTABLE_CACHE_CONTROL, type PublishingSettings } from "../config/schemas/publishing.js";
import { CONTENT_TYPE_JS, CONTENT_TYPE_JSON, getObject, putObject, RemoteError, runLimited } from "./remote.js";
import { keyOf, type Target } from "./target.js";

export const MANIFEST_PATH = "manifest.json";
export const RELEASES_DIR = "releases";
/** Uploads in flight at once. */
export const CONCURRENCY = 16;

export const manifestText = (manifest: Manifest) => `${JSON.stringify({ bundles: manifest.bundles }, null, 2)}\n`;
export const releaseIdOf = (text: string) => sha256(text).slice(0, 12);
export const releasePath = (id: string) => `${RELEASES_DIR}/${id}.json`;
export const sortEntries = (entries: ManifestEntry[]) => [...entries].sort((a, b) => compareText(a.site, b.site) || compareText(a.env, b.env));
export const entryKey = (e: Pick<ManifestEntry, "site" | "env">) => `${e.site}/${e.env}`;

export interface RemoteRelease {
  manifest: Manifest;
  text: string;
  id: string;
}

function parseManifest(text: string, where: string): Manifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new RemoteError(`${where} is not JSON`);
  }
  const bundles = (parsed as Manifest | null)?.bundles;
  if (!Array.isArray(bundles)) throw new RemoteError(`${where} holds no "bundles" list`);
  return { bundles };
}

/** The target's current manifest (undefined: nothing published yet). */
export async function readRemoteManifest(s3: S3Client, target: Target): Promise<RemoteRelease | undefined> {
  const data = await getObject(s3, target.bucket, keyOf(target, MANIFEST_PATH));
  if (!data) return undefined;
  const text = data.toString("utf8");
  return { manifest: parseManifest(text, `${target.url}/${MANIFEST_PATH}`), text, id: releaseIdOf(text) };
}

/** A release record of the target (undefined: no such release). */
export async function readRelease(s3: S3Client, target: Target, id: string): Promise<RemoteRelease | undefined> {
  const data = await getObject(s3, target.bucket, keyOf(target, releasePath(id)));
  if (!data) return undefined;
  const text = data.toString("utf8");
  if (releaseIdOf(text) !== id) throw new RemoteError(`${target.url}/${releasePath(id)} does not hash to its release id`);
  return { manifest: parseManifest(text, `${target.url}/${releasePath(id)}`), text, id };
}

/** Where an object's bytes come from: local bytes, or an object of the store (read, checked, uploaded under the new name). */
export type Source = { data: Uint8Array } | { bucket: string; key: string };

export interface Item {
  /** Path below the target's prefix. */
  path: string;
  integrity: string;
  source: Source;
}

export interface ApplyPlan {
  target: Target;
  hashed: Item[];
  aliases: Item[];
  /** The manifest to publish; undefined when it is already the target's. */
  manifest?: Manifest;
  settings: PublishingSettings;
}

/**
 * Places an item: local bytes are uploaded; an object of the store is read
 * and its bytes checked against the manifest's SHA-384 integrity (the very
 * hash the browser checks) before they are uploaded under the new name. (A
 * server-side copy would save the download, but its answer cannot be
 * checked everywhere: s3rver, for one, answers a copy over an existing
 * object with the overwritten object's ETag.)
 */
async function place(s3: S3Client, target: Target, item: Item, cacheControl: string) {
  let data: Uint8Array;
  if ("data" in item.source) data = item.source.data;
  else {
    const fetched = await getObject(s3, item.source.bucket, item.source.key);
    if (!fetched) throw new RemoteError(`s3://${item.source.bucket}/${item.source.key} is missing: it holds ${item.path}'s bytes`);
    if (sha384Integrity(fetched) !== item.integrity)
      throw new RemoteError(`s3://${item.source.bucket}/${item.source.key} does not match the manifest's integrity ${item.integrity}`);
    data = fetched;
  }
  await putObject(s3, target.bucket, keyOf(target, item.path), data, { contentType: CONTENT_TYPE_JS, cacheControl, integrity: item.integrity });
}

/** Applies a plan in the safe order. Returns the release id published (if the manifest changed). */
export async function applyPlan(s3: S3Client, plan: ApplyPlan): Promise<string | undefined> {
  await runLimited(plan.hashed, CONCURRENCY, (item) => place(s3, plan.target, item, IMMUTABLE_CACHE_CONTROL));
  await runLimited(plan.aliases, CONCURRENCY, (item) => place(s3, plan.target, item, plan.settings.aliasCacheControl));
  if (!plan.manifest) return undefined;
  const text = manifestText(plan.manifest);
  const id = releaseIdOf(text);
  const data = Buffer.from(text);
  await putObject(s3, plan.target.bucket, keyOf(plan.target, releasePath(id)), data, { contentType: CONTENT_TYPE_JSON, cacheControl: IMMUTABLE_CACHE_CONTROL });
  await putObject(s3, plan.target.bucket, keyOf(plan.target, MANIFEST_PATH), data, {
    contentType: CONTENT_TYPE_JSON,
    cacheControl: plan.settings.manifestCacheControl,
  });
  return id;
}

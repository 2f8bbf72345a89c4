/**
 * A bundle's compressed sizes (gzip -9, brotli -q 5), kept in the build
 * cache by the sha256 of its bytes (sizes/KEY.json): the same bytes always
 * compress to the same sizes, so a rebuild that links identical bytes (a
 * build with --force, a shard or a dry run after a whole build, another
 * output folder on the same cache) skips the compressors. The key holds the
 * compressors' versions and the brotli quality, so a Node with another zlib
 * or brotli, or sizes measured at another quality, are measured again.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { cachedJson, cachedJsonSync, writeAtomic, writeAtomicSync } from "./cache-file.js";

export interface CompressedSizes {
  gzipBytes: number;
  brotliBytes: number;
}

/**
 * The brotli quality of `brotliBytes`: `publish` uploads uncompressed objects, so the CDN compresses on the fly, and it does so at mid
 * qualities, not 11. Quality 5 is about 8 % larger than 11 on a bundle and some 30 times faster (prod/bigfuture: 7 ms against 239 ms).
 */
export const BROTLI_QUALITY = 5;

const COMPRESSORS = `zlib ${process.versions.zlib} brotli ${process.versions.brotli} q${BROTLI_QUALITY}`;

/** The cache file of the sizes of the bytes whose sha256 (hex) is `sha256`. */
const sizesFileOf = (cacheDir: string, sha256: string) =>
  join(cacheDir, "sizes", `${createHash("sha256").update(`${COMPRESSORS}\0${sha256}`).digest("hex").slice(0, 32)}.json`);

/** The cache file of a bundle's sizes (its text or its UTF-8 bytes: the same key). */
export const sizesFile = (cacheDir: string, code: string | Uint8Array) => sizesFileOf(cacheDir, createHash("sha256").update(code).digest("hex"));

const whole = (known: CompressedSizes | undefined): known is CompressedSizes =>
  !!known && Number.isInteger(known.gzipBytes) && Number.isInteger(known.brotliBytes);

/** The sizes of `code`: from the cache, or measured by `measure` and recorded (a failed write is only a missed cache). */
export async function cachedSizes(cacheDir: string, code: string, measure: () => Promise<CompressedSizes>): Promise<CompressedSizes> {
  const file = sizesFile(cacheDir, code);
  const known = await cachedJson<CompressedSizes>(file);
  if (whole(known)) return known;
  const sizes = await measure();
  await writeAtomic(file, JSON.stringify(sizes)).catch(() => undefined);
  return sizes;
}

/**
 * cachedSizes, synchronously (a measuring thread's, measure.ts: synchronous file calls cost a fraction of the CPU of fs/promises' trips
 * through libuv's pool), on the bundle's bytes: the same cache files as cachedSizes. `sha256`: the bytes' sha256 (hex) when the caller has
 * it (measure.ts hashes every bundle anyway: issue #21, a second hash of each of the 600-site catalogue's 2,280 bundles for its key).
 */
export function cachedSizesSync(cacheDir: string, code: Uint8Array, measure: () => CompressedSizes, sha256?: string): CompressedSizes {
  const file = sha256 === undefined ? sizesFile(cacheDir, code) : sizesFileOf(cacheDir, sha256);
  const known = cachedJsonSync<CompressedSizes>(file);
  if (whole(known)) return known;
  const sizes = measure();
  try {
    writeAtomicSync(file, JSON.stringify(sizes));
  } catch {
    // A cache that cannot be written is only slower next time.
  }
  return sizes;
}

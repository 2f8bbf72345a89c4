/**
 * A bundle's compressed sizes (gzip -9, brotli -q 5), kept in the build
 * cache by the sha256 of its bytes (sizes/KEY.json): the same bytes always
 * compress to the same sizes, so a rebuild that links identical bytes (a
 * build with --force, a shard or a dry run after a whole build, another
 * output folder on the same cache) skips the compressors. The key holds the
 * compressors' versions and the brotli quality, so a Node with another zlib
 * or brotli, or sizes measured at another quality, are measured again.
 */
import { join } from "node:path";
import { cachedJson, writeAtomic } from "./cache-file.js";
import { sha256 } from "./hash.js";

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

/** The cache file of a bundle's sizes. */
export const sizesFile = (cacheDir: string, code: string) => join(cacheDir, "sizes", `${sha256(`${COMPRESSORS}\0${code}`).slice(0, 32)}.json`);

/** The sizes of `code`: from the cache, or measured by `measure` and recorded (a failed write is only a missed cache). */
export async function cachedSizes(cacheDir: string, code: string, measure: () => Promise<CompressedSizes>): Promise<CompressedSizes> {
  const file = sizesFile(cacheDir, code);
  const known = await cachedJson<CompressedSizes>(file);
  if (known && Number.isInteger(known.gzipBytes) && Number.isInteger(known.brotliBytes)) return known;
  const sizes = await measure();
  await writeAtomic(file, JSON.stringify(sizes)).catch(() => undefined);
  return sizes;
}

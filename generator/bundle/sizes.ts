/**
 * A bundle's compressed sizes (gzip -9, brotli -q 11), kept in the build
 * cache by the sha256 of its bytes (sizes/KEY.json): the same bytes always
 * compress to the same sizes, so a rebuild that links identical bytes (a
 * build with --force, a shard or a dry run after a whole build, another
 * output folder on the same cache) skips the compressors. Brotli at quality
 * 11 is most of a bundle's link time (about 0.3 s a bundle, 60 s a
 * catalogue). The key holds the compressors' versions, so a Node with
 * another zlib or brotli measures again.
 */
import { join } from "node:path";
import { cachedJson, writeAtomic } from "./cache-file.js";
import { sha256 } from "./hash.js";

export interface CompressedSizes {
  gzipBytes: number;
  brotliBytes: number;
}

const COMPRESSORS = `zlib ${process.versions.zlib} brotli ${process.versions.brotli}`;

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

import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { brotliSize, gzipSize } from "../../../generator/bundle/link.js";
import { cachedSizes, sizesFile } from "../../../generator/bundle/sizes.js";
import { tempDir } from "../../helpers/fs.js";

const measureOf = (code: string) => {
  const calls: string[] = [];
  const measure = async () => {
    calls.push(code);
    return { gzipBytes: await gzipSize(code), brotliBytes: await brotliSize(code) };
  };
  return { calls, measure };
};

describe("compressed sizes cached by the bundle's bytes (.sitetags-cache/sizes/)", () => {
  it("the same bytes are compressed once; other bytes are measured; what the cache returns is what the compressors give", async () => {
    const cacheDir = tempDir("sizes");
    const code = `!function(){var a=${JSON.stringify("x".repeat(500))};console.log(a)}();`;
    const first = measureOf(code);
    const measured = await cachedSizes(cacheDir, code, first.measure);
    expect(measured).toEqual({ gzipBytes: await gzipSize(code), brotliBytes: await brotliSize(code) });
    expect(first.calls).toHaveLength(1);
    const again = measureOf(code);
    expect(await cachedSizes(cacheDir, code, again.measure)).toEqual(measured);
    expect(again.calls).toHaveLength(0);
    const other = measureOf(`${code};`);
    expect(await cachedSizes(cacheDir, `${code};`, other.measure)).toEqual({
      gzipBytes: await gzipSize(`${code};`),
      brotliBytes: await brotliSize(`${code};`),
    });
    expect(other.calls).toHaveLength(1);
    expect(readdirSync(join(cacheDir, "sizes"))).toHaveLength(2);
  });

  it("a damaged or partial cache file is a miss (measured again), never a wrong size; an unwritable cache only measures", async () => {
    const cacheDir = tempDir("sizes");
    const code = "!function(){console.log(1)}();";
    mkdirSync(join(cacheDir, "sizes"), { recursive: true });
    for (const damaged of ["{", '{"gzipBytes":12}', '{"gzipBytes":"12","brotliBytes":9}']) {
      writeFileSync(sizesFile(cacheDir, code), damaged);
      const m = measureOf(code);
      expect(await cachedSizes(cacheDir, code, m.measure)).toEqual({ gzipBytes: await gzipSize(code), brotliBytes: await brotliSize(code) });
      expect(m.calls).toHaveLength(1);
    }
    // A file where the cache folder should be: nothing can be written, the sizes are still right.
    const blocked = join(tempDir("sizes"), "cache");
    writeFileSync(blocked, "not a folder");
    const m = measureOf(code);
    expect(await cachedSizes(blocked, code, m.measure)).toEqual({ gzipBytes: await gzipSize(code), brotliBytes: await brotliSize(code) });
  });
});

/**
 * The per-piece bytes kept by inputsHash (generator/bundle/module-bytes.ts, issue #21): "a rebuild that reuses it reports its pieces
 * without linking it again", and the file is written "only on a change".
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readModuleBytes, writeModuleBytes } from "../../../generator/bundle/module-bytes.js";
import { tempDir } from "../../helpers/fs.js";

const manifestOf = (...hashes: string[]) => ({ bundles: hashes.map((inputsHash) => ({ inputsHash })) });

describe("the per-piece bytes cache", () => {
  it("is written only on a change: new bytes, other bytes for the same inputs, or inputs no manifest entry has any more", async () => {
    const cache = tempDir("cache");
    const file = join(cache, "module-bytes.json");
    await writeModuleBytes(cache, new Map(), [{ inputsHash: "a", moduleBytes: { core: 1, config: 2 } }], manifestOf("a"));
    await writeModuleBytes(cache, await readModuleBytes(cache), [{ inputsHash: "b", moduleBytes: { core: 3 } }], manifestOf("a", "b"));
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ a: { core: 1, config: 2 }, b: { core: 3 } });
    // Nothing new (a reused bundle, and a linked one with the same bytes in another key order): not written (the marker stays).
    const known = await readModuleBytes(cache);
    writeFileSync(file, "marker");
    await writeModuleBytes(cache, known, [{ inputsHash: "a", moduleBytes: { config: 2, core: 1 } }], manifestOf("a", "b"));
    expect(readFileSync(file, "utf8")).toBe("marker");
    await writeModuleBytes(cache, known, [], manifestOf("a", "b"));
    expect(readFileSync(file, "utf8")).toBe("marker");
    // Other bytes for the same inputs: written.
    await writeModuleBytes(cache, known, [{ inputsHash: "a", moduleBytes: { core: 1, config: 5 } }], manifestOf("a", "b"));
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ a: { core: 1, config: 5 }, b: { core: 3 } });
    // An input the manifest no longer names is dropped.
    await writeModuleBytes(cache, await readModuleBytes(cache), [], manifestOf("b"));
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ b: { core: 3 } });
  });
});

import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseDocument } from "yaml";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { build, type Manifest } from "../../../generator/bundle/build.js";
import { mergeShards } from "../../../generator/bundle/merge.js";
import { copyCatalogue, SITES, snapshotTree, tempDir } from "../../helpers/fs.js";
import { warmSharedCache } from "../../helpers/shared-cache.js";

// Cold compiles on a loaded two-core machine: generous.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 600_000 });

let cacheDir: string;
let whole: string;
let shards: string[];

const shardBuild = async (index: number, count: number, sitesDir = SITES) => {
  const outDir = tempDir(`shard-${index}-of-${count}`);
  const r = await build({ sitesDir, outDir, cacheDir, shard: { index, count } });
  expect(r.diagnostics).toEqual([]);
  return outDir;
};

beforeAll(async () => {
  // The repository's compile cache: this file is about merging, not compiling (build.test.ts compiles cold).
  cacheDir = await warmSharedCache();
  whole = tempDir("whole");
  expect((await build({ outDir: whole, cacheDir })).ok).toBe(true);
  shards = [];
  for (const i of [1, 2, 3, 4]) shards.push(await shardBuild(i, 4));
});

// The whole shipped catalogue: every site x environment, unsharded and in 4 shards.
describe("sitetags manifest merge", () => {
  it('"build --shard I/N writes a partial manifest": its own bundles and the shard descriptor', () => {
    const m = JSON.parse(readFileSync(join(shards[1], "manifest.json"), "utf8")) as Manifest;
    const all = (JSON.parse(readFileSync(join(whole, "manifest.json"), "utf8")) as Manifest).bundles;
    expect(m.shard).toMatchObject({
      index: 2,
      count: 4,
      total: all.length,
      runtime: expect.stringMatching(/^[0-9a-f]{16}$/),
      catalogue: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(m.shard).not.toHaveProperty("sites");
    expect(m.bundles).toEqual(all.filter((_, i) => i % 4 === 1));
  });

  it('"a merge of 4 shards equals an unsharded build, byte for byte"', async () => {
    const out = tempDir("merged");
    const r = await mergeShards({ dirs: [...shards].reverse(), outDir: out, sitesDir: SITES });
    expect(r.diagnostics).toEqual([]);
    expect(r.ok).toBe(true);
    expect(snapshotTree(out)).toEqual(snapshotTree(whole));
    // Each bundle: its hashed file, its alias and the deferred file it names (split task, #21); and the manifest.
    expect(Object.keys(snapshotTree(whole)).length).toBe(3 * 228 + 1);
  });

  it('"it refuses overlapping or missing bundles", with a clear message, and leaves the output as it was', async () => {
    const out = tempDir("merged");
    writeFileSync(join(out, "keep.txt"), "before");
    const missing = await mergeShards({ dirs: shards.slice(0, 3), outDir: out, sitesDir: SITES });
    expect(missing.exitCode).toBe(3);
    expect(missing.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["MERGE_MISSING", "shard 4/4 missing: their bundles would be missing from the merged dist"],
    ]);
    const twice = await mergeShards({ dirs: [...shards, shards[2]], outDir: out, sitesDir: SITES });
    expect(twice.diagnostics[0]).toMatchObject({ code: "MERGE_OVERLAP", message: `shard 3/4 is given twice: ${shards[2]}, ${shards[2]}` });
    expect(twice.diagnostics.slice(1).every((d) => d.code === "MERGE_OVERLAP" && / is in two shards: /.test(d.message))).toBe(true);
    expect(snapshotTree(out)).toEqual({ "keep.txt": expect.any(String) });
    const notShard = await mergeShards({ dirs: [whole], outDir: out });
    expect(notShard.diagnostics.map((d) => d.code)).toEqual(["MERGE_NOT_A_SHARD"]);
  });

  it('"it refuses different inputs hashes for one bundle": a shard of a build from another catalogue', async () => {
    // Another catalogue: the site of shard 1's first bundle waits longer at start-up (a timing value every bundle inlines) (its bundles only are new bytes to compress; the shard's others are the whole build's).
    const first = (JSON.parse(readFileSync(join(shards[0], "manifest.json"), "utf8")) as Manifest).bundles[0];
    const changed = copyCatalogue();
    const siteFile = join(changed, `${first.site}.yaml`);
    const doc = parseDocument(readFileSync(siteFile, "utf8"));
    doc.setIn(["timing", "startupWait"], 4501);
    writeFileSync(siteFile, doc.toString());
    const other = await shardBuild(1, 4, changed);
    expect((JSON.parse(readFileSync(join(other, "manifest.json"), "utf8")) as Manifest).bundles[0].inputsHash).not.toBe(first.inputsHash);
    const r = await mergeShards({ dirs: [...shards, other], outDir: tempDir("merged") });
    const codes = r.diagnostics.map((d) => d.code);
    expect(codes).toContain("MERGE_DIFFERENT_BUILDS");
    expect(codes).toContain("MERGE_INPUTS_DIFFER");
    expect(r.diagnostics.find((d) => d.code === "MERGE_INPUTS_DIFFER")!.message).toMatch(
      new RegExp(`^${first.env}/${first.site} was built from different inputs in .+ \\(inputsHash ${first.inputsHash}\\) and .+ \\([0-9a-f]{16}\\)$`),
    );
  });

  it("a shard's bundle whose bytes do not match its manifest entry is refused (MERGE_BAD_FILE)", async () => {
    const damaged = tempDir("damaged");
    cpSync(shards[0], damaged, { recursive: true });
    const entry = (JSON.parse(readFileSync(join(damaged, "manifest.json"), "utf8")) as Manifest).bundles[0];
    writeFileSync(join(damaged, entry.file), `${readFileSync(join(damaged, entry.file), "utf8")};`);
    const r = await mergeShards({ dirs: [damaged, ...shards.slice(1)], outDir: tempDir("merged") });
    expect(r.diagnostics.map((d) => d.code)).toEqual(["MERGE_BAD_FILE"]);
  });
});

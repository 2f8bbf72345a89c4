import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createStaging } from "../../../generator/bundle/write.js";
import { snapshotTree, tempDir } from "../../helpers/fs.js";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

describe("the write's staging (issue #21: bundles written as they are linked, not held in memory until the write)", () => {
  it('"nothing is written unless every bundle succeeded": staged files are temporaries beside their targets until commit, which leaves no temporary or backup', async () => {
    const out = tempDir("out");
    writeFileSync(join(out, "manifest.json"), "old manifest");
    mkdirSync(join(out, "prod", "go"), { recursive: true });
    writeFileSync(join(out, "prod", "go", "sitetags.min.js"), "old alias");
    const before = snapshotTree(out);
    const staging = createStaging();
    await staging.stage(join(out, "prod", "go", "sitetags.0123456789.min.js"), "new", true);
    await staging.stage(join(out, "prod", "go", "sitetags.min.js"), "new");
    await staging.stage(join(out, "qa", "go", "sitetags.min.js"), "new qa");
    await staging.stage(join(out, "manifest.json"), "new manifest");
    // Until the commit, every target is as it was (the temporaries sit beside them).
    const staged = snapshotTree(out);
    for (const [path, content] of Object.entries(before)) expect(staged[path]).toBe(content);
    expect(
      Object.keys(staged)
        .filter((p) => !(p in before))
        .every((p) => p.includes(`.tmp-${process.pid}`)),
    ).toBe(true);
    await staging.commit();
    expect(snapshotTree(out)).toEqual({
      "manifest.json": sha("new manifest"),
      "prod/go/sitetags.0123456789.min.js": sha("new"),
      "prod/go/sitetags.min.js": sha("new"),
      "qa/go/sitetags.min.js": sha("new qa"),
    });
  });

  it('"a failed build … leaves dist/ byte-for-byte as it was": a rename that fails puts back each replaced file (kept as a hard link beside it, not in memory) and removes the folders made', async () => {
    const out = tempDir("out");
    mkdirSync(join(out, "prod", "go"), { recursive: true });
    const alias = join(out, "prod", "go", "sitetags.min.js");
    writeFileSync(alias, "old alias");
    const inode = statSync(alias).ino;
    // The manifest's name is held by a folder: its rename, the last, fails.
    mkdirSync(join(out, "manifest.json"));
    const before = snapshotTree(out);
    const staging = createStaging();
    await staging.stage(alias, "new alias");
    await staging.stage(join(out, "qa", "go", "sitetags.min.js"), "new qa");
    await staging.stage(join(out, "manifest.json"), "new manifest");
    await expect(staging.commit()).rejects.toThrow();
    expect(snapshotTree(out)).toEqual(before);
    expect(readFileSync(alias, "utf8")).toBe("old alias");
    expect(statSync(alias).ino).toBe(inode);
    expect(existsSync(join(out, "qa"))).toBe(false);
  });

  it("\"the same bytes are written once\" (issue #21: a bundle's alias, every bundle's deferred file): a file staged as the same bytes as one staged before is a hard link of its temporary, and after commit each target holds the bytes; with nothing to link to it is written", async () => {
    const out = tempDir("out");
    mkdirSync(join(out, "prod", "go"), { recursive: true });
    writeFileSync(join(out, "prod", "go", "sitetags.min.js"), "old alias");
    const named = join(out, "prod", "go", "sitetags.0123456789.min.js");
    const alias = join(out, "prod", "go", "sitetags.min.js");
    const deferred = join(out, "qa", "go", "sitetags.defer.0123456789.min.js");
    const staging = createStaging();
    await staging.stage(named, "new", true);
    await staging.stage(alias, "new", false, named);
    await staging.stage(deferred, "new", true, named);
    // Never staged: written from the data.
    await staging.stage(join(out, "dev", "go", "sitetags.min.js"), "dev", false, join(out, "nowhere.js"));
    const tmp = (path: string) => `${path}.tmp-${process.pid}`;
    expect(statSync(tmp(alias)).ino).toBe(statSync(tmp(named)).ino);
    expect(statSync(tmp(deferred)).ino).toBe(statSync(tmp(named)).ino);
    expect(readFileSync(alias, "utf8")).toBe("old alias");
    await staging.stage(join(out, "manifest.json"), "new manifest");
    await staging.commit();
    expect(snapshotTree(out)).toEqual({
      "manifest.json": sha("new manifest"),
      "prod/go/sitetags.0123456789.min.js": sha("new"),
      "prod/go/sitetags.min.js": sha("new"),
      "qa/go/sitetags.defer.0123456789.min.js": sha("new"),
      "dev/go/sitetags.min.js": sha("dev"),
    });
  });

  it("abort removes the temporaries and the folders made for them, and nothing else", async () => {
    const out = tempDir("out");
    writeFileSync(join(out, "manifest.json"), "kept");
    const before = snapshotTree(out);
    const staging = createStaging();
    await staging.stage(join(out, "dev", "go", "sitetags.min.js"), "x");
    await staging.stage(join(out, "dev", "clep", "sitetags.min.js"), "y");
    await staging.stage(join(out, "dev", "clep", "sitetags.0123456789.min.js"), "y", true, join(out, "dev", "clep", "sitetags.min.js"));
    await staging.stage(join(out, "manifest.json"), "new");
    await staging.abort();
    expect(snapshotTree(out)).toEqual(before);
    expect(existsSync(join(out, "dev"))).toBe(false);
  });
});

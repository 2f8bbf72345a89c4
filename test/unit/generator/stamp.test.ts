/**
 * Issue #21, "a warm rebuild with nothing changed … under 1.0 s": the build's
 * stamp (generator/bundle/stamp.ts) lets the CLI print a rebuild's result
 * without building, only while every input and output it covers is as the
 * build left it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { packageRoot } from "../../../generator/bundle/paths.js";
import { readStamp, stampInputsKey, takeStampedManifest, writeStamp, type StampInput } from "../../../generator/bundle/stamp.js";
import type { BundleReport } from "../../../generator/bundle/link.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup() {
  const dir = mkdtempSync(join(tmpdir(), "sitetags-stamp-"));
  dirs.push(dir);
  const input: StampInput = { root: packageRoot(), sitesDir: join(dir, "sites"), outDir: join(dir, "dist"), cacheDir: join(dir, "cache") };
  mkdirSync(input.sitesDir);
  mkdirSync(join(input.outDir, "prod", "go"), { recursive: true });
  writeFileSync(join(input.sitesDir, "_org.yaml"), "org: 1\n");
  writeFileSync(join(input.sitesDir, "go.yaml"), "code: go\n");
  const entry = {
    site: "go",
    env: "prod",
    file: "prod/go/sitetags.abc.min.js",
    alias: "prod/go/sitetags.min.js",
    bytes: 3,
    gzipBytes: 2,
    brotliBytes: 1,
    integrity: "sha384-x",
    modules: [],
    inputsHash: "h",
  };
  writeFileSync(join(input.outDir, entry.file), "a;");
  writeFileSync(join(input.outDir, entry.alias), "a;");
  writeFileSync(join(input.outDir, "manifest.json"), JSON.stringify({ bundles: [entry] }));
  const report: BundleReport = { ...entry, status: "built", budgetGzipBytes: 32000, moduleBytes: { core: 3 }, moduleSources: {} };
  return { input, entry, report };
}

describe('"a warm rebuild with nothing changed … under 1.0 s": the stamp replays a build only while nothing it covers changed', () => {
  it("after a build, the stamp gives every bundle as reused, with its manifest entry, bytes per piece and the build's warnings", async () => {
    const { input, entry, report } = setup();
    await writeStamp(input, { diagnostics: [{ code: "W1" }], bundles: [report] });
    const stamped = await readStamp(input);
    expect(stamped?.bundles).toEqual([{ ...entry, status: "reused", budgetGzipBytes: 32000, moduleBytes: { core: 3 }, moduleSources: {} }]);
    expect(stamped?.diagnostics).toEqual([{ code: "W1" }]);
    expect(stamped?.manifest.bundles).toEqual([entry]);
  });

  it("misses when a site file, the manifest, a bundle file or the selection changed", async () => {
    const cases: Array<(s: ReturnType<typeof setup>) => StampInput | void> = [
      ({ input }) => writeFileSync(join(input.sitesDir, "go.yaml"), "code: og\n"),
      ({ input }) => writeFileSync(join(input.sitesDir, "new.yaml"), "code: new\n"),
      ({ input }) => writeFileSync(join(input.outDir, "manifest.json"), JSON.stringify({ bundles: [] })),
      ({ input, entry }) => rmSync(join(input.outDir, entry.alias)),
      ({ input }) => ({ ...input, envs: ["prod"] }),
      ({ input }) => ({ ...input, sitesDir: join(input.sitesDir, "..", "sites", ".") + "/" }),
    ];
    for (const change of cases) {
      const s = setup();
      await writeStamp(s.input, { diagnostics: [], bundles: [s.report] });
      expect(await readStamp(s.input)).toBeDefined();
      const input = change(s) ?? s.input;
      expect(await readStamp(input), String(change)).toBeUndefined();
    }
  });

  it("misses when a bundle's deferred file is gone", async () => {
    const s = setup();
    const deferred = { file: "prod/go/sitetags.defer.abc.min.js", bytes: 2, gzipBytes: 2, brotliBytes: 2, integrity: "sha384-y" };
    const entry = { ...s.entry, deferred };
    writeFileSync(join(s.input.outDir, deferred.file), "b;");
    writeFileSync(join(s.input.outDir, "manifest.json"), JSON.stringify({ bundles: [entry] }));
    await writeStamp(s.input, { diagnostics: [], bundles: [{ ...s.report, deferred }] });
    expect(await readStamp(s.input)).toBeDefined();
    rmSync(join(s.input.outDir, deferred.file));
    expect(await readStamp(s.input)).toBeUndefined();
  });

  it("a miss hands the build that follows the manifest it read, every file of it present, once and for the same input only", async () => {
    const s = setup();
    await writeStamp(s.input, { diagnostics: [], bundles: [s.report] });
    writeFileSync(join(s.input.sitesDir, "go.yaml"), "code: go\nname: changed\n");
    // The stamp's key comes first in its file, so a miss reads no further.
    expect(readFileSync(join(s.input.cacheDir, "stamp.json"), "utf8")).toMatch(/^\{"key":"[0-9a-f]{64}",/);
    expect(await readStamp(s.input, true)).toBeUndefined();
    expect(takeStampedManifest({ ...s.input, envs: ["prod"] })).toBeUndefined();
    expect(await readStamp(s.input, true)).toBeUndefined();
    expect(takeStampedManifest(s.input)).toEqual({ bundles: [s.entry] });
    expect(takeStampedManifest(s.input)).toBeUndefined();
    // Not handed over when a file it names is gone (the plan looks for each file then), nor when the caller builds nothing next.
    rmSync(join(s.input.outDir, s.entry.alias));
    expect(await readStamp(s.input, true)).toBeUndefined();
    expect(takeStampedManifest(s.input)).toBeUndefined();
    writeFileSync(join(s.input.outDir, s.entry.alias), "a;");
    expect(await readStamp(s.input)).toBeUndefined();
    expect(takeStampedManifest(s.input)).toBeUndefined();
  });

  it("a site file changed while the build ran is not stamped as built: the key of the inputs is the one the build took as it started", async () => {
    const { input, report } = setup();
    const atStart = stampInputsKey(input);
    writeFileSync(join(input.sitesDir, "go.yaml"), "code: go\nname: changed during the build\n");
    await writeStamp(input, { diagnostics: [], bundles: [report] }, atStart);
    expect(await readStamp(input)).toBeUndefined();
    // Stamped with the inputs as they are now, the same result replays.
    await writeStamp(input, { diagnostics: [], bundles: [report] }, stampInputsKey(input));
    expect(await readStamp(input)).toBeDefined();
  });
});

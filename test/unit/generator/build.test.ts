import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync, constants as zlib } from "node:zlib";
import { beforeAll, describe, expect, it, vi } from "vitest";

// Cold compiles: generous on a loaded two-core machine.
vi.setConfig({ testTimeout: 120_000 });
import { build, selectBundles, type BuildResult } from "../../../generator/bundle/build.js";
import { readRegistry } from "../../../generator/bundle/registry.js";
import { loadCatalogue } from "../../../generator/config/load.js";
import { MODULE_NAMES } from "../../../generator/bundle/build.js";
import { copyCatalogue, REPO, SITES, snapshotTree, tempDir } from "../../helpers/fs.js";

// clep has chat + survey, bigfuture survey only, go no feature module.
const SUBSET = { sites: ["bigfuture", "clep", "go"] };

let first: BuildResult;
let out1: string;
let cache1: string;

beforeAll(async () => {
  out1 = tempDir("out");
  cache1 = tempDir("cache");
  first = await build({ ...SUBSET, outDir: out1, cacheDir: cache1 });
  expect(first.diagnostics).toEqual([]);
  expect(first.ok).toBe(true);
}, 120_000);

describe("the compiler", () => {
  it('"the same inputs give byte-identical bundles and manifest" (two cold builds, separate caches)', async () => {
    const out2 = tempDir("out");
    const again = await build({ ...SUBSET, outDir: out2, cacheDir: tempDir("cache") });
    expect(again.ok).toBe(true);
    expect(snapshotTree(out2)).toEqual(snapshotTree(out1));
    expect(Object.keys(snapshotTree(out1)).length).toBeGreaterThan(10);
  });

  it('"Only the modules a site enables reach its bundle": chat code only in bundles of sites with chat', async () => {
    const { entries } = await readRegistry(join(REPO, "runtime-modules"));
    expect(entries.length).toBe(MODULE_NAMES.length);
    for (const b of first.bundles) {
      const code = readFileSync(join(out1, b.file), "utf8");
      // Every module's markers (its manifest's): present exactly when the site enables it.
      for (const e of entries)
        for (const marker of e.markers) expect(code.includes(marker), `${b.file} ${e.name} marker ${marker}`).toBe(b.modules.includes(e.name));
    }
    expect(first.bundles.find((b) => b.site === "clep")!.modules).toEqual(["chat", "survey"]);
    expect(first.bundles.find((b) => b.site === "go")!.modules).toEqual([]);
    const go = first.bundles.find((b) => b.site === "go")!;
    const clep = first.bundles.find((b) => b.site === "clep" && b.env === go.env)!;
    expect(go.bytes).toBeLessThan(clep.bytes);
  });

  it('"In non-production bundles, a push that does not match its type logs a clear warning …; production bundles skip that check and its code"', () => {
    for (const b of first.bundles) {
      const code = readFileSync(join(out1, b.file), "utf8");
      // The validator's table of documented events and its typo hint.
      expect(code.includes("list-change") && code.includes("is not documented"), `${b.file}`).toBe(b.env !== "prod");
    }
  });

  it("every bundle opens with V8's compile hint, as its very first bytes (any banner before it would switch it off)", () => {
    for (const b of first.bundles) {
      const code = readFileSync(join(out1, b.file), "utf8");
      expect(code.startsWith("//# allFunctionsCalledOnLoad\n!function(){"), b.file).toBe(true);
      expect(code.split("allFunctionsCalledOnLoad").length, b.file).toBe(2);
    }
  });

  it("every deferred file opens with V8's compile hint too, as its very first bytes (its functions run as soon as it arrives)", () => {
    const manifest = JSON.parse(readFileSync(join(out1, "manifest.json"), "utf8"));
    const files = new Set<string>(manifest.bundles.map((e: { deferred: { file: string } }) => e.deferred.file));
    expect(files.size).toBeGreaterThan(0);
    for (const file of files) {
      const code = readFileSync(join(out1, file), "utf8");
      expect(code.startsWith("//# allFunctionsCalledOnLoad\n(function(h){"), file).toBe(true);
      expect(code.split("allFunctionsCalledOnLoad").length, file).toBe(2);
    }
  });

  it('"a deferred file measured once is still written to every bundle folder": each bundle\'s folder holds its own deferred file, every one the same bytes (issue #21: staged as hard links of one write)', () => {
    const manifest = JSON.parse(readFileSync(join(out1, "manifest.json"), "utf8")) as {
      bundles: Array<{ env: string; site: string; deferred: { file: string } }>;
    };
    expect(manifest.bundles.length).toBeGreaterThan(1);
    const first = readFileSync(join(out1, manifest.bundles[0].deferred.file));
    for (const entry of manifest.bundles) {
      expect(entry.deferred.file.startsWith(`${entry.env}/${entry.site}/sitetags.defer.`)).toBe(true);
      expect(readFileSync(join(out1, entry.deferred.file)).equals(first), entry.deferred.file).toBe(true);
    }
  });

  it("the dist layout and manifest are exactly as the contract says", () => {
    const manifest = JSON.parse(readFileSync(join(out1, "manifest.json"), "utf8"));
    const keys = manifest.bundles.map((b: { site: string; env: string }) => `${b.site}/${b.env}`);
    expect(keys).toEqual([...keys].sort());
    for (const entry of manifest.bundles) {
      expect(Object.keys(entry).sort()).toEqual([
        "alias",
        "brotliBytes",
        "bytes",
        "deferred",
        "env",
        "file",
        "gzipBytes",
        "inputsHash",
        "integrity",
        "modules",
        "site",
      ]);
      // The deferred file (split task, #21): content-named beside the first, which names it with its integrity; its own sizes.
      const deferred = readFileSync(join(out1, entry.deferred.file));
      expect(entry.deferred.file).toBe(`${entry.env}/${entry.site}/sitetags.defer.${createHash("sha256").update(deferred).digest("hex").slice(0, 10)}.min.js`);
      expect(entry.deferred.integrity).toBe(`sha384-${createHash("sha384").update(deferred).digest("base64")}`);
      expect(entry.deferred.bytes).toBe(deferred.length);
      expect(entry.deferred.gzipBytes).toBe(gzipSync(deferred, { level: 9 }).length);
      expect(readFileSync(join(out1, entry.file), "utf8")).toContain(
        JSON.stringify({ file: entry.deferred.file.split("/").pop(), integrity: entry.deferred.integrity }),
      );
      const bytes = readFileSync(join(out1, entry.file));
      expect(entry.file).toBe(`${entry.env}/${entry.site}/sitetags.${createHash("sha256").update(bytes).digest("hex").slice(0, 10)}.min.js`);
      expect(entry.alias).toBe(`${entry.env}/${entry.site}/sitetags.min.js`);
      expect(readFileSync(join(out1, entry.alias)).equals(bytes)).toBe(true);
      expect(entry.bytes).toBe(bytes.length);
      expect(entry.integrity).toBe(`sha384-${createHash("sha384").update(bytes).digest("base64")}`);
      expect(Math.abs(entry.gzipBytes - gzipSync(bytes, { level: 9 }).length)).toBe(0);
      expect(gunzipSync(gzipSync(bytes)).equals(bytes)).toBe(true);
      // Quality 5 (the CDN's on-the-fly compression) in the window `brotli FILE` takes: the smallest that holds the file.
      let lgwin = 10;
      while (lgwin < 24 && 2 ** lgwin - 16 < bytes.length) lgwin++;
      const brotli = brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_LGWIN]: lgwin } });
      expect(entry.brotliBytes).toBe(brotli.length);
      expect(brotliDecompressSync(brotli).equals(bytes)).toBe(true);
    }
    expect(JSON.stringify(manifest)).not.toMatch(/20\d\d-\d\d-\d\dT/);
  });

  it('"No eval, new Function, string timers or document.write" in any bundle', () => {
    for (const b of first.bundles) {
      const code = readFileSync(join(out1, b.file), "utf8");
      expect(code).not.toMatch(/\beval\s*\(|new Function|document\.write|set(Timeout|Interval)\(\s*["'`]/);
    }
  });

  it('"Incremental: a bundle whose inputs are unchanged is not rebuilt"; one changed site rebuilds only its bundles', async () => {
    const sites = copyCatalogue();
    const out = tempDir("out");
    // A copy of the first build's cache: its compiled pieces (no second cold compile), and a record of its own to edit.
    const cache = tempDir("cache");
    cpSync(cache1, cache, { recursive: true });
    const cold = await build({ ...SUBSET, sitesDir: sites, outDir: out, cacheDir: cache });
    expect(cold.built).toBe(cold.bundles.length);
    const warm = await build({ ...SUBSET, sitesDir: sites, outDir: out, cacheDir: cache });
    expect(warm.built).toBe(0);
    expect(warm.reused).toBe(cold.bundles.length);
    // A reused bundle reports the bytes per piece its build measured (kept in the cache by inputsHash), and without that record it links to measure them again: the same either way.
    const measured = (r: BuildResult) => r.bundles.map((b) => [b.site, b.env, b.moduleBytes, b.brotliBytes]);
    expect(measured(warm)).toEqual(measured(cold));
    rmSync(join(cache, "module-bytes.json"));
    expect(measured(await build({ ...SUBSET, sitesDir: sites, outDir: out, cacheDir: cache }))).toEqual(measured(cold));
    const goFile = join(sites, "go.yaml");
    writeFileSync(goFile, `${readFileSync(goFile, "utf8")}\ntiming:\n  pageLoad: 3000\n`);
    const changed = await build({ ...SUBSET, sitesDir: sites, outDir: out, cacheDir: cache });
    const rebuilt = changed.bundles.filter((b) => b.status === "built").map((b) => b.site);
    expect(new Set(rebuilt)).toEqual(new Set(["go"]));
    expect(changed.piecesCompiled).toBe(0);
    // Only the current hashed file of each bundle stays (with its alias and deferred file).
    for (const env of readdirSync(out).filter((n) => n !== "manifest.json")) {
      for (const site of readdirSync(join(out, env))) expect(readdirSync(join(out, env, site)).length).toBe(3);
    }
  });

  it('"a failed build (bad config, compile error, over budget) leaves dist/ byte-for-byte as it was": over budget', async () => {
    const sites = copyCatalogue();
    const out = tempDir("out");
    const cache = cache1;
    expect((await build({ sites: ["go", "clep"], sitesDir: sites, outDir: out, cacheDir: cache })).ok).toBe(true);
    const before = snapshotTree(out);
    const clepFile = join(sites, "clep.yaml");
    writeFileSync(clepFile, `${readFileSync(clepFile, "utf8")}\nbudget:\n  gzipBytes: 1000\n`);
    const goFile = join(sites, "go.yaml");
    writeFileSync(goFile, `${readFileSync(goFile, "utf8")}\ntiming:\n  pageLoad: 3000\n`);
    const failed = await build({ sites: ["go", "clep"], sitesDir: sites, outDir: out, cacheDir: cache });
    expect(failed.ok).toBe(false);
    expect(failed.exitCode).toBe(3);
    const over = failed.diagnostics.filter((d) => d.code === "BUILD_OVER_BUDGET");
    expect(over.length).toBeGreaterThan(0);
    expect(over[0].message).toMatch(/bundle \w+\/clep is \d+ bytes gzipped, \d+ over its budget of 1000/);
    expect(over[0].file).toMatch(/clep\.yaml$/);
    expect(over[0].line).toBeGreaterThan(1);
    expect(snapshotTree(out)).toEqual(before);
  });

  it('"a failed build … leaves dist/ byte-for-byte as it was": a write that fails (the manifest cannot be replaced; a bundle folder cannot be made) puts back every file, and the next build rebuilds', async () => {
    const sites = copyCatalogue();
    const out = tempDir("out");
    expect((await build({ sites: ["go"], sitesDir: sites, outDir: out, cacheDir: cache1 })).ok).toBe(true);
    const goFile = join(sites, "go.yaml");
    const original = readFileSync(goFile, "utf8");
    writeFileSync(goFile, `${original}\ntiming:\n  pageLoad: 3100\n`);
    // The last rename (the manifest) fails: the aliases already renamed go back.
    renameSync(join(out, "manifest.json"), join(out, "manifest.keep"));
    mkdirSync(join(out, "manifest.json"));
    const before = snapshotTree(out);
    const failed = await build({ sites: ["go"], sitesDir: sites, outDir: out, cacheDir: cache1 });
    expect(failed).toMatchObject({ ok: false, exitCode: 3, diagnostics: [expect.objectContaining({ code: "BUILD_WRITE_FAILED" })] });
    expect(snapshotTree(out)).toEqual(before);
    rmSync(join(out, "manifest.json"), { recursive: true });
    renameSync(join(out, "manifest.keep"), join(out, "manifest.json"));
    // A bundle folder cannot be made (a file holds its name): nothing is written, no temporaries stay.
    const prodDir = join(out, "prod", "go");
    rmSync(prodDir, { recursive: true });
    writeFileSync(prodDir, "in the way");
    const before2 = snapshotTree(out);
    expect((await build({ sites: ["go"], sitesDir: sites, outDir: out, cacheDir: cache1 })).exitCode).toBe(3);
    expect(snapshotTree(out)).toEqual(before2);
    // Back to the first config: the bundles in dist/ are still the first build's, so reusing them is right.
    rmSync(prodDir);
    writeFileSync(goFile, original);
    const again = await build({ sites: ["go"], sitesDir: sites, outDir: out, cacheDir: cache1 });
    expect(again.ok).toBe(true);
    for (const b of again.manifest!.bundles) expect(readFileSync(join(out, b.alias), "utf8")).not.toContain('"pageLoad":3100');
  });

  it('"a failed build (bad config …) leaves dist/ byte-for-byte as it was": bad config writes nothing', async () => {
    const sites = copyCatalogue();
    const out = tempDir("out");
    expect((await build({ sites: ["go"], sitesDir: sites, outDir: out, cacheDir: cache1 })).ok).toBe(true);
    const before = snapshotTree(out);
    writeFileSync(join(sites, "go.yaml"), readFileSync(join(sites, "go.yaml"), "utf8").replace(/^appId: .*$/m, "appId: 12"));
    const failed = await build({ sitesDir: sites, outDir: out, cacheDir: cache1 });
    expect(failed.exitCode).toBe(1);
    expect(failed.diagnostics[0]).toMatchObject({ code: "CONFIG_INVALID_TYPE", path: "appId" });
    expect(snapshotTree(out)).toEqual(before);
  });

  it('"a failed build (… compile error …) leaves dist/ byte-for-byte as it was": a runtime syntax error is located, exit 3', async () => {
    const root = tempDir("root");
    for (const name of ["runtime-modules", "generator", "tsconfig.base.json", "tsconfig.runtime.json", "package.json"])
      cpSync(join(REPO, name), join(root, name), { recursive: true });
    symlinkSync(join(REPO, "node_modules"), join(root, "node_modules"));
    const broken = join(root, "runtime-modules", "core", "now.ts");
    writeFileSync(broken, `${readFileSync(broken, "utf8")}\nexport const broken = ;\n`);
    const out = tempDir("out");
    expect((await build({ sites: ["go"], envs: ["prod"], outDir: out, cacheDir: cache1 })).ok).toBe(true);
    const before = snapshotTree(out);
    const failed = await build({ root, sites: ["go"], envs: ["prod"], outDir: out, cacheDir: tempDir("cache") });
    expect(failed.exitCode).toBe(3);
    expect(failed.diagnostics[0]).toMatchObject({
      code: "BUILD_COMPILE_ERROR",
      line: readFileSync(broken, "utf8").split("\n").indexOf("export const broken = ;") + 1,
      column: 23,
    });
    expect(failed.diagnostics[0].file).toMatch(/runtime-modules\/core\/now\.ts$/);
    expect(failed.diagnostics[0].message).toMatch(/TS1109: Expression expected/);
    expect(failed.diagnostics[0].frame).toMatch(/> +\d+ \| export const broken = ;/);
    expect(snapshotTree(out)).toEqual(before);
  });

  it('"--shard I/N (a deterministic slice of the bundle list)": shards partition the list', async () => {
    const catalogue = await loadCatalogue({ sitesDir: SITES, moduleNames: MODULE_NAMES });
    const all = selectBundles(catalogue.bundles, {}).map((b) => `${b.site}/${b.env}`);
    const shards = [1, 2, 3].map((index) => selectBundles(catalogue.bundles, { shard: { index, count: 3 } }).map((b) => `${b.site}/${b.env}`));
    expect(shards.flat().sort()).toEqual([...all].sort());
    expect(new Set(shards.flat()).size).toBe(all.length);
    expect(selectBundles(catalogue.bundles, { shard: { index: 2, count: 3 } }).map((b) => `${b.site}/${b.env}`)).toEqual(shards[1]);
  });

  it("the shard slices and the manifest order are the same whatever the machine's locale (LANG)", () => {
    // In a Lithuanian collation "y" sorts before "j": locale-aware sorting put payments before parents there.
    const script = `import { selectBundles } from "./build/generator/bundle/build.js";
      const bundles = ["parents", "payments", "sat-suite", "satreg", "Zeta", "alpha"].flatMap((site) => ["prod", "qa"].map((env) => ({ site, env })));
      console.log(JSON.stringify([selectBundles(bundles, {}), selectBundles(bundles, { shard: { index: 1, count: 2 } })].map((l) => l.map((b) => b.site + "/" + b.env))));`;
    const order = (lang: string) =>
      spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: REPO, env: { ...process.env, LANG: lang, LC_ALL: lang }, encoding: "utf8" });
    const results = ["C.UTF-8", "lt_LT.UTF-8", "sv_SE.UTF-8"].map(order);
    for (const r of results) expect(r.stderr).toBe("");
    expect(JSON.parse(results[0].stdout)[0].slice(0, 6)).toEqual(["Zeta/prod", "Zeta/qa", "alpha/prod", "alpha/qa", "parents/prod", "parents/qa"]);
    expect(results[1].stdout).toBe(results[0].stdout);
    expect(results[2].stdout).toBe(results[0].stdout);
  });

  it("the generated entries are typed and type-check against the runtime", async () => {
    const { Project } = await import("ts-morph");
    const project = new Project({
      tsConfigFilePath: join(REPO, "tsconfig.runtime.json"),
      skipAddingFilesFromTsConfig: true,
      compilerOptions: { rootDir: "/", noEmit: true },
    });
    const entries = readdirSync(join(cache1, "entries")).filter((n) => n.endsWith(".ts"));
    expect(entries.length).toBeGreaterThanOrEqual(3);
    for (const name of entries) {
      const file = project.addSourceFileAtPath(join(cache1, "entries", name));
      expect(file.getFullText()).toMatch(/declare const __SITETAGS_CONFIG__: BundleConfig;/);
    }
    project.resolveSourceFileDependencies();
    const errors = project.getPreEmitDiagnostics().map((d) => project.formatDiagnosticsWithColorAndContext([d]));
    expect(errors).toEqual([]);
  });
});

describe("the module registry", () => {
  it("every module of the config schema has a manifest (runtime-modules/modules/NAME/module.ts) and the other way round", async () => {
    const { entries, diagnostics } = await readRegistry(join(REPO, "runtime-modules"));
    expect(diagnostics).toEqual([]);
    expect(entries.map((e) => e.name).sort()).toEqual([...MODULE_NAMES].sort());
    for (const e of entries) expect(e.markers.length).toBeGreaterThan(0);
  });
});

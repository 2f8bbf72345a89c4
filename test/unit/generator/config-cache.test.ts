/**
 * The config cache (generator/config/cached-load.ts, issue #21): a site
 * file's checked outcome is reused only while everything that decides it is
 * unchanged, and the catalogue it gives is loadCatalogue's.
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { MODULE_NAMES } from "../../../generator/bundle/build.js";
import { computeRuntimeHash } from "../../../generator/bundle/hash.js";
import { coreOf, inputsHashOf } from "../../../generator/bundle/plan.js";
import { loadCatalogueCached, loadConfigPart, PRUNE_GRACE_MS, sitesOfPart, writeIndexOfParts } from "../../../generator/config/cached-load.js";
import { loadCatalogue, type ResolvedBundle } from "../../../generator/config/load.js";
import { cachedSourceOf, hasPath, offsetOf, parseYamlSource, sourceFromCache, type YamlSource } from "../../../generator/config/yaml-source.js";
import { copyCatalogue, REPO, tempDir } from "../../helpers/fs.js";

vi.setConfig({ testTimeout: 180_000 });

const GENERATOR = computeRuntimeHash(REPO);

const optionsOf = (sitesDir: string, cacheDir: string, generatorHash = GENERATOR) => ({
  sitesDir,
  cacheDir,
  moduleNames: MODULE_NAMES,
  generatorHash,
  inputsHashOf: (b: ResolvedBundle) => inputsHashOf(generatorHash, b),
  coreOf,
  root: REPO,
});

function load(sitesDir: string, cacheDir: string, generatorHash = GENERATOR) {
  return loadCatalogueCached(optionsOf(sitesDir, cacheDir, generatorHash));
}

/** A cold build's config phase as its threads run it (build.ts, config-worker.ts): each part loaded, then the index from their lines. */
async function loadInParts(sitesDir: string, cacheDir: string, parts = 2) {
  const options = optionsOf(sitesDir, cacheDir);
  const lines = await Promise.all(Array.from({ length: parts }, (_, part) => loadConfigPart({ ...options, part, parts })));
  await writeIndexOfParts(options, lines);
  return lines;
}

/** Every file of the config cache as last written or used longer ago than prune's grace (so that the next load may prune it). */
function ageCache(cacheDir: string) {
  const old = new Date(Date.now() - PRUNE_GRACE_MS - 60_000);
  for (const n of readdirSync(join(cacheDir, "config"))) utimesSync(join(cacheDir, "config", n), old, old);
}

/** Every file of the config cache by name, with its bytes. */
const cacheFiles = (cacheDir: string) =>
  Object.fromEntries(
    readdirSync(join(cacheDir, "config"))
      .sort()
      .map((n) => [n, readFileSync(join(cacheDir, "config", n), "utf8")]),
  );

const siteFiles = (dir: string) => readdirSync(dir).filter((n) => n.endsWith(".yaml") && !n.startsWith("_")).length;

/** The cached load gives exactly the catalogue loaded from YAML, with each bundle's inputsHash. */
async function expectSameAsYaml(sitesDir: string, got: Awaited<ReturnType<typeof load>>) {
  const fromYaml = await loadCatalogue({ sitesDir, moduleNames: MODULE_NAMES });
  expect(got.catalogue).toEqual(fromYaml);
  for (const b of got.catalogue.bundles) if (got.inputsHashes.has(b)) expect(got.inputsHashes.get(b)).toBe(inputsHashOf(GENERATOR, b));
}

describe("the config cache", () => {
  it("an unchanged catalogue comes whole from the cache, and it is the catalogue loaded from YAML", async () => {
    const sites = copyCatalogue();
    const cache = tempDir("cache");
    const cold = await load(sites, cache);
    expect(cold).toMatchObject({ hits: 0, parsed: siteFiles(sites) });
    await expectSameAsYaml(sites, cold);
    const warm = await load(sites, cache);
    expect(warm).toMatchObject({ hits: siteFiles(sites), parsed: 0 });
    expect(warm.inputsHashes.size).toBe(warm.catalogue.bundles.length);
    // The index keeps each bundle's core, so a reused bundle's config need not be read; it is the core its config gives.
    expect(warm.cores.size).toBe(warm.catalogue.bundles.length);
    for (const b of warm.catalogue.bundles) expect(warm.cores.get(b)).toBe(coreOf({ config: b.config }));
    await expectSameAsYaml(sites, warm);
  });

  it("a changed site file is parsed and checked again, and only it", async () => {
    const sites = copyCatalogue();
    const cache = tempDir("cache");
    await load(sites, cache);
    const go = join(sites, "go.yaml");
    writeFileSync(go, `${readFileSync(go, "utf8")}\ntiming:\n  pageLoad: 3456\n`);
    const changed = await load(sites, cache);
    // _org.yaml is not parsed again: its model and positions come from its entry (the budget's line below is read from them).
    expect(changed).toMatchObject({ hits: siteFiles(sites) - 1, parsed: 1, orgFromCache: true });
    expect(changed.catalogue.bundles.some((b) => b.site === "go" && b.budgetSource?.file.endsWith("_org.yaml"))).toBe(true);
    expect(changed.catalogue.bundles.filter((b) => b.site === "go").map((b) => b.config.timing.pageLoad)).toEqual(
      changed.catalogue.bundles.filter((b) => b.site === "go").map(() => 3456),
    );
    await expectSameAsYaml(sites, changed);
  });

  it("a changed _org.yaml (even a comment) or a changed generator misses every site file", async () => {
    const sites = copyCatalogue();
    const cache = tempDir("cache");
    await load(sites, cache);
    const org = join(sites, "_org.yaml");
    writeFileSync(org, `${readFileSync(org, "utf8")}\n# edited\n`);
    const afterOrg = await load(sites, cache);
    expect(afterOrg).toMatchObject({ hits: 0, parsed: siteFiles(sites) });
    await expectSameAsYaml(sites, afterOrg);
    // Entries no longer named are kept while another build may still read them (written or used within PRUNE_GRACE_MS)...
    expect(readdirSync(join(cache, "config")).length).toBe(2 * (siteFiles(sites) + 2));
    ageCache(cache);
    expect(await load(sites, cache, `${GENERATOR}-changed`)).toMatchObject({ hits: 0, parsed: siteFiles(sites) });
    // ...and pruned after it: one per site file, one for the organisation file and the catalogue index remain.
    expect(readdirSync(join(cache, "config")).length).toBe(siteFiles(sites) + 2);
  });

  it("a file with a problem, or a clash across files, gives loadCatalogue's diagnostics, whatever the cache holds", async () => {
    const sites = copyCatalogue();
    const cache = tempDir("cache");
    await load(sites, cache);
    // A new site claiming go's hosts: each file is clean alone, the clash is across files.
    const copy = readFileSync(join(sites, "go.yaml"), "utf8").replace(/^code: go$/m, "code: gocopy");
    writeFileSync(join(sites, "gocopy.yaml"), copy);
    const clash = await load(sites, cache);
    expect(clash.catalogue.diagnostics.some((d) => d.code === "CONFIG_HOST_CONFLICT")).toBe(true);
    await expectSameAsYaml(sites, clash);
    writeFileSync(join(sites, "gocopy.yaml"), copy.replace(/^hosts:/m, "unknownKey: 1\nhosts:"));
    const invalid = await load(sites, cache);
    expect(invalid.catalogue.diagnostics.length).toBeGreaterThan(1);
    await expectSameAsYaml(sites, invalid);
  });

  it("_org.yaml's source from its entry answers every path and offset as the parsed file does", () => {
    const text = readFileSync(join(REPO, "sites", "_org.yaml"), "utf8");
    const { source } = parseYamlSource("sites/_org.yaml", text);
    const cached = cachedSourceOf(source)!;
    const rebuilt = sourceFromCache("sites/_org.yaml", text, JSON.parse(JSON.stringify(cached)) as typeof cached);
    expect(rebuilt.data).toEqual(source.data);
    // Every path of the data, and below each a key and an index that are missing.
    const paths: PropertyKey[][] = [];
    const walk = (value: unknown, path: PropertyKey[]) => {
      paths.push(path, [...path, "missingKey"], [...path, 999]);
      if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
      else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
    };
    walk(source.data, []);
    expect(paths.length).toBeGreaterThan(500);
    const answers = (s: YamlSource) =>
      paths.map((p) => [hasPath(s, p), offsetOf(s, p, "key"), offsetOf(s, p, "value"), s.lines.linePos(offsetOf(s, p, "value"))]);
    expect(answers(rebuilt)).toEqual(answers(source));
    for (let at = 0; at <= text.length; at += 97) expect(rebuilt.lines.linePos(at)).toEqual(source.lines.linePos(at));
    // Data that JSON would change (.inf) is not cached: such a file is parsed as before.
    expect(cachedSourceOf(parseYamlSource("x.yaml", "a: .inf\n").source)).toBeUndefined();
  });
});

const BAD_CONFIGS = join(dirname(fileURLToPath(import.meta.url)), "../../fixtures/bad-configs");

/** A bad-config case's catalogue (test/fixtures/bad-configs: _base/ with the case's files over it, `_remove`'s names deleted). */
function badConfig(name: string): string {
  const dir = tempDir("bad-config");
  const caseDir = join(BAD_CONFIGS, name);
  for (const file of readdirSync(join(BAD_CONFIGS, "_base"))) copyFileSync(join(BAD_CONFIGS, "_base", file), join(dir, file));
  const remove = join(caseDir, "_remove");
  if (existsSync(remove))
    for (const file of readFileSync(remove, "utf8")
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean))
      rmSync(join(dir, file));
  for (const file of readdirSync(caseDir)) if (file !== "expected.json" && file !== "_remove") copyFileSync(join(caseDir, file), join(dir, file));
  return dir;
}

describe("a cold build's config phase on two threads (loadConfigPart, writeIndexOfParts)", () => {
  it("the parts split the site files between them, each once, in order", () => {
    const files = Array.from({ length: 7 }, (_, i) => i);
    const parts = [0, 1, 2].map((part) => sitesOfPart(files, { part, parts: 3 }));
    expect(parts).toEqual([
      [0, 3, 6],
      [1, 4],
      [2, 5],
    ]);
    expect(sitesOfPart(files, { part: 0, parts: 1 })).toEqual(files);
  });

  it("leaves the config cache byte for byte as a single-thread load leaves it, and the catalogue loaded from it is the catalogue loaded from YAML", async () => {
    const sites = copyCatalogue();
    const split = tempDir("cache");
    const single = tempDir("cache");
    const lines = await loadInParts(sites, split);
    expect(lines.map((l) => l?.length)).toEqual([Math.ceil(siteFiles(sites) / 2), Math.floor(siteFiles(sites) / 2)]);
    await load(sites, single);
    expect(cacheFiles(split)).toEqual(cacheFiles(single));
    const after = await load(sites, split);
    expect(after).toMatchObject({ hits: siteFiles(sites), parsed: 0 });
    await expectSameAsYaml(sites, after);
  });

  it("the entries of a catalogue no longer there are pruned, as a single-thread load prunes them", async () => {
    const sites = copyCatalogue();
    const cache = tempDir("cache");
    await load(sites, cache, "another-generator");
    const stale = Object.keys(cacheFiles(cache));
    ageCache(cache);
    await loadInParts(sites, cache);
    expect(Object.keys(cacheFiles(cache)).filter((n) => stale.includes(n))).toEqual([]);
    const single = tempDir("cache");
    await load(sites, single);
    expect(cacheFiles(cache)).toEqual(cacheFiles(single));
  });

  it("a build that shares the cache with another catalogue's build reads every entry its index named, though the other prunes by its own", async () => {
    const sites = copyCatalogue();
    const cache = tempDir("cache");
    await load(sites, cache);
    ageCache(cache);
    // This build reads the index: its sites' full entries are read only when a bundle's config is asked for (at link time).
    const first = await load(sites, cache);
    expect(first).toMatchObject({ hits: siteFiles(sites), parsed: 0 });
    // Meanwhile another build, of the catalogue with one site edited (the same _org.yaml, so the same index file), writes and prunes.
    const other = join(tempDir("other"), basename(sites));
    cpSync(sites, other, { recursive: true });
    const go = join(other, "go.yaml");
    writeFileSync(go, `${readFileSync(go, "utf8")}\n# edited\n`);
    expect(await load(other, cache)).toMatchObject({ hits: siteFiles(sites) - 1, parsed: 1 });
    // Every config the first build links is still there to read (before PRUNE_GRACE_MS, a build that used an entry keeps it).
    expect(first.catalogue.bundles.filter((b) => b.site === "go").map((b) => b.config.timing.pageLoad).length).toBeGreaterThan(0);
    await expectSameAsYaml(sites, first);
  });

  it("a clash across the parts' files, or a part with a problem, gives loadCatalogue's diagnostics, and no index", async () => {
    const sites = copyCatalogue();
    // A new site claiming go's hosts: each file is clean alone, and the two fall in different parts.
    const copy = readFileSync(join(sites, "go.yaml"), "utf8").replace(/^code: go$/m, "code: gocopy");
    writeFileSync(join(sites, "gocopy.yaml"), copy);
    const names = readdirSync(sites)
      .filter((n) => n.endsWith(".yaml") && !n.startsWith("_"))
      .sort();
    expect(names.indexOf("go.yaml") % 2).not.toBe(names.indexOf("gocopy.yaml") % 2);
    const cache = tempDir("cache");
    expect((await loadInParts(sites, cache)).every((l) => l !== undefined)).toBe(true);
    const clash = await load(sites, cache);
    expect(clash.catalogue.diagnostics.some((d) => d.code === "CONFIG_HOST_CONFLICT")).toBe(true);
    await expectSameAsYaml(sites, clash);
    writeFileSync(join(sites, "gocopy.yaml"), copy.replace(/^hosts:/m, "unknownKey: 1\nhosts:"));
    const invalidCache = tempDir("cache");
    const invalidLines = await loadInParts(sites, invalidCache);
    expect(invalidLines.filter((l) => l === undefined)).toHaveLength(1);
    expect(readdirSync(join(invalidCache, "config")).some((n) => n.endsWith(".index.json"))).toBe(false);
    const invalid = await load(sites, invalidCache);
    expect(invalid.catalogue.diagnostics.length).toBeGreaterThan(1);
    await expectSameAsYaml(sites, invalid);
  });

  it("every bad-config fixture gives, after the parts, exactly loadCatalogue's diagnostics", async () => {
    const cases = readdirSync(BAD_CONFIGS).filter((n) => n !== "_base" && existsSync(join(BAD_CONFIGS, n, "expected.json")));
    expect(cases.length).toBeGreaterThan(100);
    for (const name of cases) {
      const sites = badConfig(name);
      const cache = tempDir("cache");
      mkdirSync(cache, { recursive: true });
      await loadInParts(sites, cache);
      const got = await load(sites, cache);
      const fromYaml = await loadCatalogue({ sitesDir: sites, moduleNames: MODULE_NAMES });
      expect(fromYaml.diagnostics.length, name).toBeGreaterThan(0);
      expect(got.catalogue.diagnostics, name).toEqual(fromYaml.diagnostics);
    }
  });
});

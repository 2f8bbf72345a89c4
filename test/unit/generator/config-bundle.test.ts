/**
 * Issue #21, "at 600 sites, … a one-site rebuild … under 1.0 s": a config
 * cache miss runs the YAML loader and the checks from one file,
 * build/generator/config/load.bundle.cjs with V8's code cache of it
 * (scripts/bundle-config.js, run by `npm run compile`), instead of importing
 * their ~160 modules. The bundle must be the same code: the catalogue it
 * loads, diagnostics included, is the one the modules load, with its code
 * cache and without; and it is used only while it is newer than every file
 * it was made of (generator/config/load-entry.ts).
 */
import { copyFileSync, mkdirSync, readFileSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { MODULE_NAMES } from "../../../generator/bundle/build.js";
import { freshBundle, runBundle, type ConfigLoader } from "../../../generator/config/load-entry.js";
import { loadCatalogue } from "../../../generator/config/load.js";
import { parseYamlSource } from "../../../generator/config/yaml-source.js";
import { REPO, SITES, tempDir } from "../../helpers/fs.js";

vi.setConfig({ testTimeout: 120_000 });

const BUNDLE = join(REPO, "build", "generator", "config", "load.bundle.cjs");
/** Bad-config fixtures (test/fixtures/bad-configs/NAME, over _base) whose diagnostics come from the parts a bundle could get wrong. */
const FIXTURES = [
  "01-yaml-bad-indentation",
  "31-duplicate-code-and-mismatch",
  "32-host-claimed-by-two-sites",
  "97-unsafe-regex-catastrophic-backtracking",
  "98-regex-slash-wrapped-warning",
  "63-unknown-command",
  "68-unknown-provided-value",
];

/** The largest shipped site files (and _org.yaml), copied. */
const SOME = ["apclassroom.yaml", "k12reports.yaml", "bigfuture.yaml"];
function someSites(): string {
  const dir = tempDir("bundle-sites");
  for (const file of ["_org.yaml", ...SOME]) copyFileSync(join(SITES, file), join(dir, file));
  return dir;
}

/** The bundle as the CLI runs it: with its code cache (which V8 must accept: made by the same Node), and without. */
function bundled(cache = true): ConfigLoader {
  const { loader, script } = runBundle(pathToFileURL(BUNDLE), cache ? readFileSync(join(BUNDLE, "..", "load.bundle.cache")) : undefined);
  if (cache) expect(script.cachedDataRejected).toBe(false);
  return loader;
}

describe("the config loader in one file (load.bundle.cjs)", () => {
  it("npm run compile wrote it, and it is fresh: newer than every compiled module and package file it holds", () => {
    expect(freshBundle(pathToFileURL(BUNDLE))).toEqual(pathToFileURL(BUNDLE));
  });

  it("loads shipped sites exactly as the modules do (their largest files: rules, data elements, tags, feature modules)", async () => {
    const sites = someSites();
    const expected = await loadCatalogue({ sitesDir: sites, moduleNames: MODULE_NAMES });
    expect(expected.diagnostics).toEqual([]);
    expect(expected.bundles.length).toBeGreaterThanOrEqual(SOME.length * 3);
    expect(await bundled().loadCatalogue({ sitesDir: sites, moduleNames: MODULE_NAMES })).toEqual(expected);
    expect(await bundled(false).loadCatalogue({ sitesDir: sites, moduleNames: MODULE_NAMES })).toEqual(expected);
  });

  it("gives the modules' diagnostics for bad-config fixtures: YAML, codes and hosts across files, an unsafe regex (recheck, required from the bundle's folder), a warning, an unknown command and provided value", async () => {
    const fixtures = join(REPO, "test", "fixtures", "bad-configs");
    for (const name of FIXTURES) {
      const sites = tempDir("bundle-fixture");
      for (const dir of [join(fixtures, "_base"), join(fixtures, name)])
        for (const file of readdirSync(dir)) if (file.endsWith(".yaml")) copyFileSync(join(dir, file), join(sites, file));
      const expected = await loadCatalogue({ sitesDir: sites, moduleNames: MODULE_NAMES });
      expect(expected.diagnostics.length, name).toBeGreaterThan(0);
      expect(await bundled().loadCatalogue({ sitesDir: sites, moduleNames: MODULE_NAMES }), name).toEqual(expected);
    }
    expect(bundled().parseYamlSource("x.yaml", "a: [1\n").diagnostics).toEqual(parseYamlSource("x.yaml", "a: [1\n").diagnostics);
  });

  it("is used only while no file it was made of is newer, and not without its list of them", () => {
    const dir = tempDir("bundle-fresh");
    mkdirSync(join(dir, "in"));
    const bundle = join(dir, "load.bundle.cjs");
    const input = join(dir, "in", "load.js");
    writeFileSync(input, "");
    writeFileSync(bundle, "");
    const url = pathToFileURL(bundle);
    expect(freshBundle(url)).toBeUndefined();
    writeFileSync(join(dir, "load.bundle.inputs.json"), JSON.stringify(["in/load.js"]));
    utimesSync(input, 1000, 1000);
    utimesSync(bundle, 2000, 2000);
    expect(freshBundle(url)).toEqual(url);
    // A tsc run (or a package update) without the bundling step: the module is newer than the bundle.
    utimesSync(input, 3000, 3000);
    expect(freshBundle(url)).toBeUndefined();
    utimesSync(input, 1000, 1000);
    writeFileSync(join(dir, "load.bundle.inputs.json"), JSON.stringify(["in/load.js", "in/gone.js"]));
    expect(freshBundle(url)).toBeUndefined();
  });
});

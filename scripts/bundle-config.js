#!/usr/bin/env node
// The config loader in one file (issue #21: a one-site rebuild at 600 sites
// spent 0.35-0.5 s of CPU, and up to a second of wall time on a loaded
// machine, importing its ~160 modules: zod's 95 files, yaml, the schemas and
// the checks). `npm run compile` runs this after tsc: esbuild bundles what a
// config cache miss imports (build/generator/config/load.js and
// yaml-source.js, compiled by tsc) into build/generator/config/load.bundle.cjs,
// with V8's code cache of it (load.bundle.cache), which
// generator/config/load-entry.ts runs instead of importing the two when it is
// newer than every file it was made of. The code is tsc's output, bundled as it is: no minifying,
// no other target, the packages' same files (yaml's CommonJS build, as Node
// resolves it). The runtime registry's manifests are bundled as static
// imports (runtime-modules/registry.ts finds them with import.meta.url and
// imports them at run time, which a bundle cannot follow), so the bundle
// shares one zod with them; a registry with a problem writes no bundle, and
// the CLI loads the modules one by one, as before.
//   node scripts/bundle-config.js       writes the bundle (or removes a stale one)
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const configDir = join(root, "build", "generator", "config");
export const BUNDLE = join(configDir, "load.bundle.cjs");
/** V8's code cache of the bundle, made here after loading a catalogue with it (generator/config/load-entry.ts hands it to V8). */
export const CODE_CACHE = join(configDir, "load.bundle.cache");
/** The files the bundle was made of (generator/config/load-entry.ts uses the bundle only while none of them is newer). */
export const INPUTS = join(configDir, "load.bundle.inputs.json");

async function main() {
  for (const file of [BUNDLE, INPUTS, CODE_CACHE]) rmSync(file, { force: true });
  let esbuild;
  try {
    esbuild = await import("esbuild");
  } catch {
    process.stderr.write("bundle-config: esbuild is not installed (a production install): the CLI loads the config modules one by one\n");
    return;
  }
  const registryFile = join(root, "build", "runtime-modules", "registry.js");
  statSync(registryFile);
  const { loaded } = await import(pathToFileURL(registryFile).href);
  if (loaded.problems.length) {
    process.stderr.write(`bundle-config: the registry has problems (the build reports them): no bundle\n`);
    return;
  }
  // The registry as rules-check.ts imports it: the same manifests, imported statically, by name.
  const manifests = loaded.manifests.map(({ folder }) => join(root, "build", "runtime-modules", "modules", folder, "module.js"));
  const registry = [
    ...manifests.map((file, i) => `import m${i} from ${JSON.stringify(file)};`),
    `export const registry = Object.fromEntries([${manifests.map((_, i) => `m${i}`).join(", ")}].map((m) => [m.name, m]));`,
  ].join("\n");
  const { metafile } = await esbuild.build({
    metafile: true,
    stdin: {
      contents: 'export { loadCatalogue } from "./load.js";\nexport { cachedSourceOf, parseYamlSource, sourceFromCache } from "./yaml-source.js";\n',
      resolveDir: configDir,
      sourcefile: "stdin:load.bundle.cjs",
    },
    outfile: BUNDLE,
    bundle: true,
    platform: "node",
    // A function body for node:vm (load-entry.ts), which takes a code cache where an ES module cannot on Node 20: CommonJS, with the
    // bundle's URL for import.meta.url (regex-safety.ts requires recheck from this folder on first use; it stays outside).
    format: "cjs",
    define: { "import.meta.url": "__bundleUrl" },
    target: "node20",
    logLevel: "warning",
    legalComments: "none",
    plugins: [
      {
        name: "static-registry",
        setup(build) {
          build.onResolve({ filter: /\/registry\.js$/ }, (args) =>
            join(args.resolveDir, args.path) === registryFile ? { path: registryFile, namespace: "static-registry" } : undefined,
          );
          build.onLoad({ filter: /.*/, namespace: "static-registry" }, () => ({ contents: registry, resolveDir: configDir, loader: "js" }));
        },
      },
    ],
  });
  // Relative to the bundle's folder, so that a copy of the package (with its build/) still finds them.
  const inputs = [
    registryFile,
    ...Object.keys(metafile.inputs)
      .filter((file) => !file.includes(":"))
      .map((file) => resolve(root, file)),
  ];
  writeFileSync(INPUTS, `${JSON.stringify(inputs.map((file) => relative(configDir, file)).sort())}\n`);
  if (/\bimport\(/.test(readFileSync(BUNDLE, "utf8").replace(/\/\/.*$/gm, "")))
    throw new Error("bundle-config: the bundle has a dynamic import(), which node:vm cannot run");

  // The code cache: V8's compiled code of the bundle after a catalogue was loaded with it (the shipped _org.yaml and one site), so that the
  // functions a config load runs are compiled already. V8 rejects a cache of another V8 version or flags, and then compiles as without.
  const { runBundle } = await import(pathToFileURL(join(configDir, "load-entry.js")).href);
  const { loader, script } = runBundle(pathToFileURL(BUNDLE));
  // The load runs whatever the catalogue holds (a broken shipped site is the build's to report, not the compile's): its diagnostics run code too.
  const sites = mkdtempSync(join(tmpdir(), "sitetags-bundle-config-"));
  try {
    for (const file of ["_org.yaml", "bigfuture.yaml"]) if (existsSync(join(root, "sites", file))) copyFileSync(join(root, "sites", file), join(sites, file));
    const { MODULE_NAMES } = await import(pathToFileURL(join(configDir, "module-names.js")).href);
    await loader.loadCatalogue({ sitesDir: sites, moduleNames: MODULE_NAMES });
    if (existsSync(join(sites, "_org.yaml"))) loader.cachedSourceOf(loader.parseYamlSource("_org.yaml", readFileSync(join(sites, "_org.yaml"), "utf8")).source);
  } finally {
    rmSync(sites, { recursive: true, force: true });
  }
  writeFileSync(CODE_CACHE, script.createCachedData());
}

// A bundle that cannot be made is no failed compile: the CLI imports the modules one by one as before, and the config-bundle test fails.
await main().catch((err) => {
  for (const file of [BUNDLE, INPUTS, CODE_CACHE]) rmSync(file, { force: true });
  process.stderr.write(`bundle-config: no bundle (${err instanceof Error ? err.message : String(err)}): the CLI loads the config modules one by one\n`);
});

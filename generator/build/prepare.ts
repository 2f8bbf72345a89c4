/**
 * Reads the registry (ts-morph), checks it against the config schema and
 * writes the generated entry of each module set that needs compiling. Runs on
 * a worker thread while stage A compiles the runtime on the main thread.
 */
import { mkdir, readFile, writeFile, rename } from "node:fs/promises";
import { join } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { transpileEntry, writeEntry } from "./entry.js";
import { readRegistry, type RegistryEntry } from "./registry.js";
import type { ShapeJob } from "./compile-shape.js";

export interface PrepareInput {
  root: string;
  cacheDir: string;
  runtimeHash: string;
  compiledRuntime: string;
  /** Module names the config schema offers. */
  moduleNames: string[];
  /** shape key -> module names and whether the shape carries the non-production checks */
  shapes: Array<[string, { modules: string[]; devChecks: boolean }]>;
}

export interface PrepareOutput {
  diagnostics: Diagnostic[];
  jobs: ShapeJob[];
}

export async function prepareShapes(input: PrepareInput): Promise<PrepareOutput> {
  const runtimeDir = join(input.root, "runtime-modules");
  const registryCache = join(input.cacheDir, `registry-${input.runtimeHash.slice(0, 16)}.json`);
  const diagnostics: Diagnostic[] = [];
  let registry: RegistryEntry[] | undefined;
  try {
    registry = JSON.parse(await readFile(registryCache, "utf8")) as RegistryEntry[];
  } catch {
    const read = await readRegistry(runtimeDir);
    diagnostics.push(...read.diagnostics);
    const names = read.entries.map((e) => e.name);
    for (const name of input.moduleNames) if (!names.includes(name)) diagnostics.push({ code: "BUILD_REGISTRY_INVALID", message: `module "${name}" is in the config schema but not in runtime-modules/registry.ts`, severity: "error" });
    for (const name of names) if (!input.moduleNames.includes(name)) diagnostics.push({ code: "BUILD_REGISTRY_INVALID", message: `module "${name}" is in runtime-modules/registry.ts but not in the config schema (ModulesSchema)`, severity: "error" });
    if (diagnostics.length) return { diagnostics, jobs: [] };
    registry = read.entries;
    await mkdir(input.cacheDir, { recursive: true });
    await writeFile(`${registryCache}.tmp-${process.pid}`, JSON.stringify(registry));
    await rename(`${registryCache}.tmp-${process.pid}`, registryCache);
  }
  const tsMorph = await import("ts-morph");
  const entriesDir = join(input.cacheDir, "entries");
  await mkdir(entriesDir, { recursive: true });
  const bundleConfigTypes = join(input.root, "generator", "config", "bundle-config.ts");
  const jobs: ShapeJob[] = [];
  for (const [key, { modules: names, devChecks }] of [...input.shapes].sort(([a], [b]) => a.localeCompare(b))) {
    const modules = registry.filter((r) => names.includes(r.name));
    // The typed entry, kept on disk for people and for the type-check test.
    const entryFile = join(entriesDir, `${key}.ts`);
    await writeFile(entryFile, writeEntry(tsMorph, { runtimeDir, bundleConfigTypes, entryFile, extension: "", modules, devChecks }));
    const compileSource = writeEntry(tsMorph, { runtimeDir: input.compiledRuntime, bundleConfigTypes, entryFile: null, extension: ".js", modules, devChecks });
    const moduleDirs = Object.fromEntries(modules.map((m) => [m.name, join(input.compiledRuntime, m.from.replace(/\/[^/]+$/, ""))]));
    jobs.push({ key, entry: transpileEntry(tsMorph, compileSource), moduleDirs, packageRoot: input.root });
  }
  return { diagnostics, jobs };
}

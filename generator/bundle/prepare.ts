/**
 * Reads the module manifests, checks them against the config schema, writes
 * the typed entry of each module set being built (for people and the
 * type-check test) and makes the jobs of the expression pieces needed (the
 * feature modules, the data-layer checks). Runs on a worker thread while
 * stage A compiles the runtime on the main thread.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { DEV_CHECKS_PIECE, pieceEntry, writeEntry } from "./entry.js";
import { loadTsMorph, readRegistry, type RegistryEntry } from "./registry.js";
import type { PieceJob } from "./compile-piece.js";
import { DEFERRED_PIECE } from "./deferred.js";
import { registryFile } from "./paths.js";

export interface PrepareInput {
  root: string;
  cacheDir: string;
  runtimeHash: string;
  compiledRuntime: string;
  /** Module sets being built: their typed entries are written (key -> module names, checks or not). */
  shapes: Array<[string, { modules: string[]; devChecks: boolean }]>;
  /** Expression pieces to compile: piece key -> a module name or "devChecks". */
  pieces: Array<[string, string]>;
}

export interface PrepareOutput {
  diagnostics: Diagnostic[];
  /** Module names in registry order (the order bundles hand factories to boot). */
  order: string[];
  jobs: PieceJob[];
  /**
   * The registry read from the module manifests when the cache had none for this runtime: the caller caches it (paths.ts registryFile)
   * once it knows the manifests were not edited since the build hashed them (compile.ts).
   */
  registry?: RegistryEntry[];
}

export async function prepareFromRegistry(input: PrepareInput): Promise<PrepareOutput> {
  const runtimeDir = join(input.root, "runtime-modules");
  const diagnostics: Diagnostic[] = [];
  let registry: RegistryEntry[] | undefined;
  let fresh = false;
  try {
    registry = JSON.parse(await readFile(registryFile(input.cacheDir, input.runtimeHash), "utf8")) as RegistryEntry[];
  } catch {
    // The manifests, checked both ways against the config schema and against the factory files.
    const read = await readRegistry(runtimeDir);
    diagnostics.push(...read.diagnostics);
    if (diagnostics.length) return { diagnostics, order: [], jobs: [] };
    registry = read.entries;
    fresh = true;
  }
  const jobs: PieceJob[] = [];
  for (const [key, name] of input.pieces) {
    const m = registry.find((r) => r.name === name);
    const entry =
      name === "devChecks"
        ? pieceEntry(input.compiledRuntime, DEV_CHECKS_PIECE.from, DEV_CHECKS_PIECE.export)
        : name === DEFERRED_PIECE.name
          ? pieceEntry(input.compiledRuntime, DEFERRED_PIECE.from, DEFERRED_PIECE.export)
          : m
            ? pieceEntry(input.compiledRuntime, m.from, m.factory)
            : undefined;
    if (entry) jobs.push({ key, name, kind: "expression", entry, packageRoot: input.root });
  }
  if (input.shapes.length) {
    const tsMorph = loadTsMorph();
    const entriesDir = join(input.cacheDir, "entries");
    await mkdir(entriesDir, { recursive: true });
    const bundleConfigTypes = join(input.root, "generator", "config", "bundle-config.ts");
    for (const [key, { modules: names, devChecks }] of input.shapes) {
      const entryFile = join(entriesDir, `${key}.ts`);
      await writeFile(
        entryFile,
        writeEntry(tsMorph, { runtimeDir, bundleConfigTypes, entryFile, extension: "", modules: registry.filter((r) => names.includes(r.name)), devChecks }),
      );
    }
  }
  return { diagnostics, order: registry.map((r) => r.name), jobs, ...(fresh ? { registry } : {}) };
}

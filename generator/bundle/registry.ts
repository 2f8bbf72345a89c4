/**
 * The module registry as the build uses it: each module's manifest
 * (runtime-modules/modules/NAME/module.ts, imported by
 * runtime-modules/registry.ts) checked against the config schema and the
 * module files. A manifest that cannot be loaded, a module missing on either
 * side, a settings schema that is not ModulesSchema's, a missing factory
 * file or a factory the file does not export fails the build with
 * BUILD_REGISTRY_INVALID instead of producing a broken bundle.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve, sep } from "node:path";
import type { SourceFile } from "ts-morph";
import type { z } from "zod";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { DIAGNOSTICS, type DiagnosticBody } from "../diagnostics/diagnostics.js";
import { compareText } from "../compare-text.js";
import { ModulesSchema } from "../config/schema.js";
import { folderOf, loaded as repositoryManifests, loadManifests, RUNTIME_DIR, type LoadedRegistry } from "../../runtime-modules/registry.js";

export interface RegistryEntry {
  name: string;
  factory: string;
  /** Relative to runtime-modules/, no extension. */
  from: string;
  markers: string[];
  description: string;
}

/**
 * ts-morph through require: it is CommonJS, and imported as ESM Node would
 * first scan its 1 MB for named exports.
 */
export function loadTsMorph(): typeof import("ts-morph") {
  return createRequire(import.meta.url)("ts-morph") as typeof import("ts-morph");
}

/**
 * Whether a file exports `name`, read from its syntax alone: an exported
 * function, class or const of that name, or `name` in an export list
 * (`export { x as name }`, `export { name } from "./y"`). `export *` is not
 * followed: that would take the type checker, 0.4 s of a cold build.
 */
function exportsName(source: SourceFile, name: string): boolean {
  if (source.getFunction(name)?.hasExportKeyword()) return true;
  if (source.getClass(name)?.hasExportKeyword()) return true;
  if (source.getVariableDeclaration(name)?.getVariableStatement()?.hasExportKeyword()) return true;
  return source.getExportDeclarations().some((d) => d.getNamedExports().some((s) => (s.getAliasNode()?.getText() ?? s.getName()) === name));
}

/** Line and column of `key:` in a source file (the first one), for a diagnostic. */
function positionOf(file: string, key: string | undefined): { line?: number; column?: number } {
  if (!key || !existsSync(file) || !file.endsWith(".ts")) return {};
  const text = readFileSync(file, "utf8");
  const match = new RegExp(`(^|[\\s{,])(${key.replace(/[$]/g, "\\$")}):`, "m").exec(text);
  if (!match) return {};
  const offset = match.index + match[1].length;
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

type SchemaShape = Readonly<Record<string, z.ZodType>>;

/**
 * The modules of `runtimeDir` (the repository's runtime-modules/ unless a
 * test points elsewhere; other folders are loaded from their sources, which
 * only a TypeScript-aware runner such as vitest can import), sorted by name,
 * with the problems found as diagnostics.
 */
export async function readRegistry(
  runtimeDir: string,
  schemaShape: SchemaShape = ModulesSchema.shape,
): Promise<{ entries: RegistryEntry[]; diagnostics: Diagnostic[] }> {
  const loaded: LoadedRegistry = resolve(runtimeDir) === resolve(RUNTIME_DIR) ? repositoryManifests : await loadManifests(join(runtimeDir, "modules"));
  const diagnostics: Diagnostic[] = [];
  const fail = (file: string, body: DiagnosticBody, key?: string) => diagnostics.push({ ...body, file, ...positionOf(file, key) });
  for (const p of loaded.problems) fail(p.file, DIAGNOSTICS.manifestUnusable(p.message), p.key);
  const { Project } = loadTsMorph();
  const project = new Project({
    useInMemoryFileSystem: false,
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    compilerOptions: { allowJs: false, noLib: true },
  });
  const entries: RegistryEntry[] = [];
  const names = new Set<string>();
  for (const { folder, file, manifest } of loaded.manifests) {
    const { name, factory } = manifest;
    names.add(name);
    const inSchema = Object.hasOwn(schemaShape, name) ? (schemaShape[name] as z.ZodOptional<z.ZodType>) : undefined;
    if (!inSchema) {
      fail(file, DIAGNOSTICS.manifestWithoutSchema(name), "name");
      continue;
    }
    if ((inSchema.unwrap?.() ?? inSchema) !== manifest.settings) {
      fail(file, DIAGNOSTICS.manifestWrongSchema(name), "settings");
      continue;
    }
    const from = `modules/${folder}/${factory.file}`;
    const factoryFile = join(runtimeDir, `${from}.ts`);
    if (!existsSync(factoryFile)) {
      fail(file, DIAGNOSTICS.factoryFileMissing(name, from), "file");
      continue;
    }
    if (!exportsName(project.addSourceFileAtPath(factoryFile), factory.export)) {
      fail(file, DIAGNOSTICS.factoryNotExported(name, from, factory.export), "export");
      continue;
    }
    entries.push({ name, factory: factory.export, from, markers: [...manifest.markers], description: manifest.description });
  }
  // A folder whose manifest failed to load is reported already.
  const failed = (folder: string) => loaded.problems.some((p) => p.file === folder || p.file.startsWith(folder + sep));
  for (const name of Object.keys(schemaShape)) {
    const folder = join(runtimeDir, "modules", folderOf(name));
    if (!names.has(name) && !failed(folder)) fail(join(runtimeDir, "modules"), DIAGNOSTICS.schemaWithoutManifest(name, folderOf(name)));
  }
  // By name, module `tags` last: boot creates modules in this order, and every tag family registers its hook
  // (services.tagFamilies) before `tags` loads the tags that use it, whatever the family's name.
  entries.sort((a, b) => Number(a.name === "tags") - Number(b.name === "tags") || compareText(a.name, b.name));
  return { entries, diagnostics };
}

/**
 * Reads runtime-modules/registry.ts statically with ts-morph: each module's
 * declared metadata (factory name, file, marker strings). It also checks that
 * the file exists and exports the factory, so a wrong registry fails the build
 * with BUILD_REGISTRY_INVALID instead of producing a broken bundle.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { SourceFile } from "ts-morph";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { compareText } from "../compare-text.js";

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

export async function readRegistry(runtimeDir: string): Promise<{ entries: RegistryEntry[]; diagnostics: Diagnostic[] }> {
  const { Project, Node } = loadTsMorph();
  const file = join(runtimeDir, "registry.ts");
  const diagnostics: Diagnostic[] = [];
  const fail = (message: string, line?: number) => {
    diagnostics.push({ code: "BUILD_REGISTRY_INVALID", message, file, line, column: line ? 1 : undefined, severity: "error" });
  };
  const project = new Project({ useInMemoryFileSystem: false, skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true, compilerOptions: { allowJs: false, noLib: true } });
  const source = project.addSourceFileAtPath(file);
  const decl = source.getVariableDeclaration("registry");
  let init = decl?.getInitializer();
  while (init && (Node.isSatisfiesExpression(init) || Node.isAsExpression(init) || Node.isParenthesizedExpression(init))) init = init.getExpression();
  if (!init || !Node.isObjectLiteralExpression(init)) {
    fail("expected `export const registry = { ... }` with an object literal");
    return { entries: [], diagnostics };
  }
  const entries: RegistryEntry[] = [];
  for (const prop of init.getProperties()) {
    const line = prop.getStartLineNumber();
    if (!Node.isPropertyAssignment(prop)) {
      fail("registry entries must be plain `name: { ... }` properties", line);
      continue;
    }
    const name = prop.getName().replace(/^["']|["']$/g, "");
    const value = prop.getInitializer();
    if (!value || !Node.isObjectLiteralExpression(value)) {
      fail(`module "${name}": expected an object literal`, line);
      continue;
    }
    const text = (key: string): string | undefined => {
      const p = value.getProperty(key);
      const v = p && Node.isPropertyAssignment(p) ? p.getInitializer() : undefined;
      return v && (Node.isStringLiteral(v) || Node.isNoSubstitutionTemplateLiteral(v)) ? v.getLiteralText() : undefined;
    };
    const markersProp = value.getProperty("markers");
    const markersInit = markersProp && Node.isPropertyAssignment(markersProp) ? markersProp.getInitializer() : undefined;
    const markers = markersInit && Node.isArrayLiteralExpression(markersInit) ? markersInit.getElements().filter(Node.isStringLiteral).map((e) => e.getLiteralText()) : [];
    const factory = text("factory");
    const from = text("from");
    if (!factory || !from) {
      fail(`module "${name}": needs string literals "factory" and "from"`, line);
      continue;
    }
    if (markers.length === 0) fail(`module "${name}": needs at least one marker string (for the tree-shaking check)`, line);
    const moduleFile = join(runtimeDir, `${from}.ts`);
    if (!existsSync(moduleFile)) {
      fail(`module "${name}": ${from}.ts does not exist`, line);
      continue;
    }
    const moduleSource = project.addSourceFileAtPath(moduleFile);
    if (!exportsName(moduleSource, factory)) {
      fail(`module "${name}": ${from}.ts does not export ${factory}`, line);
      continue;
    }
    entries.push({ name, factory, from, markers, description: text("description") ?? "" });
  }
  entries.sort((a, b) => compareText(a.name, b.name));
  return { entries, diagnostics };
}

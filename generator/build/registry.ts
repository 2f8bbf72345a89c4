/**
 * Reads runtime-modules/registry.ts statically with ts-morph: each module's
 * declared metadata (factory name, file, marker strings). It also checks that
 * the file exists and exports the factory, so a wrong registry fails the build
 * with BUILD_REGISTRY_INVALID instead of producing a broken bundle.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";

export interface RegistryEntry {
  name: string;
  factory: string;
  /** Relative to runtime-modules/, no extension. */
  from: string;
  markers: string[];
  description: string;
}

export async function readRegistry(runtimeDir: string): Promise<{ entries: RegistryEntry[]; diagnostics: Diagnostic[] }> {
  const { Project, Node } = await import("ts-morph");
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
    if (!moduleSource.getExportedDeclarations().has(factory)) {
      fail(`module "${name}": ${from}.ts does not export ${factory}`, line);
      continue;
    }
    entries.push({ name, factory, from, markers, description: text("description") ?? "" });
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  return { entries, diagnostics };
}

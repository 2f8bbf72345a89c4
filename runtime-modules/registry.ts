/**
 * The module registry. Node only, never bundled: every folder of
 * runtime-modules/modules/ is one module and holds its manifest, module.ts
 * (its factory's file and export, marker strings, description, commands,
 * provided values and a reference to its settings schema in ModulesSchema).
 * This file imports the manifests for real and keys them by module name.
 *
 * The generator runs compiled (build/): the compiled registry lists the
 * folders of the sources (runtime-modules/modules/) and imports their
 * compiled twins (build/runtime-modules/modules/NAME/module.js, written by
 * `npm run compile`). Under vitest it imports the sources.
 *
 * Browser code never imports this file or a module.ts (eslint.config.js and
 * test/unit/runtime-modules/source-rules.test.ts): the generated entries
 * import each factory's own file.
 */
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { z } from "zod";
import type { ModuleName, ModulesConfig } from "../generator/config/schema.js";

/** What runtime-modules/modules/FOLDER/module.ts exports by default (`satisfies ModuleManifest<"name">`). */
export interface ModuleManifest<K extends ModuleName = ModuleName> {
  /** The module's name: its key in ModulesSchema and under `modules:` in the site files; the folder is its kebab-case form. */
  name: K;
  /** The factory: a file beside the manifest (no extension) and the function it exports. */
  factory: { file: string; export: string };
  /** Strings that appear in a minified bundle if and only if the module is in it (the tree-shaking checks). */
  markers: readonly [string, ...string[]];
  description: string;
  /** The commands its instance returns (rules' `command` actions, `sitetags.commands.NAME`). */
  commands: readonly string[];
  /** The values it provides to data elements (`provided: NAME`). */
  provides: readonly string[];
  /** Its settings schema: the very schema ModulesSchema holds under `name` (without `.optional()`). */
  settings: z.ZodType<NonNullable<ModulesConfig[K]>>;
}

/** A manifest as loaded: the folder it is in and its source file. */
export interface LoadedManifest {
  folder: string;
  file: string;
  manifest: ModuleManifest;
}

/** Why a folder's manifest could not be used: its source file and, when known, the manifest key at fault. */
export interface RegistryProblem {
  file: string;
  key?: string;
  message: string;
}

export interface LoadedRegistry {
  manifests: LoadedManifest[];
  problems: RegistryProblem[];
}

const Identifier = z.string().regex(/^[A-Za-z_$][\w$]*$/, { message: "must be an identifier" });

const ManifestShape = z.strictObject({
  name: z.string().regex(/^[a-z][A-Za-z0-9]*$/, { message: "must be a camelCase name" }),
  factory: z.strictObject({
    file: z.string().regex(/^[a-z0-9][a-z0-9.-]*$/, { message: "must be a file name beside module.ts, without extension" }),
    export: Identifier,
  }),
  markers: z
    .array(z.string().min(3, { message: "a marker string has at least 3 characters" }))
    .min(1, { message: "needs at least one marker string (for the tree-shaking check)" }),
  description: z.string().min(1),
  commands: z.array(Identifier).refine((a) => new Set(a).size === a.length, { message: "lists a name twice" }),
  provides: z.array(Identifier).refine((a) => new Set(a).size === a.length, { message: "lists a name twice" }),
  settings: z.custom<z.ZodType>((v) => v instanceof z.ZodType, { message: "must be the module's settings schema (a zod schema)" }),
});

/** scoreViews -> score-views: the folder a module lives in. */
export const folderOf = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * Imports the manifest of every folder of `modulesDir` (the sources), from
 * `importDir` with `extension` (compiled twins, or the sources themselves).
 * Never throws: what cannot be used is a problem, reported by the generator
 * as BUILD_REGISTRY_INVALID.
 */
export async function loadManifests(modulesDir: string, importDir = modulesDir, extension = ".ts"): Promise<LoadedRegistry> {
  const manifests: LoadedManifest[] = [];
  const problems: RegistryProblem[] = [];
  const folders = existsSync(modulesDir)
    ? readdirSync(modulesDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  for (const folder of folders) {
    const file = join(modulesDir, folder, "module.ts");
    if (!existsSync(file)) {
      problems.push({
        file: join(modulesDir, folder),
        message: `runtime-modules/modules/${folder}/ has no module.ts (each folder there is one module, described by its manifest)`,
      });
      continue;
    }
    const target = join(importDir, folder, `module${extension}`);
    if (!existsSync(target)) {
      problems.push({ file, message: `${target} does not exist: run \`npm run compile\` (the CLI imports the compiled manifests)` });
      continue;
    }
    let value: unknown;
    try {
      value = ((await import(pathToFileURL(target).href)) as { default?: unknown }).default;
    } catch (err) {
      problems.push({ file, message: `could not be imported: ${(err as Error).message}` });
      continue;
    }
    const parsed = ManifestShape.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push({
          file,
          key: issue.path[0] === undefined ? undefined : String(issue.path[0]),
          message: `${value === undefined ? 'needs `export default { ... } satisfies ModuleManifest<"name">`' : `${issue.path.join(".") || "the default export"}: ${issue.message}`}`,
        });
      continue;
    }
    const manifest = value as ModuleManifest;
    if (folderOf(manifest.name) !== folder) {
      problems.push({ file, key: "name", message: `module "${manifest.name}" lives in runtime-modules/modules/${folderOf(manifest.name)}/, not ${folder}/` });
      continue;
    }
    manifests.push({ folder, file, manifest });
  }
  return { manifests, problems };
}

const here = fileURLToPath(import.meta.url);
const compiled = here.endsWith(".js");

/** runtime-modules/ of the sources (the compiled registry is in build/runtime-modules/). */
export const RUNTIME_DIR = compiled ? join(dirname(here), "..", "..", "runtime-modules") : dirname(here);

/** The repository's manifests and the problems found loading them. */
export const loaded: LoadedRegistry = await loadManifests(join(RUNTIME_DIR, "modules"), join(dirname(here), "modules"), compiled ? ".js" : ".ts");

/** Every module's manifest, by module name. */
export type Registry = { readonly [K in ModuleName]: ModuleManifest<K> };

/** The manifests by name. One that could not be loaded is missing, and the build fails with BUILD_REGISTRY_INVALID (generator/bundle/registry.ts). */
export const registry = Object.fromEntries(loaded.manifests.map((m) => [m.manifest.name, m.manifest])) as Registry;

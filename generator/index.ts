/**
 * The generator's Node API: what the CLI (generator/cli/), the preview and
 * the scripts (bench, docs) use. The CLI is a thin layer over these
 * functions; tests call them directly. Published as the package's main
 * export (package.json "exports"), compiled to build/generator/index.js.
 */

/* ---- The catalogue ---- */
export { loadCatalogue, type Catalogue, type LoadOptions, type ResolvedBundle, type SiteModel } from "./config/load.js";
export { jsonSchemas } from "./config/json-schema.js";

/* ---- Building ---- */
export {
  build,
  defaultPaths,
  hasDevChecks,
  readManifest,
  selectBundles,
  COMPILE_HINT,
  MODULE_NAMES,
  type BuildOptions,
  type BuildResult,
  type BundleReport,
  type Manifest,
  type ManifestEntry,
} from "./bundle/build.js";

/* ---- Diagnostics ---- */
export { formatDiagnostic, formatHeadline, toJson, DiagnosticError, type Diagnostic } from "./diagnostics/diagnostic.js";
export { DIAGNOSTIC_CODES, type DiagnosticCode } from "./diagnostics/codes.js";
export { DIAGNOSTICS, type DiagnosticBody, type DiagnosticFactory } from "./diagnostics/diagnostics.js";

/* ---- The compiler's stages, for the bench's baselines ---- */
export { readRegistry, type RegistryEntry } from "./bundle/registry.js";
export { writeEntry, CONFIG_TOKEN } from "./bundle/entry.js";
export { terserOptions } from "./bundle/compile-piece.js";
export { profileBundle, partOf, PROFILE_CONFIG, PROFILE_ENTRY, type BundleProfile } from "./bundle/profile.js";

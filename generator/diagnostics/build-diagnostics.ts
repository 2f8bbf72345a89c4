/**
 * Factories of the diagnostics of building (compiling, linking, writing
 * dist/), of `manifest merge` and of publishing.
 */
import { factory } from "./factory.js";

export const BUILD_DIAGNOSTICS = {
  /** A manifest that cannot be loaded (the registry's own reason, runtime-modules/registry.ts). */
  manifestUnusable: factory("BUILD_REGISTRY_INVALID", (reason: string) => reason),
  manifestWithoutSchema: factory(
    "BUILD_REGISTRY_INVALID",
    (module: string) => `module "${module}" has a manifest but no settings schema in ModulesSchema (generator/config/schema.ts)`,
  ),
  manifestWrongSchema: factory(
    "BUILD_REGISTRY_INVALID",
    (module: string) => `module "${module}": settings is not the schema ModulesSchema holds under "${module}" (name that schema, without .optional())`,
  ),
  factoryFileMissing: factory("BUILD_REGISTRY_INVALID", (module: string, from: string) => `module "${module}": ${from}.ts does not exist`),
  factoryNotExported: factory(
    "BUILD_REGISTRY_INVALID",
    (module: string, from: string, name: string) => `module "${module}": ${from}.ts does not export ${name}`,
  ),
  schemaWithoutManifest: factory(
    "BUILD_REGISTRY_INVALID",
    (module: string, folder: string) => `module "${module}" is in ModulesSchema but has no manifest (runtime-modules/modules/${folder}/module.ts)`,
  ),
  prepareFailed: factory("BUILD_COMPILE_ERROR", (reason: string) => `reading the registry and writing the typed entries: ${reason}`),
  pieceFailed: factory("BUILD_COMPILE_ERROR", (piece: string, reason: string) => `runtime piece ${piece}: ${reason}`),
  /** A linked bundle's hashes and compressed sizes could not be measured (bundle/measure.ts: its measuring thread failed or stopped). */
  measureFailed: factory("BUILD_COMPILE_ERROR", (bundle: string, reason: string) => `bundle ${bundle}: measuring its hashes and compressed sizes: ${reason}`),
  /** A rollup or TypeScript warning turned error, its plugin prefixes removed. */
  compileError: factory("BUILD_COMPILE_ERROR", (message: string) =>
    message
      .replace(/^\[plugin typescript\]\s*/, "")
      .replace(/^.*?\(\d+:\d+\):\s*/, "")
      .replace(/^@rollup\/plugin-typescript\s*/, ""),
  ),
  /** A file the runtime hash covers (hash.ts runtimeChange), written while the build ran: nothing built from it is cached or written. */
  inputsChanged: factory(
    "BUILD_INPUTS_CHANGED",
    (file: string, during: string) =>
      `${file} changed while the build ${during}, so what it built may not be the runtime as it is now: nothing was cached or written to dist/; build again`,
  ),
  forbiddenCode: factory(
    "BUILD_FORBIDDEN_CODE",
    (bundle: string, what: string) => `bundle ${bundle} contains ${what}, which the page's Content-Security-Policy forbids`,
  ),
  overBudget: factory(
    "BUILD_OVER_BUDGET",
    (bundle: string, gzipBytes: number, budget: number, moduleBytes: Record<string, number>) =>
      `bundle ${bundle} is ${gzipBytes} bytes gzipped, ${gzipBytes - budget} over its budget of ${budget} (modules: ${Object.entries(moduleBytes)
        .map(([m, b]) => `${m} ${b}`)
        .join(", ")} minified bytes)`,
  ),
  writeFailed: factory("BUILD_WRITE_FAILED", (reason: string) => reason),
} as const;

export const MERGE_DIAGNOSTICS = {
  notAShard: factory("MERGE_NOT_A_SHARD", (dir: string) => `${dir} holds no partial manifest (manifest.json of a build --shard I/N)`),
  differentBuilds: factory(
    "MERGE_DIFFERENT_BUILDS",
    (dir: string, firstDir: string, what: string) => `${dir} is a shard of another build than ${firstDir}: ${what}`,
  ),
  shardTwice: factory("MERGE_OVERLAP", (shard: string, dirs: readonly string[]) => `shard ${shard} is given twice: ${dirs.join(", ")}`),
  bundleTwice: factory("MERGE_OVERLAP", (bundle: string, dirA: string, dirB: string) => `${bundle} is in two shards: ${dirA} and ${dirB}`),
  shardsMissing: factory(
    "MERGE_MISSING",
    (shards: readonly string[]) => `shard${shards.length > 1 ? "s" : ""} ${shards.join(", ")} missing: their bundles would be missing from the merged dist`,
  ),
  bundleCount: factory("MERGE_MISSING", (held: number, selected: number) => `the shards hold ${held} bundles; the build selected ${selected}`),
  bundlesMissing: factory("MERGE_MISSING", (bundles: readonly string[]) => `no shard holds ${bundles.join(", ")}`),
  inputsDiffer: factory(
    "MERGE_INPUTS_DIFFER",
    (bundle: string, dirA: string, hashA: string, dirB: string, hashB: string) =>
      `${bundle} was built from different inputs in ${dirA} (inputsHash ${hashA}) and ${dirB} (${hashB})`,
  ),
  fileMissing: factory("MERGE_BAD_FILE", (file: string) => `${file} is missing`),
  fileMismatch: factory("MERGE_BAD_FILE", (file: string) => `${file} does not match its manifest entry (integrity, alias or content hash)`),
} as const;

export const PUBLISH_DIAGNOSTICS = {
  /** The store's (or the SDK's) error: its name unless a plain Error, and its message. */
  publishFailed: factory("PUBLISH_FAILED", (err: Error) => `${err.name === "Error" ? "" : `${err.name}: `}${err.message}`),
  partialDist: factory(
    "PUBLISH_PARTIAL_DIST",
    (dir: string) => `${dir} holds one shard's partial manifest: merge the shards first (sitetags manifest merge DIR…)`,
  ),
  nothingToPublish: factory(
    "PUBLISH_NOTHING_TO_PUBLISH",
    (manifest: string, selected: boolean) => `${manifest} lists no bundle${selected ? " of the selection" : ""}: build first`,
  ),
  notInManifest: factory(
    "PUBLISH_NOTHING_TO_PUBLISH",
    (dir: string, bundle: string) => `the manifest of ${dir} has no ${bundle}: build it first (the pinned tag names its bytes)`,
  ),
  sourceReleaseEmpty: factory("PUBLISH_NOTHING_TO_PUBLISH", (release: string) => `the source's release ${release} holds no bundle of the selection`),
  distMismatch: factory("PUBLISH_DIST_MISMATCH", (file: string) => `${file} does not match its manifest entry's integrity: rebuild`),
  noRelease: factory("PUBLISH_NO_RELEASE", (target: string, release: string) => `${target} has no release ${release}`),
  noReleaseListed: factory(
    "PUBLISH_NO_RELEASE",
    (target: string, release: string) => `${target} has no release ${release} (sitetags releases --to ${target} lists them)`,
  ),
  nothingPublished: factory("PUBLISH_NO_RELEASE", (source: string) => `${source} has published nothing`),
  promoteNoBundle: factory("PUBLISH_PROMOTE_REFUSED", (toEnv: string, site: string) => `the configuration has no ${toEnv} bundle for ${site}`),
  promoteDiffers: factory(
    "PUBLISH_PROMOTE_REFUSED",
    (fromEnv: string, toEnv: string, site: string, keys: readonly string[]) =>
      `${fromEnv} and ${toEnv} build different bundles for ${site}: they differ in ${keys.join(", ")}`,
  ),
  promoteStale: factory(
    "PUBLISH_PROMOTE_REFUSED",
    (bundle: string, inputsHash: string, now: string) =>
      `${bundle} in the source was built from other inputs (inputsHash ${inputsHash}) than the configuration, runtime and toolchain give now (${now}): build and publish it to the source first`,
  ),
} as const;

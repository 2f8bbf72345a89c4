/**
 * Where a config cache miss loads the YAML loader and the checks from
 * (issue #21: a one-site rebuild at 600 sites spent 0.35-0.5 s of CPU, and
 * up to a second of wall time on a loaded machine, importing their ~160
 * modules one by one, then compiling the functions a load runs).
 * `npm run compile` bundles load.js and yaml-source.js with what they import
 * (zod, yaml, the schemas, the checks, the module manifests) into one
 * CommonJS file, load.bundle.cjs, and keeps V8's code cache of it after a
 * load (load.bundle.cache; scripts/bundle-config.js). It is run here through
 * node:vm, which takes the code cache (Node 20 has none for ES modules), when
 * it is newer than every file it was made of (the list beside it), so a tsc
 * run or a package update without the bundling step never runs an older
 * bundle. Otherwise (the sources under vitest, a production install without
 * esbuild) the modules are imported as they are.
 */
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";

export type ConfigLoader = typeof import("./load.js") & typeof import("./yaml-source.js");

let loader: Promise<ConfigLoader> | undefined;

const mtime = (url: URL) => statSync(fileURLToPath(url), { throwIfNoEntry: false })?.mtimeMs;

/**
 * `bundle` when it can be used: it exists and is newer than every file it was made of (the list beside it, `load.bundle.inputs.json`,
 * each relative to the bundle's folder); undefined otherwise.
 */
export function freshBundle(bundle: URL): URL | undefined {
  const built = mtime(bundle);
  if (built === undefined) return undefined;
  let inputs: unknown;
  try {
    inputs = JSON.parse(readFileSync(new URL("./load.bundle.inputs.json", bundle), "utf8"));
  } catch {
    return undefined;
  }
  if (!Array.isArray(inputs) || !inputs.length) return undefined;
  const fresh = inputs.every((file) => {
    const m = typeof file === "string" ? mtime(new URL(file, bundle)) : undefined;
    return m !== undefined && m <= built;
  });
  return fresh ? bundle : undefined;
}

/**
 * Runs the CommonJS bundle as Node would (one function of exports, require, module, its file and folder, and its URL for import.meta.url),
 * compiled with `cachedData` (V8 rejects a cache of another V8 version, flags or source, and compiles as without). The script is returned
 * for its code cache (scripts/bundle-config.js).
 */
export function runBundle(bundle: URL, cachedData?: Buffer): { loader: ConfigLoader; script: Script } {
  const file = fileURLToPath(bundle);
  // On the bundle's first line, so that a stack trace's line numbers are the file's.
  const source = `(function (exports, require, module, __filename, __dirname, __bundleUrl) {${readFileSync(file, "utf8")}\n})`;
  const script = new Script(source, { filename: file, cachedData });
  const module = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, dirname(file), bundle.href);
  return { loader: module.exports as ConfigLoader, script };
}

/** loadCatalogue and the YAML source helpers: from the bundle, or from their modules. */
export function configLoader(): Promise<ConfigLoader> {
  return (loader ??= importLoader());
}

function importLoader(): Promise<ConfigLoader> {
  // Only the compiled generator has a bundle beside it (under vitest this module is the TypeScript source).
  const url = import.meta.url.endsWith(".js") ? freshBundle(new URL("./load.bundle.cjs", import.meta.url)) : undefined;
  if (url) {
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(new URL("./load.bundle.cache", url));
    } catch {
      cachedData = undefined;
    }
    try {
      return Promise.resolve(runBundle(url, cachedData).loader);
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }
  return Promise.all([import("./load.js"), import("./yaml-source.js")]).then(([load, source]) => ({ ...load, ...source }));
}

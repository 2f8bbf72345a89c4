/**
 * Stage B: bundles one module set ("shape") into a minified IIFE with rollup
 * and terser. Runs in worker threads. The config placeholder survives
 * minification as a global identifier and is spliced per bundle afterwards.
 */
import type { RollupCache } from "rollup";
import { CONFIG_TOKEN } from "./entry.js";

export interface ShapeJob {
  key: string;
  /** Transpiled entry (JS) with absolute imports into the compiled runtime. */
  entry: string;
  /** Module name -> directory prefix (absolute, compiled runtime) for per-module sizes. */
  moduleDirs: Record<string, string>;
  /** Where node_modules is, for bare imports of browser packages. */
  packageRoot: string;
}

export interface ShapeResult {
  key: string;
  code: string;
  /** Bytes per module (core and each feature module), minified estimate. */
  moduleBytes: Record<string, number>;
}

const ENTRY_ID = "\0sitetags-entry";
let cache: RollupCache | undefined;

export const TERSER_OPTIONS = {
  ecma: 2020 as const,
  toplevel: true,
  compress: { passes: 2, pure_getters: true, booleans_as_integers: false },
  mangle: { toplevel: true },
  format: { comments: false },
};

/** Loads rollup and terser ahead of the first job. */
export async function warmUp(): Promise<void> {
  await Promise.all([import("rollup"), import("terser"), import("@rollup/plugin-node-resolve")]);
}

export async function compileShape(job: ShapeJob): Promise<ShapeResult> {
  const { rollup } = await import("rollup");
  const { minify } = await import("terser");
  const { nodeResolve } = await import("@rollup/plugin-node-resolve");
  const bundle = await rollup({
    input: ENTRY_ID,
    cache,
    treeshake: { moduleSideEffects: (id) => id === ENTRY_ID, propertyReadSideEffects: false },
    plugins: [
      {
        name: "sitetags-entry",
        resolveId: (id) => (id === ENTRY_ID ? id : null),
        load: (id) => (id === ENTRY_ID ? job.entry : null),
      },
      // Browser packages the runtime uses (web-vitals), from node_modules.
      nodeResolve({ browser: true, rootDir: job.packageRoot, modulePaths: [`${job.packageRoot}/node_modules`] }),
    ],
    onwarn(warning) {
      throw new Error(`rollup: ${warning.message}`);
    },
  });
  cache = bundle.cache;
  const { output } = await bundle.generate({ format: "iife", strict: true, compact: true });
  await bundle.close();
  const chunk = output[0];
  const minified = await minify(chunk.code, TERSER_OPTIONS);
  const code = minified.code!;
  if (code.split(CONFIG_TOKEN).length !== 2) throw new Error(`the config placeholder must appear exactly once in the minified bundle`);
  const rendered: Record<string, number> = { core: 0 };
  for (const [id, info] of Object.entries(chunk.modules)) {
    const owner = Object.entries(job.moduleDirs).find(([, dir]) => id.startsWith(dir))?.[0] ?? "core";
    rendered[owner] = (rendered[owner] ?? 0) + info.renderedLength;
  }
  const total = Object.values(rendered).reduce((a, b) => a + b, 0) || 1;
  const moduleBytes: Record<string, number> = {};
  for (const [name, length] of Object.entries(rendered)) moduleBytes[name] = Math.round((length / total) * code.length);
  return { key: job.key, code, moduleBytes };
}

/**
 * Stage B: compiles one piece of the runtime with rollup and terser, on a
 * worker thread. Bundles are linked from pieces (build.ts): the core is one
 * minified IIFE, the same for every bundle, holding three placeholders (the
 * config, the module factories, the data-layer checks); each feature module
 * and the data-layer checks are a minified expression (an IIFE returning the
 * factory or the validator) spliced into the core's placeholders. So a cold
 * build runs terser once per piece (core, five modules, the checks) instead
 * of once per module set and environment kind.
 */
import type { RollupCache } from "rollup";
import { CONFIG_TOKEN, DEV_CHECKS_TOKEN, MODULES_TOKEN } from "./entry.js";
import { DEFERRED_TOKEN } from "./deferred.js";

export interface PieceJob {
  /** Cache key (runtime hash + piece name). */
  key: string;
  /** A core ("core.KEY", one per rule feature set: plan.ts coreOf), "devChecks" or a module name. */
  name: string;
  /** The core is a whole program; every other piece is an expression. */
  kind: "core" | "expression";
  /** Entry source (JS) with absolute imports into the compiled runtime. */
  entry: string;
  /** Where node_modules is, for bare imports of browser packages (web-vitals). */
  packageRoot: string;
  /** Also return a source map of the minified code (the size profile, profile.ts; builds never ask): the same code either way. */
  sourceMap?: boolean;
}

export interface PieceResult {
  key: string;
  name: string;
  /** Minified code: the core with its placeholders, or an expression. */
  code: string;
  /** With job.sourceMap: the map of `code` to the compiled runtime's files (version 3; an expression's map keeps the stripped head's columns, `mapOffset`). */
  map?: { sources: string[]; mappings: string };
  /** How many characters were stripped from the start of the minified expression (its map's columns count them). */
  mapOffset?: number;
}

/** The variable rollup assigns an expression piece to; stripped after minification. */
export const PIECE_VAR = "__SITETAGS_PIECE__";

const ENTRY_ID = "\0sitetags-entry";
const caches: Partial<Record<PieceJob["kind"], RollupCache>> = {};

/**
 * The bundles' terser options, a fresh object per call (terser writes into
 * the options it is given). An expression piece keeps its one top-level
 * variable (PIECE_VAR); everything inside its function is mangled as usual.
 */
export function terserOptions(kind: PieceJob["kind"] = "core") {
  const toplevel = kind === "core";
  return {
    ecma: 2020 as const,
    toplevel,
    compress: { passes: 2, pure_getters: true, booleans_as_integers: false },
    mangle: { toplevel },
    format: { comments: false },
  };
}

/** Loads rollup and terser ahead of the first job. */
export async function warmUp(): Promise<void> {
  await Promise.all([import("rollup"), import("terser"), import("@rollup/plugin-node-resolve")]);
}

export async function compilePiece(job: PieceJob): Promise<PieceResult> {
  const { rollup } = await import("rollup");
  const { minify } = await import("terser");
  const { nodeResolve } = await import("@rollup/plugin-node-resolve");
  const bundle = await rollup({
    input: ENTRY_ID,
    cache: caches[job.kind],
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
  caches[job.kind] = bundle.cache;
  const core = job.kind === "core";
  const sourcemap = !!job.sourceMap;
  const { output } = await bundle.generate(
    core
      ? { format: "iife", strict: true, compact: true, sourcemap }
      : { format: "iife", strict: true, compact: true, name: PIECE_VAR, exports: "default", sourcemap },
  );
  await bundle.close();
  const minified = await minify(
    output[0].code,
    sourcemap ? { ...terserOptions(job.kind), sourceMap: { content: JSON.stringify(output[0].map), asObject: true } } : terserOptions(job.kind),
  );
  let code = minified.code!;
  const map = sourcemap ? (minified.map as unknown as { sources: string[]; mappings: string }) : undefined;
  if (core) {
    for (const token of [CONFIG_TOKEN, MODULES_TOKEN, DEV_CHECKS_TOKEN, DEFERRED_TOKEN]) {
      if (code.split(token).length !== 2) throw new Error(`the placeholder ${token} must appear exactly once in the minified core`);
    }
  } else {
    const head = `var ${PIECE_VAR}=`;
    if (!code.startsWith(head) || code.indexOf(PIECE_VAR, head.length) >= 0)
      throw new Error(`piece ${job.name}: unexpected minified shape: ${code.slice(0, 60)}`);
    code = code.slice(head.length).replace(/;\s*$/, "");
    if (map) return { key: job.key, name: job.name, code, map, mapOffset: head.length };
  }
  return map ? { key: job.key, name: job.name, code, map, mapOffset: 0 } : { key: job.key, name: job.name, code };
}

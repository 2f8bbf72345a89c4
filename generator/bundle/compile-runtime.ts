/**
 * Stage A: compiles runtime-modules/ once (per runtime source hash) with
 * rollup and @rollup/plugin-typescript to ES modules in the cache, without
 * tree-shaking (stage B shakes each piece). Transpile
 * only (noCheck, no lib or import resolution beyond the sources): the types
 * are checked by `npm run typecheck`, part of `npm test`, so the build stays
 * fast. Syntax errors still fail the build with file:line:col.
 * Stage B (compile-piece.ts) bundles the runtime's pieces from that output.
 */
import { mkdir, rename, rm } from "node:fs/promises";
import { existsSync, readFileSync } from "node:fs";
import { codeFrame } from "../diagnostics/diagnostic.js";
import { join, relative } from "node:path";
import { createRequire } from "node:module";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { DIAGNOSTICS } from "../diagnostics/diagnostics.js";
import { listFiles } from "../walk.js";
import { runtimeChange, type RuntimeSnapshot } from "./hash.js";

/**
 * The Node-side files of runtime-modules/: the registry and the module
 * manifests (modules/NAME/module.ts). Metadata for the generator, never
 * compiled for the browser (they import zod and Node modules).
 */
export function isNodeSide(runtimeDir: string, file: string): boolean {
  const rel = relative(runtimeDir, file).split("\\").join("/");
  return rel === "registry.ts" || /^modules\/[^/]+\/module\.ts$/.test(rel);
}

/** The runtime's browser sources: its TypeScript files, declaration files and the Node-side files left out. */
const runtimeSources = (dir: string) => listFiles(dir, { include: (name, full) => name.endsWith(".ts") && !name.endsWith(".d.ts") && !isNodeSide(dir, full) });

export interface RuntimeCompileOptions {
  root: string;
  runtimeDir: string;
  /** Final output directory (created atomically). */
  outDir: string;
  /**
   * Which source is no longer as it was when the key outDir is named by was
   * computed (undefined: none), asked after the compile: a source edited
   * while the build ran would otherwise be cached under the hash of the
   * sources before the edit.
   */
  changed?: () => string | undefined;
}

/** What stage A's compile of the runtime needs on its thread (runtime-worker.ts) or in-process (pool.ts compileRuntimeInWorker). */
export interface RuntimeInWorker {
  root: string;
  runtimeDir: string;
  outDir: string;
  /** The sources as the build hashed them (hash.ts snapshotRuntime; the output is named by its hash): a source written since is not cached under it. */
  snapshot: RuntimeSnapshot;
}

/**
 * compileRuntime for `input`, its output kept only if every source is, after the compile, as the build's snapshot found it before hashing
 * it (runtimeChange: a write since, even one that put the same bytes back, means the compile may have read other bytes than were hashed).
 * One closure for the worker and the in-process fallback.
 */
export function compileRuntimeAt(input: RuntimeInWorker): Promise<Diagnostic[]> {
  const { root, runtimeDir, outDir, snapshot } = input;
  return compileRuntime({ root, runtimeDir, outDir, changed: () => runtimeChange(root, snapshot) });
}

/** Whether the runtime is compiled into `outDir` already: its boot/boot.js, written last by the atomic rename, exists. */
export const runtimeCompiled = (outDir: string): boolean => existsSync(join(outDir, "boot", "boot.js"));

export async function compileRuntime(options: RuntimeCompileOptions): Promise<Diagnostic[]> {
  if (runtimeCompiled(options.outDir)) return [];
  const { rollup } = await import("rollup");
  // The plugin's CommonJS build, through require: it requires TypeScript as
  // CommonJS too. Imported as ESM, Node first scans all of typescript.js
  // (9 MB) for its named exports, about 0.3 s of a cold build.
  const typescript = createRequire(import.meta.url)("@rollup/plugin-typescript") as (options: Record<string, unknown>) => import("rollup").Plugin;
  const diagnostics: Diagnostic[] = [];
  // Every runtime source is an input (the registry and the manifests are metadata, never bundled).
  const input: Record<string, string> = {};
  for (const file of runtimeSources(options.runtimeDir)) input[relative(options.runtimeDir, file).replace(/\.ts$/, "")] = file;
  const toDiagnostic = (w: { message: string; loc?: { file?: string; line: number; column: number }; id?: string; plugin?: string }): Diagnostic => {
    const file = w.loc?.file ?? w.id;
    const line = w.loc?.line;
    // plugin-typescript reports 1-based columns; rollup's own are 0-based.
    const column = w.loc ? w.loc.column + (w.plugin === "typescript" ? 0 : 1) : undefined;
    let frame: string | undefined;
    try {
      if (file && line && column) frame = codeFrame(readFileSync(file, "utf8"), line, column);
    } catch {
      frame = undefined;
    }
    return {
      ...DIAGNOSTICS.compileError(w.message),
      file: file ? relative(process.cwd(), file) : undefined,
      line,
      column,
      frame,
    };
  };
  const tmp = `${options.outDir}.tmp-${process.pid}`;
  let bundle: import("rollup").RollupBuild | undefined;
  try {
    bundle = await rollup({
      input,
      plugins: [
        typescript({
          tsconfig: join(options.root, "tsconfig.runtime.json"),
          noEmitOnError: true,
          outputToFilesystem: false,
          compilerOptions: { declaration: false, sourceMap: false, noCheck: true, noResolve: true, lib: ["es5"], types: [] },
        }),
      ],
      // No tree-shaking here: stage B tree-shakes each piece; shaking every file now would be done twice.
      treeshake: false,
      // Bare imports (browser packages such as web-vitals) stay imports here; stage B resolves them.
      external: (id) => !id.startsWith(".") && !id.startsWith("/") && !id.startsWith("\0"),
      onwarn(warning) {
        if (warning.plugin === "typescript" || warning.code === "PLUGIN_WARNING") diagnostics.push(toDiagnostic(warning));
        else if (warning.code !== "EMPTY_BUNDLE") diagnostics.push({ ...toDiagnostic(warning), severity: "warning" });
      },
    });
    if (diagnostics.some((d) => d.severity === "error")) return diagnostics;
    await rm(tmp, { recursive: true, force: true });
    await bundle.write({ dir: tmp, format: "es", preserveModules: true, preserveModulesRoot: options.runtimeDir, entryFileNames: "[name].js" });
    const changed = options.changed?.();
    if (changed !== undefined) {
      await rm(tmp, { recursive: true, force: true });
      return [DIAGNOSTICS.inputsChanged(changed, "compiled the runtime (stage A)")];
    }
    await mkdir(join(options.outDir, ".."), { recursive: true });
    // Another build sharing this cache may have finished first: same inputs, same output.
    await rename(tmp, options.outDir).catch(async (err: NodeJS.ErrnoException) => {
      if (!existsSync(join(options.outDir, "boot", "boot.js"))) throw err;
      await rm(tmp, { recursive: true, force: true });
    });
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    diagnostics.push(toDiagnostic(err as Parameters<typeof toDiagnostic>[0]));
  } finally {
    await bundle?.close().catch(() => undefined);
  }
  return diagnostics.filter((d) => d.severity === "error");
}

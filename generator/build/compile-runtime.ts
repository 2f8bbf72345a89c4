/**
 * Stage A: compiles runtime-modules/ once (per runtime source hash) with
 * rollup and @rollup/plugin-typescript, type-checked, to ES modules in the
 * cache. Stage B (compile-shape.ts) bundles each module set from that output.
 */
import { mkdir, rename, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { RegistryEntry } from "./registry.js";

export interface RuntimeCompileOptions {
  root: string;
  runtimeDir: string;
  registry: RegistryEntry[];
  /** Final output directory (created atomically). */
  outDir: string;
}

export async function compileRuntime(options: RuntimeCompileOptions): Promise<Diagnostic[]> {
  if (existsSync(join(options.outDir, "core", "boot.js"))) return [];
  const { rollup } = await import("rollup");
  const pluginModule = (await import("@rollup/plugin-typescript")) as unknown as { default: (options: Record<string, unknown>) => import("rollup").Plugin };
  const typescript = pluginModule.default;
  const diagnostics: Diagnostic[] = [];
  const input: Record<string, string> = { "core/boot": join(options.runtimeDir, "core", "boot.ts") };
  for (const m of options.registry) input[m.from] = join(options.runtimeDir, `${m.from}.ts`);
  const toDiagnostic = (w: { message: string; loc?: { file?: string; line: number; column: number }; frame?: string; id?: string }): Diagnostic => ({
    code: "BUILD_COMPILE_ERROR",
    message: w.message.replace(/^\[plugin typescript\]\s*/, "").replace(/^@rollup\/plugin-typescript\s*/, ""),
    file: w.loc?.file ? relative(process.cwd(), w.loc.file) : w.id ? relative(process.cwd(), w.id) : undefined,
    line: w.loc?.line,
    column: w.loc ? w.loc.column + 1 : undefined,
    severity: "error",
    frame: w.frame,
  });
  const tmp = `${options.outDir}.tmp-${process.pid}`;
  let bundle: import("rollup").RollupBuild | undefined;
  try {
    bundle = await rollup({
      input,
      plugins: [typescript({ tsconfig: join(options.root, "tsconfig.runtime.json"), noEmitOnError: true, outputToFilesystem: false, compilerOptions: { declaration: false, sourceMap: false, noCheck: true, noResolve: true, lib: ["es5"], types: [] } })],
      onwarn(warning) {
        if (warning.plugin === "typescript" || warning.code === "PLUGIN_WARNING") diagnostics.push(toDiagnostic(warning));
        else if (warning.code !== "EMPTY_BUNDLE") diagnostics.push({ ...toDiagnostic(warning), severity: "warning" });
      },
    });
    if (diagnostics.some((d) => d.severity === "error")) return diagnostics;
    await rm(tmp, { recursive: true, force: true });
    await bundle.write({ dir: tmp, format: "es", preserveModules: true, preserveModulesRoot: options.runtimeDir, entryFileNames: "[name].js" });
    await mkdir(join(options.outDir, ".."), { recursive: true });
    await rm(options.outDir, { recursive: true, force: true });
    await rename(tmp, options.outDir);
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    diagnostics.push(toDiagnostic(err as Parameters<typeof toDiagnostic>[0]));
  } finally {
    await bundle?.close().catch(() => undefined);
  }
  return diagnostics.filter((d) => d.severity === "error");
}

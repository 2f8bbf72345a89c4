/**
 * Stage A's cache entry is named by the hash of the runtime's sources
 * (generator/bundle/hash.ts). A source edited while the compile runs must not
 * be cached under the hash of the sources before the edit: the next build
 * with those earlier sources would reuse code they do not contain.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileRuntime, compileRuntimeAt } from "../../../generator/bundle/compile-runtime.js";
import { compileRuntimeInWorker } from "../../../generator/bundle/pool.js";

const root = resolve(__dirname, "../../..");
const tmp = mkdtempSync(join(tmpdir(), "sitetags-compile-runtime-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function runtime(): string {
  const dir = join(tmp, "runtime-modules");
  mkdirSync(join(dir, "boot"), { recursive: true });
  // Plain JavaScript: the TypeScript plugin transforms only the files tsconfig.runtime.json includes.
  writeFileSync(join(dir, "boot", "boot.ts"), "export function boot() {\n  return 1;\n}\n");
  return dir;
}

describe("stage A: the compiled runtime is cached only under the hash of what it was compiled from", () => {
  it("sources that still hash as at the start: the output is cached", async () => {
    const outDir = join(tmp, "cache", "current");
    const diagnostics = await compileRuntime({ root, runtimeDir: runtime(), outDir, stillCurrent: () => true });
    expect(diagnostics).toEqual([]);
    expect(existsSync(join(outDir, "boot", "boot.js"))).toBe(true);
  });
  it("sources edited during the compile: nothing is cached, and the build fails with BUILD_COMPILE_ERROR asking to build again", async () => {
    const outDir = join(tmp, "cache", "edited");
    const diagnostics = await compileRuntime({ root, runtimeDir: runtime(), outDir, stillCurrent: () => false });
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: "BUILD_COMPILE_ERROR", severity: "error" });
    expect(diagnostics[0]!.message).toMatch(/changed while the build compiled them; nothing was cached: build again$/);
    expect(existsSync(outDir)).toBe(false);
    expect(existsSync(`${outDir}.tmp-${process.pid}`)).toBe(false);
  });
});

describe("stage A through the pool (compileRuntimeInWorker) and its one check of the sources (compileRuntimeAt)", () => {
  it("a runtime already compiled under its hash is not compiled again: no thread, its sources not even read", async () => {
    const outDir = join(tmp, "cache", "done");
    mkdirSync(join(outDir, "boot"), { recursive: true });
    writeFileSync(join(outDir, "boot", "boot.js"), "export function boot() {}\n");
    const diagnostics = await compileRuntimeInWorker({ root, runtimeDir: join(tmp, "no-such-runtime"), outDir, runtimeHash: "0".repeat(64) });
    expect(diagnostics).toEqual([]);
  });
  it("the output is kept only if the sources still hash to the runtime hash it is named by (here they do not: nothing is cached)", async () => {
    const stale = join(tmp, "cache", "at-stale");
    const diagnostics = await compileRuntimeAt({ root, runtimeDir: runtime(), outDir: stale, runtimeHash: "0".repeat(64) });
    expect(diagnostics.map((d) => d.code)).toEqual(["BUILD_COMPILE_ERROR"]);
    expect(diagnostics[0]!.message).toMatch(/changed while the build compiled them/);
    expect(existsSync(stale)).toBe(false);
  });
});

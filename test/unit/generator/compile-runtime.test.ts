/**
 * Stage A's cache entry is named by the hash of the runtime's sources
 * (generator/bundle/hash.ts). A source edited while the compile runs must not
 * be cached under the hash of the sources before the edit: the next build
 * with those earlier sources would reuse code they do not contain.
 */
import { copyFileSync, mkdtempSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileRuntime, compileRuntimeAt } from "../../../generator/bundle/compile-runtime.js";
import { compileRuntimeInWorker } from "../../../generator/bundle/pool.js";
import { computeRuntimeHash, runtimeChange, snapshotRuntime } from "../../../generator/bundle/hash.js";

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

/** A root of its own (the tsconfigs and a one-file runtime), so that its snapshot covers the runtime compiled. */
function rootCopy(name: string): { root: string; boot: string } {
  const dir = join(tmp, name);
  mkdirSync(join(dir, "runtime-modules", "boot"), { recursive: true });
  for (const f of ["tsconfig.base.json", "tsconfig.runtime.json"]) copyFileSync(join(root, f), join(dir, f));
  const boot = join(dir, "runtime-modules", "boot", "boot.ts");
  writeFileSync(boot, "export function boot() {\n  return 1;\n}\n");
  return { root: dir, boot };
}

describe("stage A: the compiled runtime is cached only under the hash of what it was compiled from", () => {
  it("sources that still hash as at the start: the output is cached", async () => {
    const outDir = join(tmp, "cache", "current");
    const diagnostics = await compileRuntime({ root, runtimeDir: runtime(), outDir, changed: () => undefined });
    expect(diagnostics).toEqual([]);
    expect(existsSync(join(outDir, "boot", "boot.js"))).toBe(true);
  });
  it("sources edited during the compile: nothing is cached, and the build fails with BUILD_INPUTS_CHANGED naming the file, asking to build again", async () => {
    const outDir = join(tmp, "cache", "edited");
    const diagnostics = await compileRuntime({ root, runtimeDir: runtime(), outDir, changed: () => "runtime-modules/boot/boot.ts" });
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: "BUILD_INPUTS_CHANGED", severity: "error" });
    expect(diagnostics[0]!.message).toMatch(/^runtime-modules\/boot\/boot\.ts changed while the build compiled the runtime \(stage A\), so .*build again$/);
    expect(existsSync(outDir)).toBe(false);
    expect(existsSync(`${outDir}.tmp-${process.pid}`)).toBe(false);
  });
});

describe("stage A through the pool (compileRuntimeInWorker) and its one check of the sources (compileRuntimeAt)", () => {
  it("a runtime already compiled under its hash is not compiled again: no thread, its sources not even read", async () => {
    const outDir = join(tmp, "cache", "done");
    mkdirSync(join(outDir, "boot"), { recursive: true });
    writeFileSync(join(outDir, "boot", "boot.js"), "export function boot() {}\n");
    const diagnostics = await compileRuntimeInWorker({
      root,
      runtimeDir: join(tmp, "no-such-runtime"),
      outDir,
      snapshot: { hash: "0".repeat(64), files: {}, racy: {} },
    });
    expect(diagnostics).toEqual([]);
  });
  it("the output is kept only if every source is still as the build's snapshot found it before hashing it", async () => {
    const { root: copy, boot } = rootCopy("at-current");
    const current = join(copy, "cache", "current");
    expect(await compileRuntimeAt({ root: copy, runtimeDir: join(copy, "runtime-modules"), outDir: current, snapshot: snapshotRuntime(copy) })).toEqual([]);
    expect(existsSync(join(current, "boot", "boot.js"))).toBe(true);

    const snapshot = snapshotRuntime(copy);
    writeFileSync(boot, "export function boot() {\n  return 2;\n}\n");
    const stale = join(copy, "cache", "stale");
    const diagnostics = await compileRuntimeAt({ root: copy, runtimeDir: join(copy, "runtime-modules"), outDir: stale, snapshot });
    expect(diagnostics.map((d) => d.code)).toEqual(["BUILD_INPUTS_CHANGED"]);
    expect(diagnostics[0]!.message).toMatch(/^runtime-modules\/boot\/boot\.ts changed while the build compiled the runtime/);
    expect(existsSync(stale)).toBe(false);
  });
  it('"compare what it hashed with what it compiled": a source written after the hash, compiled, then put back to the bytes hashed before the check, caches nothing (hashing the sources again would find them as hashed)', async () => {
    const { root: copy, boot } = rootCopy("at-aba");
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(boot, hourAgo, hourAgo);
    const snapshot = snapshotRuntime(copy);
    const hashed = readFileSync(boot);
    writeFileSync(boot, "export function boot() {\n  return 3;\n}\n");
    const outDir = join(copy, "cache", "aba");
    let rehash: string | undefined;
    const diagnostics = await compileRuntime({
      root: copy,
      runtimeDir: join(copy, "runtime-modules"),
      outDir,
      changed: () => {
        // The compile read "return 3"; the file holds the bytes hashed again when the build checks.
        writeFileSync(boot, hashed);
        rehash = computeRuntimeHash(copy);
        return runtimeChange(copy, snapshot);
      },
    });
    expect(rehash).toBe(snapshot.hash);
    expect(diagnostics.map((d) => d.code)).toEqual(["BUILD_INPUTS_CHANGED"]);
    expect(existsSync(outDir)).toBe(false);
  });
});

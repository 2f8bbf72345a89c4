/**
 * Issue #21, task "stale": a build hashes the runtime's sources as it starts (the hash names the cached pieces and every bundle's
 * inputsHash), then compiles or links from them. A source written while it runs must not reach dist/ as if it were the runtime it
 * started from, nor the piece cache under a hash that does not name what was compiled. The build fails instead, exit 3 with
 * BUILD_INPUTS_CHANGED naming the file, and leaves dist/, the stamp and the cache's records as they were; the next build starts
 * from the sources as they are then.
 */
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { build } from "../../../generator/bundle/build.js";
import { computeRuntimeHash, runtimeChange, snapshotRuntime } from "../../../generator/bundle/hash.js";
import { REPO, snapshotTree, tempDir } from "../../helpers/fs.js";
import { copySharedCache, SHARED_CACHE, warmSharedCache } from "../../helpers/shared-cache.js";

// Cold compiles of the runtime, in-process: generous on a loaded two-core machine.
vi.setConfig({ testTimeout: 300_000 });

/** A copy of the repository's build inputs (the same runtime hash as the repository's), safe to edit. */
function copyRoot(): string {
  const root = tempDir("root");
  for (const name of ["runtime-modules", "generator", "tsconfig.base.json", "tsconfig.runtime.json", "package.json"])
    cpSync(join(REPO, name), join(root, name), { recursive: true });
  symlinkSync(join(REPO, "node_modules"), join(root, "node_modules"));
  return root;
}

/** The edit: the debug switch's query parameter, a string every bundle carries. */
const EDITED = "runtime-modules/core/debug-switch.ts";
const edit = (root: string) => {
  const file = join(root, EDITED);
  writeFileSync(file, readFileSync(file, "utf8").replace('DEBUG_PARAM = "sitetags-debug"', 'DEBUG_PARAM = "sitetags-debug-edited"'));
};

const GO_PROD = { sites: ["go"], envs: ["prod"] };

/** Builds go/prod from `root`, editing its runtime once, at the first progress event `when` accepts; returns the result and whether it edited. */
async function buildEditingOnce(root: string, options: { outDir: string; cacheDir: string; workers?: number }, when: (label: string) => boolean = () => true) {
  let edited = false;
  const result = await build({
    ...GO_PROD,
    ...options,
    root,
    onProgress: ({ label }) => {
      if (edited || !when(label)) return;
      edit(root);
      edited = true;
    },
  });
  return { result, edited };
}

describe("runtimeChange: the runtime hash's files, as the build's snapshot found them", () => {
  it('"a file changed while it runs is not built as it was": a write (even of the same bytes back), a new file and a removed file are each named', () => {
    const root = tempDir("root");
    cpSync(join(REPO, "runtime-modules", "core"), join(root, "runtime-modules", "core"), { recursive: true });
    const file = join(root, "runtime-modules", "core", "now.ts");
    const bytes = readFileSync(file);
    // Written an hour ago: a later write changes its modification time.
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(file, hourAgo, hourAgo);
    const snapshot = snapshotRuntime(root);
    expect(runtimeChange(root, snapshot)).toBeUndefined();
    writeFileSync(file, bytes);
    expect(runtimeChange(root, snapshot)).toBe("runtime-modules/core/now.ts");

    const again = snapshotRuntime(root);
    expect(again.hash).toBe(snapshot.hash);
    writeFileSync(join(root, "runtime-modules", "core", "added.ts"), "export const added = 1;\n");
    expect(runtimeChange(root, again)).toBe("runtime-modules/core/added.ts");
    const third = snapshotRuntime(root);
    rmSync(join(root, "runtime-modules", "core", "added.ts"));
    expect(runtimeChange(root, third)).toBe("runtime-modules/core/added.ts");
  });

  it("a file written just before the snapshot is compared by its bytes too (the file system's clock may not tell a second write in the same tick)", () => {
    const root = tempDir("root");
    cpSync(join(REPO, "runtime-modules", "core"), join(root, "runtime-modules", "core"), { recursive: true });
    const file = join(root, "runtime-modules", "core", "now.ts");
    writeFileSync(file, readFileSync(file));
    const snapshot = snapshotRuntime(root);
    expect(snapshot.racy[file]).toMatch(/^[0-9a-f]{64}$/);
    expect(runtimeChange(root, snapshot)).toBeUndefined();
  });
});

describe('"a build reports what it built from": a runtime source written while the build runs', () => {
  it("while it links from cached pieces (a fresh --out, the cache shared): exit 3 BUILD_INPUTS_CHANGED naming the file; no file in --out, no stamp, module-bytes.json as it was", async () => {
    await warmSharedCache();
    const root = copyRoot();
    // The repository's compiled pieces (the copy's runtime hash is the repository's), in a cache of the test's own.
    const sharedCopy = () => {
      const dir = tempDir("cache");
      copySharedCache(dir);
      rmSync(join(dir, "stamp.json"), { force: true });
      return dir;
    };
    const cache = sharedCopy();
    const moduleBytes = existsSync(join(cache, "module-bytes.json")) ? readFileSync(join(cache, "module-bytes.json"), "utf8") : undefined;

    // The same build with nothing written while it runs: it writes --out (the check does not fire by itself).
    const control = await build({ ...GO_PROD, root, outDir: tempDir("out"), cacheDir: sharedCopy() });
    expect(control.diagnostics).toEqual([]);
    expect(control.exitCode).toBe(0);
    expect(control.piecesCompiled).toBe(0);

    const out = tempDir("out");
    const { result: failed, edited } = await buildEditingOnce(root, { outDir: out, cacheDir: cache });
    expect(edited).toBe(true);
    expect(failed.piecesCompiled).toBe(0);
    expect(failed.exitCode).toBe(3);
    expect(failed.diagnostics).toHaveLength(1);
    expect(failed.diagnostics[0]).toMatchObject({ code: "BUILD_INPUTS_CHANGED", severity: "error" });
    expect(failed.diagnostics[0]!.message).toMatch(
      /^runtime-modules\/core\/debug-switch\.ts changed while the build ran, so .*: nothing was cached or written to dist\/; build again$/,
    );
    expect(snapshotTree(out)).toEqual({});
    expect(existsSync(join(cache, "stamp.json"))).toBe(false);
    expect(existsSync(join(cache, "module-bytes.json")) ? readFileSync(join(cache, "module-bytes.json"), "utf8") : undefined).toBe(moduleBytes);
  });

  it("while it compiles the pieces (a cold cache): no piece and no modules' order is cached under the hash it started from, exit 3; the next build compiles the edited sources", async () => {
    await warmSharedCache();
    const root = copyRoot();
    const cache = tempDir("cache");
    const out = tempDir("out");
    const startHash = computeRuntimeHash(root).slice(0, 16);
    // The registry of the copy's runtime, from the repository's cache: read from the copy, its manifests would check against the copy's
    // schema.ts, not the one this process loaded (BUILD_REGISTRY_INVALID). No piece and no order: every piece is compiled.
    const registry = readFileSync(join(SHARED_CACHE, `registry-${startHash}.json`));
    writeFileSync(join(cache, `registry-${startHash}.json`), registry);
    // After stage A (checked on its own) and the first piece: the others still to compile.
    const { result: failed, edited } = await buildEditingOnce(root, { outDir: out, cacheDir: cache, workers: 1 }, (label) => label.startsWith("compiled "));
    expect(edited).toBe(true);
    expect(failed.exitCode).toBe(3);
    expect(failed.diagnostics.map((d) => [d.code, d.message.split(" changed while")[0]])).toEqual([["BUILD_INPUTS_CHANGED", EDITED]]);
    expect(failed.diagnostics[0]!.message).toMatch(/changed while the build compiled the runtime's pieces, so /);
    expect(readdirSync(join(cache, "pieces"))).toEqual([]);
    expect(snapshotTree(out)).toEqual({});

    // The edit touches no module manifest: the same registry, under the edited runtime's hash.
    writeFileSync(join(cache, `registry-${computeRuntimeHash(root).slice(0, 16)}.json`), registry);
    const next = await build({ ...GO_PROD, root, outDir: out, cacheDir: cache, workers: 1 });
    expect(next.diagnostics).toEqual([]);
    expect(next.exitCode).toBe(0);
    expect(next.piecesCompiled).toBeGreaterThan(0);
    const bundle = readFileSync(join(out, next.manifest!.bundles[0]!.file), "utf8");
    expect(bundle).toContain("sitetags-debug-edited");
  });
});

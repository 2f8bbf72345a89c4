/**
 * A build that compiles the runtime runs in a child process of the CLI with glibc's malloc trim threshold held at its default
 * (generator/cli/child.ts, issue #21: peak memory); every other build runs in the CLI's own process, with the runtime hash handed on.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { buildsInChild, MALLOC_TRIM_ENV } from "../../../generator/cli/child.js";
import { computeRuntimeHash, handRuntimeSnapshot, snapshotRuntime, takeRuntimeSnapshot } from "../../../generator/bundle/hash.js";
import { packageRoot } from "../../../generator/bundle/paths.js";
import { REPO, tempDir } from "../../helpers/fs.js";

vi.setConfig({ testTimeout: 180_000 });

const ROOT = packageRoot();
/** A cache holding the pieces of the runtime as it is (what cachedPieces looks for first: the order file). */
function cacheWithPieces(): string {
  const cache = tempDir("cache");
  mkdirSync(join(cache, "pieces"), { recursive: true });
  writeFileSync(join(cache, "pieces", `order-${computeRuntimeHash(ROOT).slice(0, 16)}.json`), "[]");
  return cache;
}

describe("where a build runs (generator/cli/child.ts)", () => {
  it("a build that compiles the runtime (no pieces cached for it) runs in a child, with glibc's default trim threshold held", () => {
    const cache = tempDir("cache");
    expect(buildsInChild(["build", "--cache", cache], {}, REPO, "linux")).toBe(true);
    expect(buildsInChild(["build", `--cache=${cache}`, "--site", "go"], {}, REPO, "linux")).toBe(true);
    expect(MALLOC_TRIM_ENV).toEqual({ MALLOC_ARENA_MAX: "2", MALLOC_TRIM_THRESHOLD_: "131072" });
  });

  it("a build from cached pieces, a build with the variable already set (the child itself), another command or another platform runs here", () => {
    const cold = tempDir("cache");
    expect(buildsInChild(["build", "--cache", cacheWithPieces()], {}, REPO, "linux")).toBe(false);
    expect(buildsInChild(["build", "--cache", cold], { ...MALLOC_TRIM_ENV }, REPO, "linux")).toBe(false);
    expect(buildsInChild(["build", "--cache", cold], { MALLOC_TRIM_THRESHOLD_: "0" }, REPO, "linux")).toBe(false);
    expect(buildsInChild(["validate", "--cache", cold], {}, REPO, "linux")).toBe(false);
    expect(buildsInChild(["build", "--help", "--cache", cold], {}, REPO, "linux")).toBe(false);
    expect(buildsInChild(["build", "--cache", cold], {}, REPO, "darwin")).toBe(false);
  });

  it("the runtime snapshot taken to decide is handed to the build that follows, once", () => {
    expect(buildsInChild(["build", "--cache", cacheWithPieces()], {}, REPO, "linux")).toBe(false);
    const handed = { ...snapshotRuntime(ROOT), hash: "handed" };
    handRuntimeSnapshot(ROOT, handed);
    expect(takeRuntimeSnapshot(join(ROOT, "elsewhere")).hash).toBe(computeRuntimeHash(join(ROOT, "elsewhere")));
    handRuntimeSnapshot(ROOT, handed);
    expect(takeRuntimeSnapshot(ROOT)).toBe(handed);
    expect(takeRuntimeSnapshot(ROOT).hash).toBe(computeRuntimeHash(ROOT));
  });

  it("the CLI runs a cold build in a child that has the variable, with the same Node options, and answers with its exit code and output", () => {
    // A catalogue with an invalid site file: a cold build stops after the config (exit 1), in the child.
    const sites = tempDir("sites");
    writeFileSync(join(sites, "_org.yaml"), "{}\n");
    const preload = `data:text/javascript,import{isMainThread}from"node:worker_threads";if(isMainThread)process.on("exit",()=>process.stderr.write("trim="+process.env.MALLOC_TRIM_THRESHOLD_+" arenas="+process.env.MALLOC_ARENA_MAX+"\\n"))`;
    const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: "0" };
    delete env.MALLOC_TRIM_THRESHOLD_;
    delete env.MALLOC_ARENA_MAX;
    const r = spawnSync(
      process.execPath,
      ["--import", preload, join(REPO, "bin", "sitetags.js"), "build", "--sites", sites, "--cache", tempDir("cache"), "--out", tempDir("out")],
      {
        cwd: REPO,
        encoding: "utf8",
        env,
      },
    );
    expect(r.status).toBe(1);
    // The child (its preload's line first: it exits first) and the CLI's own process.
    expect(r.stderr.match(/^trim=.*$/gm)).toEqual(["trim=131072 arenas=2", "trim=undefined arenas=undefined"]);
    expect(r.stderr).toMatch(/CONFIG_/);
  });
});

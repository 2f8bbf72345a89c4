import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

/** The sitetags package root (where runtime-modules/ lives), from sources or from build/. */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "sitetags") return (cached = dir);
    const parent = dirname(dir);
    if (parent === dir) throw new Error("cannot find the sitetags package root");
    dir = parent;
  }
}

/** The folders a command uses unless told otherwise: sites/, dist/ and .sitetags-cache/ where it runs. */
export function defaultPaths(cwd = process.cwd()) {
  return { sitesDir: join(cwd, "sites"), outDir: join(cwd, "dist"), cacheDir: join(cwd, ".sitetags-cache") };
}

/** The cache's registry (the module manifests as read) of runtime `runtimeHash`: written by compilePieces (compile.ts) with its pieces, read by prepare.ts. */
export const registryFile = (cacheDir: string, runtimeHash: string) => join(cacheDir, `registry-${runtimeHash.slice(0, 16)}.json`);

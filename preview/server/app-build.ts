/**
 * Builds the React app (preview/src) with Vite into preview/dist when it is
 * missing or stale: the hash of its inputs is kept next to the output
 * (preview/dist/.inputs-hash), so a start with nothing changed costs a few
 * file reads. The build goes to a temporary directory first and replaces
 * preview/dist in one rename.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { listFiles } from "../../generator/walk.js";

export const PREVIEW_DIR = fileURLToPath(new URL("..", import.meta.url));
export const REPO_DIR = join(PREVIEW_DIR, "..");
export const APP_DIST = join(PREVIEW_DIR, "dist");
const STAMP = ".inputs-hash";

/** Files the app is built from: its sources and the runtime files it imports. */
function inputFiles(): string[] {
  const notTest = { include: (name: string) => !/\.test\.tsx?$/.test(name) };
  const out = [...listFiles(join(PREVIEW_DIR, "src"), notTest), ...listFiles(join(REPO_DIR, "runtime-modules", "data-layer-events"), notTest)];
  out.push(join(PREVIEW_DIR, "index.html"), join(PREVIEW_DIR, "vite.config.ts"));
  out.push(join(REPO_DIR, "runtime-modules", "core", "messages.ts"));
  return out.filter((f) => existsSync(f)).sort();
}

export function appInputsHash(): string {
  const hash = createHash("sha256");
  for (const file of inputFiles()) {
    hash.update(relative(REPO_DIR, file));
    hash.update("\0");
    hash.update(readFileSync(file));
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

export function appIsFresh(): boolean {
  try {
    return readFileSync(join(APP_DIST, STAMP), "utf8").trim() === appInputsHash() && existsSync(join(APP_DIST, "index.html"));
  } catch {
    return false;
  }
}

/** Builds the app unless it is up to date. Returns whether it built, and how long it took. */
export async function ensureAppBuilt(options: { force?: boolean; log?: (line: string) => void } = {}): Promise<{ built: boolean; ms: number }> {
  const started = performance.now();
  if (!options.force && appIsFresh()) return { built: false, ms: Math.round(performance.now() - started) };
  options.log?.("building the preview app (vite)…");
  const hash = appInputsHash();
  const tmp = join(PREVIEW_DIR, `.dist-build-${process.pid}-${Date.now()}`);
  // Vite's module runner (scripts/preview.js loads this server through it) or vitest may have set NODE_ENV to
  // development or test for the whole process; the app is always built for production.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({
      configFile: join(PREVIEW_DIR, "vite.config.ts"),
      root: PREVIEW_DIR,
      mode: "production",
      logLevel: "warn",
      build: { outDir: tmp, emptyOutDir: true },
    });
    writeFileSync(join(tmp, STAMP), `${hash}\n`);
    // Another process may have built it meanwhile; the newer build wins.
    if (existsSync(APP_DIST)) rmSync(APP_DIST, { recursive: true, force: true });
    renameSync(tmp, APP_DIST);
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
    if (existsSync(tmp)) rmSync(tmp, { recursive: true, force: true });
  }
  return { built: true, ms: Math.round(performance.now() - started) };
}

/** The newest modification time among the app's outputs (for cache headers). */
export function appBuiltAt(): number {
  try {
    return statSync(join(APP_DIST, "index.html")).mtimeMs;
  } catch {
    return 0;
  }
}

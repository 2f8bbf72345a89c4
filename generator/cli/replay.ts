/**
 * `sitetags build` when nothing changed since the last build (issue #21: a
 * warm rebuild of 600 sites under a second): bin/sitetags.js calls this
 * before loading the generator. When the command line is a plain build
 * (only --sites, --out, --cache, --site, --env, --json, --workers) and the
 * build's stamp (bundle/stamp.ts) matches the inputs and outputs as they are
 * now, it prints what the build would print (every bundle reused) and
 * returns the exit code; otherwise undefined, and the CLI runs as always.
 */
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { defaultPaths, packageRoot } from "../bundle/paths.js";
import { readStamp } from "../bundle/stamp.js";
import type { BuildResult } from "../bundle/build.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { defaultIo, displayDir, finishBuild, loadedSoFar, withLoad, type CliIo } from "./finish.js";

/** `own`: called by bin/sitetags.js as the process's command (the profile's first phase is then the CLI's loading). */
export async function replayBuild(argv: string[], io: CliIo = defaultIo(), own = false): Promise<number | undefined> {
  const loaded = own ? loadedSoFar() : undefined;
  const started = performance.now();
  let values;
  try {
    const parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        site: { type: "string", multiple: true },
        env: { type: "string", multiple: true },
        sites: { type: "string" },
        out: { type: "string" },
        cache: { type: "string" },
        json: { type: "boolean", default: false },
        workers: { type: "string" },
      },
    });
    if (parsed.positionals.length !== 1 || parsed.positionals[0] !== "build") return undefined;
    values = parsed.values;
  } catch {
    // Anything else (another command, another option, a usage error) is the CLI's.
    return undefined;
  }
  if (values.workers !== undefined && !(Number.isInteger(Number(values.workers)) && Number(values.workers) > 0)) return undefined;
  const defaults = defaultPaths(io.cwd);
  const outDir = values.out ? resolve(io.cwd, values.out) : defaults.outDir;
  const input = {
    root: packageRoot(),
    sitesDir: values.sites ? resolve(io.cwd, values.sites) : defaults.sitesDir,
    outDir,
    cacheDir: values.cache ? resolve(io.cwd, values.cache) : defaults.cacheDir,
    sites: values.site,
    envs: values.env,
  };
  // Run as the process's command, a miss is followed by the build, which takes the inputs' key computed here (stamp.ts).
  const stamped = await readStamp(input, own);
  if (!stamped) return undefined;
  const timeMs = Math.round(performance.now() - started);
  const result: BuildResult = {
    ok: true,
    exitCode: 0,
    diagnostics: stamped.diagnostics as Diagnostic[],
    bundles: stamped.bundles,
    built: 0,
    reused: stamped.bundles.length,
    piecesCompiled: 0,
    timeMs,
    manifest: stamped.manifest,
    phases: { stamp: timeMs },
  };
  return finishBuild(io, loaded ? withLoad(result, loaded) : result, values.json, displayDir(io.cwd, outDir));
}

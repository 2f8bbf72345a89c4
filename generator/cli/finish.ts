/**
 * The end of a build on the command line (its JSON or its diagnostics and
 * summary table), and the CLI's input and output. Light: the stamp's replay
 * (replay.ts) prints through it without loading the rest of the generator.
 */
import { isAbsolute, relative } from "node:path";
import type { BuildResult } from "../bundle/build.js";
import { formatDiagnostic, toJson, type Diagnostic } from "../diagnostics/diagnostic.js";
import { buildLeftAsItWas, summaryTable } from "./format.js";

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  isTTY: boolean;
  cwd: string;
}

export const defaultIo = (): CliIo => ({
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
  isTTY: Boolean(process.stderr.isTTY),
  cwd: process.cwd(),
});

export const errorsIn = (diagnostics: Diagnostic[]) => diagnostics.filter((d) => d.severity === "error").length;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Errors and warnings to stderr, then how many of each; warnings fail nothing. */
export function reportDiagnostics(io: CliIo, diagnostics: Diagnostic[], json: boolean) {
  if (json) return;
  for (const d of diagnostics) io.stderr(formatDiagnostic(d));
  const errors = errorsIn(diagnostics);
  const warnings = diagnostics.length - errors;
  if (diagnostics.length) io.stderr(`\n${[errors ? plural(errors, "error") : "", warnings ? plural(warnings, "warning") : ""].filter(Boolean).join(", ")}\n`);
}

/** A folder as the user would type it: relative to where the command runs when inside it, else absolute. */
export function displayDir(cwd: string, dir: string): string {
  const rel = relative(cwd, dir);
  return rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? dir : rel;
}

/** Where the process stood when main was called: the CLI's loading, the build profile's first phase. */
export interface Loaded {
  ms: number;
  cpuMs: number;
  peakMB: number;
}

export function loadedSoFar(): Loaded {
  const cpu = process.cpuUsage();
  return { ms: Math.round(performance.now()), cpuMs: Math.round((cpu.user + cpu.system) / 1000), peakMB: Math.round(process.resourceUsage().maxRSS / 1024) };
}

/** The build's profile with the CLI's loading as its first phase. */
export function withLoad(result: BuildResult, loaded: Loaded): BuildResult {
  return {
    ...result,
    phases: { load: loaded.ms, ...result.phases },
    cpuMs: { load: loaded.cpuMs, ...result.cpuMs },
    peaks: { load: loaded.peakMB, ...result.peaks },
  };
}

/** SITETAGS_PROFILE=1: the build's phases on stderr, one a line (wall ms, CPU ms, peak resident MB at its end). */
function printProfile(io: CliIo, result: BuildResult) {
  const rows = Object.entries(result.phases).map(([name, ms]) => [
    name,
    `${ms} ms`,
    result.cpuMs?.[name] === undefined ? "" : `cpu ${result.cpuMs[name]} ms`,
    result.peaks?.[name] === undefined ? "" : `peak ${result.peaks[name]} MB`,
  ]);
  io.stderr(`sitetags profile (${result.timeMs} ms in build):\n${rows.map((r) => `  ${r.filter(Boolean).join("  ")}\n`).join("")}`);
}

export function finishBuild(io: CliIo, result: BuildResult, json: boolean, outDir: string): number {
  if (process.env.SITETAGS_PROFILE === "1") printProfile(io, result);
  if (json) {
    io.stdout(
      `${JSON.stringify(
        {
          ok: result.ok,
          built: result.built,
          reused: result.reused,
          timeMs: result.timeMs,
          phases: result.phases,
          ...(result.cpuMs ? { cpuMs: result.cpuMs } : {}),
          ...(result.peaks ? { peaks: result.peaks } : {}),
          bundles: result.bundles.map(({ moduleSources: _s, ...b }) => b),
          diagnostics: result.diagnostics.map(toJson),
        },
        null,
        2,
      )}\n`,
    );
  }
  reportDiagnostics(io, result.diagnostics, json);
  if (!result.ok) {
    if (!json) io.stderr(`${buildLeftAsItWas(`${outDir}/`)}\n`);
    return result.exitCode;
  }
  if (!json) io.stdout(summaryTable(result));
  return 0;
}

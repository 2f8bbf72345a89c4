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

export function finishBuild(io: CliIo, result: BuildResult, json: boolean, outDir: string): number {
  if (json) {
    io.stdout(
      `${JSON.stringify(
        {
          ok: result.ok,
          built: result.built,
          reused: result.reused,
          timeMs: result.timeMs,
          phases: result.phases,
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

import type { DiagnosticCode } from "./codes.js";
import { compareText } from "../compare-text.js";

export interface Diagnostic {
  code: DiagnosticCode;
  message: string;
  /** Path relative to the working directory, as typed by people (sites/x.yaml). */
  file?: string;
  /** 1-based. */
  line?: number;
  /** 1-based. */
  column?: number;
  /** Key path, dotted (modules.survey.sample). */
  path?: string;
  severity: "error" | "warning";
  /** The code frame, already rendered (no colours). */
  frame?: string;
}

export class DiagnosticError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map((d) => formatHeadline(d)).join("\n"));
    this.name = "DiagnosticError";
  }
}

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += (out ? "." : "") + String(part);
  }
  return out;
}

/** `sites/bigfuture.yaml:12:5 error CONFIG_UNKNOWN_KEY: message at path` */
export function formatHeadline(d: Diagnostic): string {
  const where = d.file ? `${d.file}${d.line ? `:${d.line}:${d.column ?? 1}` : ""} ` : "";
  const at = d.path ? ` at ${d.path}` : "";
  return `${where}${d.severity} ${d.code}: ${d.message}${at}`;
}

/** The offending line with two lines around it and a caret under the column. */
export function codeFrame(source: string, line: number, column: number, context = 2): string {
  const lines = source.split(/\r?\n/);
  const first = Math.max(1, line - context);
  const last = Math.min(lines.length, line + context);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const marker = n === line ? ">" : " ";
    out.push(`${marker} ${String(n).padStart(width)} | ${lines[n - 1] ?? ""}`);
    if (n === line) out.push(`  ${" ".repeat(width)} | ${" ".repeat(Math.max(0, column - 1))}^`);
  }
  return out.join("\n");
}

export function formatDiagnostic(d: Diagnostic): string {
  return d.frame ? `${formatHeadline(d)}\n${d.frame}\n` : `${formatHeadline(d)}\n`;
}

export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) => compareText(a.file ?? "", b.file ?? "") || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) || compareText(a.code, b.code),
  );
}

export function toJson(d: Diagnostic) {
  return { file: d.file ?? null, line: d.line ?? null, column: d.column ?? null, code: d.code, message: d.message, path: d.path ?? null, severity: d.severity };
}

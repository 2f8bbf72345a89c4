/**
 * Schema checks that warn instead of failing. zod knows only issues, and
 * any issue fails a parse; a warning is a custom issue marked
 * `params.severity: "warning"`. When a parse fails with warnings only, the
 * data is parsed again with the warning checks muted, so that the file
 * still yields its data (and its bundles) and the warnings are reported.
 */
import type { z } from "zod";
import type { DiagnosticCode } from "../diagnostics/codes.js";

type Issue = z.core.$ZodIssue;

let muted = false;

/** Whether warning checks should stay silent (during the second parse). */
export const warningsMuted = (): boolean => muted;

/** A custom issue carrying one of our codes; severity "warning" does not fail the configuration. */
export function codeIssue(code: DiagnosticCode, message: string, severity: "error" | "warning" = "error") {
  return { code: "custom" as const, message, params: { code, severity } };
}

export const isWarning = (issue: Issue): boolean => issue.code === "custom" && (issue.params as { severity?: string } | undefined)?.severity === "warning";

export type Parsed<T> = { success: true; data: T; warnings: Issue[] } | { success: false; issues: Issue[] };

export function parseWithWarnings<S extends z.ZodType>(schema: S, data: unknown): Parsed<z.output<S>> {
  const first = schema.safeParse(data);
  if (first.success) return { success: true, data: first.data, warnings: [] };
  const warnings = first.error.issues.filter(isWarning);
  if (warnings.length < first.error.issues.length) return { success: false, issues: first.error.issues };
  muted = true;
  let second;
  try {
    second = schema.safeParse(data);
  } finally {
    muted = false;
  }
  return second.success ? { success: true, data: second.data, warnings } : { success: false, issues: [...warnings, ...second.error.issues] };
}

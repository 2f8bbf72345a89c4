/**
 * Schema checks that warn instead of failing. zod knows only issues, and
 * any issue fails a parse; a warning is a custom issue marked
 * `params.severity: "warning"`. When a parse fails with warnings only, the
 * data is parsed again with the warning checks muted, so that the file
 * still yields its data (and its bundles) and the warnings are reported.
 *
 * A parse also carries a context for checks that need Node: the ReDoS
 * checker (regex-safety.ts). The schema files are in the runtime's type graph
 * (it imports their types), so they name no Node API themselves.
 */
import type { z } from "zod";
import type { DiagnosticBody } from "../diagnostics/diagnostics.js";

type Issue = z.core.$ZodIssue;

let muted = false;

export type RegexVerdict = { kind: "safe" } | { kind: "unsafe"; growth: string; attack: string } | { kind: "unchecked"; reason: string };

export interface ParseContext {
  /** The ReDoS verdict of a regular expression source that compiles (none: not checked). */
  regexVerdict?: (source: string) => RegexVerdict;
}

let context: ParseContext = {};

/** The context of the parse under way (empty outside parseWithWarnings). */
export const parseContext = (): ParseContext => context;

/** Whether warning checks should stay silent (during the second parse). */
export const warningsMuted = (): boolean => muted;

/** A custom issue carrying a factory's diagnostic; severity "warning" does not fail the configuration. */
export function codeIssue({ code, message, severity }: DiagnosticBody) {
  return { code: "custom" as const, message, params: { code, severity } };
}

export const isWarning = (issue: Issue): boolean => issue.code === "custom" && (issue.params as { severity?: string } | undefined)?.severity === "warning";

export type Parsed<T> = { success: true; data: T; warnings: Issue[] } | { success: false; issues: Issue[] };

/**
 * zod's eval-based fast path off: it compiles a parser per object schema on its first parse, which a build process, parsing each schema a few
 * times, pays for and does not get back (issue #21: 0.1 s of a one-site rebuild's 0.6 s config load; a cold load of the shipped catalogue
 * is as fast without it). The generic path gives the same outcome.
 */
const PARSE = { jitless: true } as const;

export function parseWithWarnings<S extends z.ZodType>(schema: S, data: unknown, ctx: ParseContext = {}): Parsed<z.output<S>> {
  context = ctx;
  try {
    const first = schema.safeParse(data, PARSE);
    if (first.success) return { success: true, data: first.data, warnings: [] };
    const warnings = first.error.issues.filter(isWarning);
    if (warnings.length < first.error.issues.length) return { success: false, issues: first.error.issues };
    muted = true;
    const second = schema.safeParse(data, PARSE);
    return second.success ? { success: true, data: second.data, warnings } : { success: false, issues: [...warnings, ...second.error.issues] };
  } finally {
    muted = false;
    context = {};
  }
}

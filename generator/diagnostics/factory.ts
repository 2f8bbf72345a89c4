/**
 * A diagnostic factory: a named function that takes the data of one
 * problem and returns its code, message and severity (rollup's
 * src/utils/logs.ts does the same). Call sites pass data only; where the
 * problem is (file:line:col, key path, frame) is added by the caller
 * (diagnosticAtOffset, or a file-level diagnostic).
 */
import type { DiagnosticCode } from "./codes.js";

export type Severity = "error" | "warning";

/** A diagnostic without its place: what a factory returns. */
export interface DiagnosticBody {
  code: DiagnosticCode;
  message: string;
  severity: Severity;
}

export interface DiagnosticFactory<A extends unknown[]> {
  (...args: A): DiagnosticBody;
  /** The code every diagnostic of this factory has (for docs and tests). */
  readonly code: DiagnosticCode;
}

/** A factory for `code`, whose message is `message(...args)`. */
export function factory<A extends unknown[]>(code: DiagnosticCode, message: (...args: A) => string, severity: Severity = "error"): DiagnosticFactory<A> {
  return Object.assign((...args: A): DiagnosticBody => ({ code, message: message(...args), severity }), { code });
}

/** " (did you mean "x"?)" when there is a suggestion, else `otherwise`. */
export const didYouMean = (suggestion: string | undefined, otherwise = ""): string => (suggestion ? ` (did you mean "${suggestion}"?)` : otherwise);

/** How messages name the types zod reports (its `expected`): words a person can act on, not zod's. */
const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  bigint: "a whole number",
  boolean: "true or false",
  array: "a list",
  tuple: "a list",
  object: "a mapping",
  record: "a mapping",
  map: "a mapping",
  null: "null",
};
export const typeWords = (expected: string): string => TYPE_WORDS[expected] ?? expected;

/**
 * Turns zod issues into located diagnostics: code, message, key path,
 * file:line:col and a code frame; unknown keys get the nearest valid key.
 */
import type { z } from "zod";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { formatPath } from "../diagnostics/diagnostic.js";
import { MESSAGES, type DiagnosticCode } from "../diagnostics/codes.js";
import { isWarning } from "./parse.js";
import { VARIABLE_NAMES, variableSuggestion } from "./schemas/rules.js";
import { diagnosticAtOffset, offsetOf, type YamlSource } from "./yaml-source.js";

type Issue = z.core.$ZodIssue;

/** Levenshtein distance, for "did you mean". */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}

export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  if (best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3))) return best;
  // A typo late in a long key ("sampel" for "sampling"): the one candidate sharing the longest prefix of 4 or more.
  const prefix = (c: string) => {
    let n = 0;
    while (n < word.length && n < c.length && word[n].toLowerCase() === c[n].toLowerCase()) n++;
    return n;
  };
  const longest = Math.max(0, ...candidates.map(prefix));
  const sharing = candidates.filter((c) => prefix(c) === longest);
  return longest >= 4 && sharing.length === 1 ? sharing[0] : undefined;
}

type Def = { type: string; innerType?: z.ZodType; element?: z.ZodType; valueType?: z.ZodType; shape?: Record<string, z.ZodType>; in?: z.ZodType; options?: z.ZodType[]; getter?: () => z.ZodType };
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (;;) {
    const def = defOf(s);
    if ((def.type === "optional" || def.type === "default" || def.type === "prefault" || def.type === "nullable" || def.type === "readonly") && def.innerType) s = def.innerType;
    else if (def.type === "pipe" && def.in) s = def.in;
    else if (def.type === "lazy" && def.getter) s = def.getter();
    else return s;
  }
}

/** For a union, the branch whose literal `type` matches the data (else the first). */
function branch(s: z.ZodType, data: unknown): z.ZodType {
  const def = defOf(s);
  if (def.type !== "union" || !def.options) return s;
  const type = data && typeof data === "object" ? (data as Record<string, unknown>).type : undefined;
  for (const option of def.options) {
    const shape = defOf(unwrap(option)).shape;
    const literal = shape?.type ? (defOf(shape.type) as unknown as { values?: unknown[] }).values : undefined;
    if (literal?.includes(type)) return unwrap(option);
  }
  return unwrap(def.options[0]);
}

/** The object keys the schema allows at a key path (data picks union branches). */
export function allowedKeysAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>, data?: unknown): string[] {
  let s: z.ZodType | undefined = branch(unwrap(schema), data);
  let value = data;
  for (const segment of path) {
    if (!s) return [];
    const def = defOf(s);
    if (def.type === "object") s = def.shape?.[String(segment)];
    else if (def.type === "array") s = def.element;
    else if (def.type === "record") s = def.valueType;
    else return [];
    value = value && typeof value === "object" ? (value as Record<PropertyKey, unknown>)[segment as string] : undefined;
    if (s) s = branch(unwrap(s), value);
  }
  if (!s) return [];
  const def = defOf(s);
  return def.type === "object" ? Object.keys(def.shape ?? {}) : [];
}

const describe = (value: unknown): string => {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value)}`;
  return String(value);
};

function valueAt(data: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let v = data as Record<PropertyKey, unknown> | undefined;
  for (const p of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = v[p as string] as Record<PropertyKey, unknown> | undefined;
  }
  return v;
}

export interface IssueContext {
  /** The schema the data was parsed with (for key suggestions). */
  schema: z.ZodType;
  /** Where this data sits inside the file (e.g. [] for a whole file). */
  prefix?: ReadonlyArray<PropertyKey>;
  /** Names the registry offers, for CONFIG_UNKNOWN_MODULE suggestions. */
  moduleNames: readonly string[];
  /** The data that was validated, for messages. */
  data: unknown;
}

/** Which source file a merged-config path came from (for merged validation). */
export type SourcePicker = (path: ReadonlyArray<PropertyKey>, missing?: boolean) => { source: YamlSource; prefix: ReadonlyArray<PropertyKey>; path?: ReadonlyArray<PropertyKey> };

/** The full key path in the file: the picker's own mapping, or prefix + path. */
const inFile = (picked: ReturnType<SourcePicker>, path: ReadonlyArray<PropertyKey>) => picked.path ?? [...picked.prefix, ...path];

export function issuesToDiagnostics(issues: readonly Issue[], pick: SourcePicker, ctx: IssueContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const issue of issues) {
    const path = issue.path as PropertyKey[];
    if (issue.code === "unrecognized_keys") {
      const parentKey = String(path[path.length - 1] ?? "");
      for (const key of issue.keys) {
        const keyPath = [...path, key];
        const picked = pick(keyPath);
        const { source } = picked;
        const full = inFile(picked, keyPath);
        let code: DiagnosticCode = "CONFIG_UNKNOWN_KEY";
        let candidates = allowedKeysAt(ctx.schema, path, ctx.data);
        let noun = "key";
        if (parentKey === "modules") {
          code = "CONFIG_UNKNOWN_MODULE";
          candidates = [...ctx.moduleNames];
          noun = "module";
        } else if (parentKey === "hosts" || parentKey === "envs") {
          code = "CONFIG_UNKNOWN_ENV";
          noun = "environment";
        }
        const suggestion = nearest(key, candidates);
        const message = `unknown ${noun} "${key}"${suggestion ? ` (did you mean "${suggestion}"?)` : ` (expected one of ${candidates.map((c) => `"${c}"`).join(", ")})`}`;
        out.push(diagnosticAtOffset(source, code, message, offsetOf(source, full, "key"), formatPath(full)));
      }
      continue;
    }
    const received = valueAt(ctx.data, path);
    const picked = pick(path, received === undefined && issue.code === "invalid_type");
    const { source } = picked;
    const full = inFile(picked, path);
    let code: DiagnosticCode;
    let message: string;
    switch (issue.code) {
      case "invalid_type":
        if (received === undefined) {
          code = "CONFIG_MISSING_KEY";
          message = MESSAGES.missingKey(String(path[path.length - 1] ?? ""), issue.expected);
        } else if (typeof received === "number" && !Number.isFinite(received)) {
          code = "CONFIG_INVALID_VALUE";
          message = MESSAGES.notFinite(Number.isNaN(received) ? ".nan" : received > 0 ? ".inf" : "-.inf");
        } else {
          code = "CONFIG_INVALID_TYPE";
          message = MESSAGES.expectedType(issue.expected, describe(received));
        }
        break;
      case "too_small":
      case "too_big": {
        code = "CONFIG_OUT_OF_RANGE";
        const limit = issue.code === "too_small" ? issue.minimum : issue.maximum;
        const word = issue.code === "too_small" ? "at least" : "at most";
        if (issue.origin === "array") message = `needs ${word} ${String(limit)} item${Number(limit) === 1 ? "" : "s"}`;
        else if (issue.origin === "string") message = `needs ${word} ${String(limit)} character${Number(limit) === 1 ? "" : "s"}`;
        else message = `${String(received)} is out of range: must be ${word} ${String(limit)}`;
        break;
      }
      case "not_multiple_of":
        code = "CONFIG_OUT_OF_RANGE";
        message = `${String(received)} must be a multiple of ${String(issue.divisor)}`;
        break;
      case "invalid_value": {
        code = "CONFIG_INVALID_VALUE";
        const options = issue.values.map((v) => JSON.stringify(v));
        const suggestion = typeof received === "string" ? nearest(received, issue.values.map(String)) : undefined;
        message = `${describe(received)} is not allowed: expected one of ${options.join(", ")}${suggestion ? ` (did you mean "${suggestion}"?)` : ""}`;
        break;
      }
      case "invalid_format":
        code = "CONFIG_INVALID_VALUE";
        message = issue.message.startsWith("Invalid") ? `${describe(received)} has an invalid format` : `${issue.message} (got ${describe(received)})`;
        break;
      case "custom": {
        const given = (issue.params as { code?: DiagnosticCode } | undefined)?.code;
        code = given ?? "CONFIG_INVALID_VALUE";
        message = issue.message;
        break;
      }
      case "invalid_key": {
        code = "CONFIG_INVALID_VALUE";
        const inner = (issue as typeof issue & { issues?: Array<{ message: string }> }).issues?.[0]?.message ?? issue.message;
        const name = String(path[path.length - 1]);
        message = path[path.length - 2] === "variables" ? MESSAGES.notAVariable(name, VARIABLE_NAMES, variableSuggestion(name)) : `name "${name}" ${inner}`;
        out.push(diagnosticAtOffset(source, code, message, offsetOf(source, full, "key"), formatPath(full)));
        continue;
      }
      case "invalid_union": {
        const discriminated = issue as typeof issue & { discriminator?: string; options?: unknown[] };
        if (discriminated.discriminator && discriminated.options) {
          const where = path.map(String);
          const kind = where.includes("actions") ? "action" : where.includes("events") ? "event type" : where.some((p) => p === "conditions" || p === "condition") ? "condition" : "type";
          code = kind === "action" ? "CONFIG_UNKNOWN_ACTION" : kind === "event type" ? "CONFIG_UNKNOWN_EVENT_TYPE" : kind === "condition" ? "CONFIG_UNKNOWN_CONDITION" : "CONFIG_INVALID_VALUE";
          const options = discriminated.options.map(String);
          const suggestion = typeof received === "string" ? nearest(received, options) : undefined;
          message =
            received === undefined
              ? `missing "${discriminated.discriminator}" (one of ${options.join(", ")})`
              : `unknown ${kind} ${JSON.stringify(received)}${suggestion ? ` (did you mean "${suggestion}"?)` : ` (expected one of ${options.join(", ")})`}`;
          if (received === undefined) code = "CONFIG_MISSING_KEY";
          break;
        }
        code = "CONFIG_INVALID_VALUE";
        message = `${describe(received)} matches none of the allowed forms`;
        break;
      }
      default:
        code = "CONFIG_INVALID_VALUE";
        message = issue.message;
    }
    // A problem with a whole mapping (a data element with no source, …) points at its name.
    const prefer = received !== null && typeof received === "object" && !Array.isArray(received) && typeof path[path.length - 1] === "string" ? "key" : "value";
    const diagnostic = diagnosticAtOffset(source, code, message, offsetOf(source, full, prefer), formatPath(full));
    out.push(isWarning(issue) ? { ...diagnostic, severity: "warning" } : diagnostic);
  }
  return out;
}

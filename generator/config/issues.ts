/**
 * Turns zod issues into located diagnostics: code, message, key path,
 * file:line:col and a code frame; unknown keys get the nearest valid key.
 */
import type { z } from "zod";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { formatPath } from "../diagnostics/diagnostic.js";
import type { DiagnosticCode } from "../diagnostics/codes.js";
import { DIAGNOSTICS, type DiagnosticBody, type Severity } from "../diagnostics/diagnostics.js";
import { isWarning } from "./parse.js";
import { nearest } from "./nearest.js";
import { VARIABLE_NAMES, variableSuggestion } from "./schemas/rules.js";
import { diagnosticAtOffset, offsetOf, type YamlSource } from "./yaml-source.js";

type Issue = z.core.$ZodIssue;

type Def = {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  in?: z.ZodType;
  options?: z.ZodType[];
  getter?: () => z.ZodType;
};
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (;;) {
    const def = defOf(s);
    if ((def.type === "optional" || def.type === "default" || def.type === "prefault" || def.type === "nullable" || def.type === "readonly") && def.innerType)
      s = def.innerType;
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
export type SourcePicker = (
  path: ReadonlyArray<PropertyKey>,
  missing?: boolean,
) => { source: YamlSource; prefix: ReadonlyArray<PropertyKey>; path?: ReadonlyArray<PropertyKey> };

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
        const full = inFile(picked, keyPath);
        let body: DiagnosticBody;
        if (parentKey === "modules") body = DIAGNOSTICS.unknownModule(key, nearest(key, ctx.moduleNames), ctx.moduleNames);
        else {
          const candidates = allowedKeysAt(ctx.schema, path, ctx.data);
          const factory = parentKey === "hosts" || parentKey === "envs" ? DIAGNOSTICS.unknownEnv : DIAGNOSTICS.unknownKey;
          body = factory(key, nearest(key, candidates), candidates);
        }
        out.push(diagnosticAtOffset(picked.source, body, offsetOf(picked.source, full, "key"), formatPath(full)));
      }
      continue;
    }
    const received = valueAt(ctx.data, path);
    const picked = pick(path, received === undefined && issue.code === "invalid_type");
    const { source } = picked;
    const full = inFile(picked, path);
    if (issue.code === "invalid_key") {
      const inner = (issue as typeof issue & { issues?: Array<{ message: string }> }).issues?.[0]?.message ?? issue.message;
      const name = String(path[path.length - 1]);
      const body =
        path[path.length - 2] === "variables" ? DIAGNOSTICS.notAVariable(name, VARIABLE_NAMES, variableSuggestion(name)) : DIAGNOSTICS.invalidName(name, inner);
      out.push(diagnosticAtOffset(source, body, offsetOf(source, full, "key"), formatPath(full)));
      continue;
    }
    const body = issueBody(issue, path, received);
    // A problem with a whole mapping (a data element with no source, …) points at its name.
    const prefer = received !== null && typeof received === "object" && !Array.isArray(received) && typeof path[path.length - 1] === "string" ? "key" : "value";
    const diagnostic = diagnosticAtOffset(source, body, offsetOf(source, full, prefer), formatPath(full));
    out.push(isWarning(issue) ? { ...diagnostic, severity: "warning" } : diagnostic);
  }
  return out;
}

/** The factory's diagnostic for one zod issue (other than unknown keys and invalid record keys). */
function issueBody(issue: Issue, path: readonly PropertyKey[], received: unknown): DiagnosticBody {
  switch (issue.code) {
    case "invalid_type":
      if (received === undefined) return DIAGNOSTICS.missingKey(String(path[path.length - 1] ?? ""), issue.expected);
      if (typeof received === "number" && !Number.isFinite(received))
        return DIAGNOSTICS.notFinite(Number.isNaN(received) ? ".nan" : received > 0 ? ".inf" : "-.inf");
      return DIAGNOSTICS.expectedType(issue.expected, describe(received));
    case "too_small":
      return DIAGNOSTICS.outOfRange("at least", issue.minimum, issue.origin, received);
    case "too_big":
      return DIAGNOSTICS.outOfRange("at most", issue.maximum, issue.origin, received);
    case "not_multiple_of":
      return DIAGNOSTICS.notMultipleOf(received, issue.divisor);
    case "invalid_value":
      return DIAGNOSTICS.notAllowed(describe(received), issue.values, typeof received === "string" ? nearest(received, issue.values.map(String)) : undefined);
    case "invalid_format":
      return DIAGNOSTICS.invalidFormat(describe(received), issue.message.startsWith("Invalid") ? undefined : issue.message);
    case "custom": {
      // Our checks' issues carry a factory's diagnostic through zod (codeIssue); a bare refine's message is zod's.
      const params = issue.params as { code?: DiagnosticCode; severity?: Severity } | undefined;
      return params?.code ? { code: params.code, message: issue.message, severity: params.severity ?? "error" } : DIAGNOSTICS.invalidValue(issue.message);
    }
    case "invalid_union": {
      const discriminated = issue as typeof issue & { discriminator?: string; options?: unknown[] };
      if (!discriminated.discriminator || !discriminated.options) return DIAGNOSTICS.noMatchingForm(describe(received));
      const options = discriminated.options.map(String);
      if (received === undefined) return DIAGNOSTICS.missingDiscriminator(discriminated.discriminator, options);
      const where = path.map(String);
      const factory = where.includes("actions")
        ? DIAGNOSTICS.unknownAction
        : where.includes("events")
          ? DIAGNOSTICS.unknownEventType
          : where.some((p) => p === "conditions" || p === "condition")
            ? DIAGNOSTICS.unknownCondition
            : DIAGNOSTICS.unknownType;
      return factory(received, options, typeof received === "string" ? nearest(received, options) : undefined);
    }
    default:
      return DIAGNOSTICS.invalidValue(issue.message);
  }
}

/** Small helpers over untrusted JSON-ish values (monitor events, beacon bodies, configs of any bundle version). */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Obj = Record<string, unknown>;

export function isObject(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value at a dotted path ("web.webPageDetails.name"), or undefined. */
export function at(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const key of path.split(".")) {
    if (!isObject(current) && !Array.isArray(current)) return undefined;
    current = (current as Obj)[key];
  }
  return current;
}

export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : typeof value === "number" && isFinite(value) ? String(value) : undefined;
}

export function num(value: unknown): number | undefined {
  return typeof value === "number" && isFinite(value) ? value : undefined;
}

/** JSON.parse that returns undefined instead of throwing. */
export function parseJson(text: unknown): unknown {
  if (typeof text !== "string" || !text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A JSON-safe copy (functions, cycles and DOM nodes dropped), for postMessage and export. */
export function toJson(value: unknown): unknown {
  const seen = new WeakSet<object>();
  try {
    return JSON.parse(
      JSON.stringify(value, (_key, v: unknown) => {
        if (typeof v === "function") return "[function]";
        if (typeof v === "bigint") return String(v);
        if (typeof v === "object" && v !== null) {
          if (seen.has(v)) return "[circular]";
          seen.add(v);
        }
        return v;
      }),
    ) as unknown;
  } catch {
    return String(value);
  }
}

/** JSON with sorted object keys: equal values give equal text. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableStringify(value[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/** Deep merge as the runtime's data layer computes its state: objects merge key by key, everything else (lists too) replaces. */
export function deepMerge(target: Obj, source: Obj): Obj {
  const out: Obj = { ...target };
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined) continue;
    out[key] = isObject(value) && isObject(out[key]) ? deepMerge(out[key] as Obj, value) : isObject(value) ? deepMerge({}, value) : value;
  }
  return out;
}

/** Paths (a.b.c) where two JSON values differ, each with both sides; lists compare whole. */
export function jsonDiff(a: unknown, b: unknown, prefix = ""): Array<{ path: string; a: unknown; b: unknown }> {
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => jsonDiff(a[k], b[k], prefix ? `${prefix}.${k}` : k));
  }
  return stableStringify(a) === stableStringify(b) ? [] : [{ path: prefix || "(value)", a, b }];
}

/** A one-line preview of a value, cut to `max` characters. */
export function brief(value: unknown, max = 120): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

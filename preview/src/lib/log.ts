/**
 * The runtime's log (its `log` monitor events), checked against the
 * message catalogue (runtime-modules/core/messages.ts: the product spec's
 * section 8 word for word, plus the runtime's own few).
 */
import * as MESSAGES from "../../../runtime-modules/core/messages";
import type { Entry } from "./protocol";

export interface LogRow {
  page: number;
  at: number;
  t?: number;
  level: string;
  message: string;
  code?: string;
  data?: unknown;
  /** The message is one of the catalogue's (exactly, or a templated one's fixed start). */
  catalogued: boolean;
}

const MARK = "\u0001";

/** The catalogue: fixed messages, and the fixed starts of templated ones (functions). */
export function catalogue(source: Record<string, unknown> = MESSAGES): { exact: Set<string>; prefixes: string[] } {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const value of Object.values(source)) {
    if (typeof value === "string") exact.add(value);
    else if (typeof value === "function") {
      try {
        const sample = String((value as (...a: string[]) => unknown)(MARK, MARK, MARK));
        const start = sample.split(MARK)[0];
        if (start.length >= 6) prefixes.push(start);
      } catch {
        // A message function that needs other arguments: not matched.
      }
    }
  }
  return { exact, prefixes };
}

const CATALOGUE = catalogue();

export function isCatalogued(message: string, cat = CATALOGUE): boolean {
  return cat.exact.has(message) || cat.prefixes.some((p) => message.startsWith(p));
}

export function logRows(entries: readonly Entry[]): LogRow[] {
  const out: LogRow[] = [];
  for (const e of entries) {
    if (e.kind !== "monitor" || e.event.type !== "log") continue;
    const message = String(e.event.message ?? "");
    out.push({
      page: e.page,
      at: e.at,
      t: e.event.t,
      level: String(e.event.level ?? "info"),
      message,
      code: typeof e.event.code === "string" ? e.event.code : undefined,
      data: e.event.data,
      catalogued: isCatalogued(message),
    });
  }
  return out;
}

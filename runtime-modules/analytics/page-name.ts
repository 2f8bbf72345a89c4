import type { PageNameSettings } from "../../generator/config/schemas/analytics.js";
import { isRedactedParam, replaceRedactedPairs } from "./redact";

export type PageNameRules = Pick<PageNameSettings, "separator" | "keepParams" | "dropParams" | "rootPageCode" | "preventedHashes">;

/** What a page name is made of. */
export interface PageNameInput {
  /** Site code. */
  site: string;
  /** Flow, page and view codes, in that order; blank ones are left out. None: "site root page code home". */
  codes: readonly string[];
  /** The page's query (location.search or its URLSearchParams), for the allow-listed parameters. */
  query?: string | URLSearchParams;
  /** location.hash: a fragment not on the prevented list is one more code. */
  hash?: string;
}

/** "UUID-shaped identifiers become the word uuid" (anywhere in the text). */
export function uuidToWord(text: string): string {
  return text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "uuid");
}

/**
 * A code without its redacted name=value pairs, wherever they stand (a path
 * segment "regNo=123", a hash route "#studentid=9&tab=2" → "tab=2"): "Redacted
 * URL parameters: u, personId, regId, regNo, i, studentid" never reach a page name.
 */
export function withoutRedactedPairs(code: string): string {
  if (code.indexOf("=") < 0) return code;
  return replaceRedactedPairs(code, "&;/:?#", (sep) => sep)
    .replace(/([&;])[&;]+/g, "$1")
    .replace(/(^|[/:])[&;]+|[&;]+($|[/:])/g, "$1$2");
}

/** One code of a page name: trimmed, lower case, white space as hyphens, UUIDs as uuid, without redacted pairs. */
export function pageCode(code: string): string {
  return uuidToWord(withoutRedactedPairs(code.trim()).toLowerCase().replace(/\s+/g, "-"));
}

/** The codes of a path: its non-blank segments (none for the root path, which pageName names with the root page code). */
export function pathCodes(path: string): string[] {
  return path.split("/").filter((s) => !!s.trim());
}

/**
 * Whether a hash route is "on a prevented list", case-insensitively: an
 * entry ending in * matches every route it starts ("widget-*": the widget
 * controls), an entry ending in = or : every route it starts ("tst=",
 * "javascript:"), any other entry only the whole route ("top" is the
 * back-to-top anchor, not #topics or #/top-picks).
 */
export function isPreventedHash(route: string, preventedHashes: readonly string[]): boolean {
  const r = route.toLowerCase();
  for (const entry of preventedHashes) {
    const p = entry.toLowerCase();
    if (/[*]$/.test(p) ? r.indexOf(p.slice(0, -1)) === 0 : /[=:]$/.test(p) ? r.indexOf(p) === 0 : r === p) return true;
  }
  return false;
}

/**
 * The code of a hash fragment (its route: without #, a leading / or !, and
 * its own ?query, in lower case), or "" when there is none or it is on the
 * prevented list (isPreventedHash).
 */
export function hashCode(hash: string, preventedHashes: readonly string[]): string {
  const h = hash
    .replace(/^#?[/!]*/, "")
    .split("?")[0]
    .toLowerCase();
  return isPreventedHash(h, preventedHashes) ? "" : h;
}

/**
 * "Values are lowercased and only allow-listed parameters are appended":
 * name=value for each keepParams entry (in keepParams order, names matched
 * exactly, first value, blank values left out), except those in dropParams
 * ("category is dropped for the career-planning site and state for sign-in
 * sites") and redacted ones, which never appear.
 */
export function pageParams(query: string | URLSearchParams, keepParams: readonly string[], dropParams: readonly string[]): string[] {
  const q = typeof query === "string" ? new URLSearchParams(query) : query;
  const out: string[] = [];
  for (const name of keepParams) {
    const value = q.get(name);
    if (value && value.trim() && dropParams.indexOf(name) < 0 && !isRedactedParam(name)) out.push(name + "=" + pageCode(value));
  }
  return out;
}

/**
 * "Page names are composed of site code, flow code, page code and view code,
 * joined by '/' or ':' (app style uses ':')", then the hash code and the
 * allow-listed parameters, each one more part.
 */
export function pageName(input: PageNameInput, rules: PageNameRules): string {
  const codes = input.codes.map(pageCode).filter((c) => !!c);
  const parts = [pageCode(input.site)].concat(codes.length ? codes : [rules.rootPageCode]);
  // A hash route's own segments are codes too, joined by the site's separator ("scores:app:details:math").
  const hash = input.hash
    ? pageCode(hashCode(input.hash, rules.preventedHashes))
        .split("/")
        .filter((c) => !!c)
        .join(rules.separator)
    : "";
  if (hash) parts.push(hash);
  return parts.concat(input.query ? pageParams(input.query, rules.keepParams, rules.dropParams) : []).join(rules.separator);
}

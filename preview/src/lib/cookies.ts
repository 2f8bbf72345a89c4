/**
 * Cookies: the writes the page's bridge saw (document.cookie assignments,
 * with their attributes, by the preview's setup or by the page and bundle)
 * and the jar the page sees.
 */
import type { Entry } from "./protocol";

export interface CookieWrite {
  page: number;
  at: number;
  by: "setup" | "page";
  name: string;
  value: string;
  /** Lower-cased attribute names → values ("" for flags such as secure). */
  attributes: Record<string, string>;
  /** max-age <= 0 or an expiry in the past. */
  deletion: boolean;
  text: string;
}

/** Parses one `document.cookie = "…"` assignment. */
export function parseCookieWrite(text: string): Omit<CookieWrite, "page" | "at" | "by"> {
  const parts = text.split(";");
  const first = parts.shift() ?? "";
  const eq = first.indexOf("=");
  const name = (eq < 0 ? first : first.slice(0, eq)).trim();
  const value = eq < 0 ? "" : first.slice(eq + 1).trim();
  const attributes: Record<string, string> = {};
  for (const part of parts) {
    const i = part.indexOf("=");
    const key = (i < 0 ? part : part.slice(0, i)).trim().toLowerCase();
    if (key) attributes[key] = i < 0 ? "" : part.slice(i + 1).trim();
  }
  const maxAge = attributes["max-age"] !== undefined ? Number(attributes["max-age"]) : undefined;
  const expires = attributes.expires !== undefined ? Date.parse(attributes.expires) : undefined;
  const deletion = (maxAge !== undefined && maxAge <= 0) || (expires !== undefined && !isNaN(expires) && expires < Date.now());
  return { name, value, attributes, deletion, text };
}

export function cookieWrites(entries: readonly Entry[]): CookieWrite[] {
  const out: CookieWrite[] = [];
  for (const e of entries) if (e.kind === "cookie") out.push({ page: e.page, at: e.at, by: e.by, ...parseCookieWrite(e.text) });
  return out;
}

/** document.cookie as name → value. */
export function parseJar(cookieHeader: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of cookieHeader.split(";")) {
    const i = part.indexOf("=");
    const name = (i < 0 ? part : part.slice(0, i)).trim();
    if (name) out[name] = i < 0 ? "" : part.slice(i + 1).trim();
  }
  return out;
}

/** The latest jar the bridge reported for the session's last page. */
export function latestJar(entries: readonly Entry[]): Record<string, string> {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.kind === "snapshot") return parseJar(e.snapshot.cookies);
  }
  return {};
}

import type { Cookies } from "./types";
import { isLocalHost } from "./authorize";
import { normalizeHost } from "./host-match";

export interface CookieOptions {
  maxAgeSeconds?: number;
  domain?: string;
  sameSite?: "Lax" | "Strict" | "None";
}

/** Where a cookie is written from. */
export interface CookieContext {
  hostname: string;
  protocol: string;
  apexDomain: string;
}

/**
 * The Domain attribute for a page: the apex domain when the page is on it or
 * below it, none (a host-only cookie) on localhost, 127.0.0.1 or any other host.
 */
export function cookieDomain(ctx: CookieContext): string | undefined {
  const host = normalizeHost(ctx.hostname);
  const apex = normalizeHost(ctx.apexDomain);
  if (!apex || isLocalHost(host)) return undefined;
  return host === apex || host.slice(-apex.length - 1) === "." + apex ? apex : undefined;
}

/**
 * The document.cookie string that writes one cookie: path /, the apex domain,
 * SameSite=Lax unless told otherwise, Secure on https pages (a browser drops
 * Secure cookies set from http pages, such as http://localhost in development).
 */
export function cookieString(name: string, value: string, options: CookieOptions, ctx: CookieContext): string {
  let s = name + "=" + encodeURIComponent(value) + "; path=/";
  const domain = options.domain || cookieDomain(ctx);
  if (domain) s += "; domain=" + domain;
  if (options.maxAgeSeconds !== undefined) s += "; max-age=" + Math.floor(options.maxAgeSeconds);
  s += "; SameSite=" + (options.sameSite || "Lax");
  if (ctx.protocol === "https:") s += "; Secure";
  return s;
}

/** A part of a cookie string decoded, or undefined when it does not decode (someone else's encoding, e.g. %E0%A4%A). */
function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch (e) {
    return undefined;
  }
}

/**
 * The runtime's one cookie reader: the cookies of a document.cookie string
 * ("a=1; b=2") by name, names and values decoded. The first cookie of a name
 * wins (browsers list the most specific path first). A value that does not
 * decode never throws and is never read as anything: its cookie counts as
 * absent, and its name stays taken, so a later cookie of that name (another
 * path or domain) is not read in its place. A name that does not decode is
 * kept as written. The table has no prototype (a cookie named "constructor"
 * or "__proto__" is a cookie like any other); the last header's table is
 * reused, so reading an unchanged document.cookie again parses nothing.
 * Callers must not change it.
 */
export function readCookies(header: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  const taken: Record<string, true> = Object.create(null);
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const raw = part.slice(0, eq).trim();
    const name = decode(raw);
    const key = name === undefined ? raw : name;
    if (!key || taken[key]) continue;
    taken[key] = true;
    const value = decode(part.slice(eq + 1).trim());
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** One cookie's value from a document.cookie string (readCookies' rules). */
export function readCookie(cookieHeader: string, name: string): string | undefined {
  return readCookies(cookieHeader)[name];
}

/** document.cookie behind a snapshot that our own synchronous sections hold (createCookieJar). */
export interface CookieJar {
  cookie: string;
  /** Until the returned release is called (once, by each holder), reads share one snapshot of document.cookie. */
  hold(): () => void;
}

/**
 * document.cookie, read once per held section. In Chromium a page's first
 * read of document.cookie, and the first after a write, is a synchronous
 * round trip to the browser's network service (1-2 ms measured; Chromium 156
 * answers unchanged reads from its own copy). A first page view read it 12
 * times. Boot and the
 * startup's page view hold the jar: their reads share one snapshot. A write
 * through the jar puts its name=value first in the snapshot, so reading
 * after our own write costs no second round trip (a removal or an expiry
 * drops the snapshot instead; a same-name cookie of a longer path, which the
 * browser would list first, reads as ours until the hold ends); the end of the outermost hold drops it, so a cookie the page writes
 * later is always seen. Only our own
 * synchronous code runs while the jar is held.
 */
export function createCookieJar(doc: { cookie: string }): CookieJar {
  let snapshot: string | undefined;
  let holders = 0;
  return {
    get cookie() {
      return snapshot !== undefined ? snapshot : holders ? (snapshot = doc.cookie) : doc.cookie;
    },
    set cookie(text: string) {
      doc.cookie = text;
      // Our own write read back from the snapshot: its name=value first, since the first cookie of a name wins
      // (readCookies); a removal or an expires attribute drops the snapshot (the next read asks the browser).
      snapshot = snapshot === undefined || /max-age=(0|-)|expires=/i.test(text) ? undefined : text.split(";")[0] + "; " + snapshot;
    },
    hold() {
      holders++;
      return () => {
        if (!--holders) snapshot = undefined;
      };
    },
  };
}

export function createCookies(doc: { cookie: string }, ctx: CookieContext): Cookies {
  return {
    get: (name) => readCookie(doc.cookie, name),
    set(name, value, options) {
      doc.cookie = cookieString(name, value, options || {}, ctx);
    },
    remove(name) {
      doc.cookie = cookieString(name, "", { maxAgeSeconds: 0 }, ctx);
    },
  };
}

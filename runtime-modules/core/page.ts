import type { PageInfo } from "./types";

/** The page as the bundle found it when it started. */
export function readPage(loc: { hostname: string; pathname: string; search: string; hash: string; href: string }, doc: { referrer: string }): PageInfo {
  return {
    host: loc.hostname,
    path: loc.pathname,
    query: new URLSearchParams(loc.search),
    hash: loc.hash,
    referrer: doc.referrer,
    href: loc.href,
  };
}

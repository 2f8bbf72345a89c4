/**
 * Which server records belong to this tab's page loads. The server sees
 * every request of every tab (and of pages still unloading after a new
 * Load); only the page's own bridge knows what its document sent:
 *  - an edge request by its requestId, which the runtime reports in its
 *    `beacon` monitor event before sending (retries repeat it);
 *  - any other request (the bundle, a pixel, a script) by its URL, from the
 *    document's resource timing;
 *  - the document itself by its address (the bridge's hello);
 *  - an edge request sent while a page unloaded (the runtime's report of it
 *    never reaches the app) by the page load its unload cookie names.
 * A record no page of this session claimed waits a while (the claim may come
 * after it: the stream and postMessage race), then is dropped.
 */
import type { NetworkRecord } from "./protocol";

export interface Claims {
  /** claim key -> page number of the session */
  keys: Map<string, number>;
  pending: NetworkRecord[];
}

/** How long an unclaimed record waits for its claim. */
export const CLAIM_WAIT_MS = 60_000;

export function createClaims(): Claims {
  return { keys: new Map(), pending: [] };
}

/** A URL without its port and fragment (the server records URLs as the browser asked, without the port). */
export function urlKey(url: string): string {
  try {
    const u = new URL(url);
    return `url:${u.protocol}//${u.hostname}${u.pathname}${u.search}`;
  } catch {
    return `url:${url}`;
  }
}

export function requestKey(requestId: string): string {
  return `rid:${requestId}`;
}

export function loadKey(load: string): string {
  return `load:${load}`;
}

/** The keys that claim a record, strongest first: its requestId (edge) or URL, then the page load it was sent unloading from. */
export function keysOf(r: NetworkRecord): string[] {
  if (r.kind !== "edge") return [urlKey(r.url)];
  const out = r.query.requestId ? [requestKey(r.query.requestId)] : [];
  if (r.unloadOf) out.push(loadKey(r.unloadOf));
  return out;
}

/** Records a claim (first claim wins); returns the waiting records it claims, with their page. */
export function claim(c: Claims, key: string, page: number): Array<{ record: NetworkRecord; page: number }> {
  if (!c.keys.has(key)) c.keys.set(key, page);
  const owner = c.keys.get(key)!;
  const out: Array<{ record: NetworkRecord; page: number }> = [];
  c.pending = c.pending.filter((r) => {
    if (!keysOf(r).includes(key)) return true;
    out.push({ record: r, page: owner });
    return false;
  });
  return out;
}

/** A record from the server: the page that claimed it, or undefined (it waits, or is not this session's). */
export function offer(c: Claims, r: NetworkRecord, now: number): number | undefined {
  const keys = keysOf(r);
  if (!keys.length) return undefined;
  for (const key of keys) {
    const page = c.keys.get(key);
    if (page !== undefined) return page;
  }
  c.pending = c.pending.filter((p) => now - p.time < CLAIM_WAIT_MS);
  c.pending.push(r);
  return undefined;
}

import { BODY_TYPE, utf8Length } from "./protocol";

/** One answer: by fetch, or a beacon's (a 204 without answer). */
export interface Reply {
  status: number;
  text: string;
  /** A header of a fetch's answer (none for a beacon, never retried). */
  header?(name: string): string | null;
  /** Sent by sendBeacon (no answer to read: never retried). */
  beacon?: true;
}

/** One attempt: sendBeacon (a 204 without answer) or fetch. Rejects on a network failure (or a browser without fetch). */
export type Transmit = (url: string, body: string, beacon: boolean) => Promise<Reply>;

/** Browsers allow 64 KB of keepalive bodies in flight; the rest go without keepalive. */
export const KEEPALIVE_BUDGET = 60000;

/**
 * The transport: sendBeacon when asked (and the browser takes it), else
 * fetch with alloy's options, keepalive within the browsers' budget.
 */
export function createTransport(win: Window): Transmit {
  let keepaliveBytes = 0;
  return (url, body, beacon) =>
    new Promise<Reply>((resolve) => {
      const nav = win.navigator;
      try {
        // No sendBeacon: its call throws, caught below as a refusal.
        if (beacon && nav.sendBeacon(url, new Blob([body], { type: BODY_TYPE }))) {
          return resolve({ status: 204, text: "", beacon: true });
        }
      } catch (e) {
        // A page's sendBeacon that throws refuses: fetch (keepalive) instead.
      }
      // keepalive: a request in flight outlives the page.
      // Referer: the origin only (alloy: the full address), so that what the page address may carry (an e-mail, an id) and
      // the redaction keeps out of the body does not leave by the header; the edge reads the page from the XDM.
      const bytes = utf8Length(body);
      const keepalive = keepaliveBytes + bytes < KEEPALIVE_BUDGET;
      if (keepalive) keepaliveBytes += bytes;
      resolve(
        win
          .fetch(url, {
            method: "POST",
            credentials: "include",
            cache: "no-cache",
            referrerPolicy: "strict-origin-when-cross-origin",
            headers: { "Content-Type": BODY_TYPE },
            body,
            keepalive,
          })
          .then((r) => r.text().then((text) => ({ status: r.status, text, header: (name: string) => r.headers.get(name) })))
          .finally(() => {
            if (keepalive) keepaliveBytes -= bytes;
          }),
      );
    });
}

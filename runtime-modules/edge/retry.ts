import type { Reply } from "./transport";
import { MAX_RETRIES, RETRY_STATUSES, retryDelay } from "./protocol";

export interface Retries {
  /**
   * Whether attempt n's reply is retried (429/502/503/504, at most
   * MAX_RETRIES times, never a beacon); if so, `again` runs after the delay
   * (Retry-After, else 1000 + 1000·n ms ± 30 %), or at flush.
   */
  schedule(reply: Reply, n: number, again: () => void): boolean;
  /** Runs every scheduled retry now (the page is being hidden). */
  flush(): void;
}

export function createRetries(win: Pick<Window, "setTimeout" | "clearTimeout">, random: () => number): Retries {
  const scheduled: Array<() => void> = [];
  return {
    schedule(reply, n, again) {
      if (reply.beacon || n >= MAX_RETRIES || RETRY_STATUSES.indexOf(reply.status) < 0) return false;
      const go = () => {
        win.clearTimeout(timer);
        scheduled.splice(scheduled.indexOf(go), 1);
        again();
      };
      const timer = win.setTimeout(go, retryDelay(reply.header!("Retry-After"), n, random, Date.now()));
      scheduled.push(go);
      return true;
    },
    flush: () => scheduled.slice().forEach((f) => f()),
  };
}

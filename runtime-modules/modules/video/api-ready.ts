/** Section 9: "video API retries up to 5 with exponential backoff from 1000 ms". */
export const API_READY_CHECKS = 5;
export const API_READY_FIRST_DELAY_MS = 1000;

/**
 * Waits for the video platform's iframe API: ready now, or at one of five
 * checks 1, 2, 4, 8 and 16 s apart ("after 5 failed readiness checks,
 * not-initialised is logged": then `giveUp`). `nudge()` checks at once (the
 * API's own ready callback). Each outcome happens once.
 */
export function whenApiReady(
  isReady: () => boolean,
  schedule: (callback: () => void, ms: number) => unknown,
  ready: () => void,
  giveUp: () => void,
): { nudge(): void } {
  let done = false;
  let failed = 0;
  const check = (): boolean => {
    if (done) return true;
    if (!isReady()) return false;
    done = true;
    ready();
    return true;
  };
  const retry = () => {
    if (check()) return;
    if (++failed >= API_READY_CHECKS) {
      done = true;
      giveUp();
    } else schedule(retry, API_READY_FIRST_DELAY_MS * Math.pow(2, failed));
  };
  if (!check()) schedule(retry, API_READY_FIRST_DELAY_MS);
  return { nudge: () => void check() };
}

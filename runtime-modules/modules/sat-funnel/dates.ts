/**
 * Dates the way the analytics payloads carry them: yyyymmdd. Shared by the
 * score-view and test-order rules too.
 */

function pad(n: string): string {
  return n.length < 2 ? "0" + n : n;
}

/**
 * yyyymmdd from yyyy/mm/dd ("slashes removed"), yyyy-mm-dd (also an ISO date
 * time), yyyymmdd, or the US form mm/dd/yyyy; "" for anything else (month
 * 1–12 and day 1–31 are checked, the calendar is not).
 */
export function toYyyymmdd(value: unknown): string {
  const s = value == null ? "" : String(value).trim();
  const m = /^(\d{4})[/-](\d\d?)[/-](\d\d?)(?!\d)/.exec(s) || /^(\d{4})(\d\d)(\d\d)(?!\d)/.exec(s);
  const us = m ? null : /^(\d\d?)\/(\d\d?)\/(\d{4})(?!\d)/.exec(s);
  if (!m && !us) return "";
  const y = m ? m[1] : us![3];
  const mo = m ? m[2] : us![1];
  const d = m ? m[3] : us![2];
  return +mo >= 1 && +mo <= 12 && +d >= 1 && +d <= 31 ? y + pad(mo) + pad(d) : "";
}

/** Whole days from one yyyymmdd date to another (negative when `to` is earlier); undefined if either is not a date. */
export function daysBetween(from: string, to: string): number | undefined {
  const a = toYyyymmdd(from);
  const b = toYyyymmdd(to);
  if (!a || !b) return undefined;
  const utc = (s: string) => Date.UTC(+s.slice(0, 4), +s.slice(4, 6) - 1, +s.slice(6));
  return Math.round((utc(b) - utc(a)) / 864e5);
}

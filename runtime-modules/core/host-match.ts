/** Lower case, without a trailing dot ("WWW.Kiwi.Example." → "www.kiwi.example"). */
export function normalizeHost(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, "");
}

/**
 * Whether a (normalized) host name matches one entry of the hostname table:
 * the exact host, or for "*.suffix" any host below suffix (not suffix itself).
 */
export function hostMatches(hostname: string, entry: string): boolean {
  if (entry.indexOf("*.") !== 0) return hostname === entry;
  const suffix = entry.slice(1);
  return hostname.length > suffix.length && hostname.slice(-suffix.length) === suffix;
}

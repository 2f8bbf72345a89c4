export { own } from "../core/own";

/** Lower-case host name of an address ("" when it does not parse). Relative addresses resolve against base. */
export function hostOf(url: string, base?: string): string {
  // No referrer, the common case: "" never parses without a base, and a thrown error costs a stack trace.
  if (!url && base === undefined) return "";
  try {
    return new URL(url, base).hostname.toLowerCase();
  } catch (e) {
    return "";
  }
}

/** Whether host is domain or below it ("a.kiwi.example" is on "kiwi.example"; "evilkiwi.example" is not). */
export function onDomain(host: string, domain: string): boolean {
  return !!domain && (host === domain || host.slice(-domain.length - 1) === "." + domain);
}

/** The first of the domains host is on. */
export function findDomain(host: string, domains: readonly string[]): string | undefined {
  for (const d of domains) if (onDomain(host, d)) return d;
  return undefined;
}

import type { EnvName } from "../../generator/config/bundle-config.js";
import { hostMatches, normalizeHost } from "./host-match";

/** Hosts where dev bundles also run. */
const LOCAL_HOSTS = ["localhost", "127.0.0.1"];

/**
 * "A bundle runs only on its own site's hosts for its environment (dev
 * bundles also on localhost and 127.0.0.1)."
 */
export function isAuthorizedHost(hostname: string, env: EnvName, hosts: Partial<Record<EnvName, string[]>>): boolean {
  const host = normalizeHost(hostname);
  if (env === "dev" && LOCAL_HOSTS.indexOf(host) >= 0) return true;
  return (hosts[env] || []).some((entry) => hostMatches(host, entry));
}

/** Whether the page is served from this machine (no domain cookies there). */
export function isLocalHost(hostname: string): boolean {
  return LOCAL_HOSTS.indexOf(normalizeHost(hostname)) >= 0;
}

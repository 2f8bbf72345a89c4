import type { EnvName } from "../../generator/config/bundle-config.js";
import { hostMatches, normalizeHost } from "./host-match";

/**
 * "Environment derived from hostname table: prod, qa, uat, perf, dev, oat,
 * nonprod, prev; fallback domain table, global flag, then default." An exact
 * host entry wins over a wildcard; of several wildcards the longest wins.
 * Then the fallback patterns (regular expression sources tried against the
 * host name, in order), then the global flag (the value of the page global
 * `envGlobal` names, when it is one of the eight environments), then
 * defaultEnv.
 */
export function detectEnvironment(
  hostname: string,
  hosts: Partial<Record<EnvName, string[]>>,
  fallback: ReadonlyArray<{ pattern: string; env: EnvName }>,
  defaultEnv: EnvName,
  flag?: unknown,
): EnvName {
  const host = normalizeHost(hostname);
  let best: EnvName | undefined;
  let bestLength = 0;
  for (const env of Object.keys(hosts) as EnvName[]) {
    for (const entry of hosts[env] || []) {
      if (entry === host) return env;
      if (entry.length > bestLength && hostMatches(host, entry)) {
        best = env;
        bestLength = entry.length;
      }
    }
  }
  if (best) return best;
  for (const rule of fallback) {
    try {
      if (new RegExp(rule.pattern).test(host)) return rule.env;
    } catch (e) {
      // An invalid pattern matches nothing (the generator rejects them anyway).
    }
  }
  return typeof flag === "string" && /^(prod|qa|uat|perf|dev|oat|nonprod|prev)$/.test(flag) ? (flag as EnvName) : defaultEnv;
}

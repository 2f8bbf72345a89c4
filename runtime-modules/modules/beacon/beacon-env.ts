import type { EnvName } from "../../../generator/config/bundle-config.js";
import { regexMatches } from "../../core/match-page";

export type EnvPattern = { pattern: string; env: EnvName };

/** The behavioural beacon's embed settings: "embed settings name, host, domain, env, lowerYn". */
export interface BeaconEmbedSettings {
  name: string;
  host: string;
  domain: string;
  env: EnvName;
  lowerYn: "y" | "n";
}

/**
 * "Beacon environment: by subdomain, then domain, else dev with lowerYn y;
 * lowerYn is n only in prod." The subdomain is the host's first label, the
 * domain the rest; each table is tried in order, the first match decides.
 */
export function beaconSettings(name: string, host: string, subdomainEnvs: readonly EnvPattern[], domainEnvs: readonly EnvPattern[]): BeaconEmbedSettings {
  const dot = host.indexOf(".");
  const sub = dot < 0 ? host : host.slice(0, dot);
  const domain = dot < 0 ? "" : host.slice(dot + 1);
  let env: EnvName = "dev";
  const bySub = subdomainEnvs.find((e) => regexMatches(e.pattern, sub));
  const byDomain = bySub ? undefined : domainEnvs.find((e) => regexMatches(e.pattern, domain));
  if (bySub) env = bySub.env;
  else if (byDomain) env = byDomain.env;
  return { name, host, domain, env, lowerYn: env === "prod" ? "n" : "y" };
}

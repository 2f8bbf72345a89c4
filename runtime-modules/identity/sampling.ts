import type { BundleConfig } from "../../generator/config/bundle-config.js";
import type { Cookies, Logger } from "../core/types";
import { SAMPLING_DECISION } from "../core/messages";
import { fnv1a32Hex } from "../edge/protocol";

/**
 * Whether a visitor id is sampled in at a rate in percent: its FNV-1a hash
 * modulo 100 below the rate. The same id gives the same answer at a rate;
 * 100 takes everyone, 0 no one.
 */
export function sampledIn(id: string, rate: number): boolean {
  return rate >= 100 || (rate > 0 && parseInt(fnv1a32Hex(id), 16) % 100 < rate);
}

/** The page's sampling decision (services.sampling, in bundles with a sampled tag). */
export interface Sampling {
  /** The tag settings' sampling rate of this host, in percent (config.sampling). */
  rate: number;
  /** Whether this visitor is sampled in: decided once per page, stably per visitor (the id in the sampling cookie). */
  sampledIn(): boolean;
  /** The decision once made (a read that writes no cookie), else undefined. */
  decided?: boolean;
}

export interface SamplingDeps {
  /** config.sampling (the host's rate), identity.cookies.sampling (the visitor's sampling id) and lifetimeDays (its lifetime). */
  config: Pick<BundleConfig, "sampling" | "identity">;
  cookies: Cookies;
  host: string;
  /** Its entries reach the monitor too (the preview's timeline). */
  log: Logger;
  random: () => number;
}

/**
 * "Sampling: production 100, others 1; many sites 1 or 2; monitoring
 * default 1 with sampled-in/out cookie per host" (spec section 9). Read in
 * docs/identity.md: the rate decides, per visitor and host, whether the
 * sampled tags run (a tag declared `sampled`, the monitoring family by
 * default); analytics is never sampled. The visitor's sampling id is written
 * (host cookie) the first time a decision is asked, that is by a sampled tag
 * that already has its consent (core/tag-loader.ts). Exported to the core's
 * feature table only for bundles with a sampled tag.
 */
export function createSampling({ config, cookies, host, log, random }: SamplingDeps): Sampling {
  const rate = config.sampling;
  const { sampling: name, lifetimeDays } = config.identity.cookies;
  const sampling: Sampling = {
    rate,
    sampledIn() {
      if (sampling.decided === undefined) {
        let id = cookies.get(name);
        if (!id)
          cookies.set(name, (id = Math.floor(random() * 4503599627370496).toString(36)), {
            maxAgeSeconds: lifetimeDays * 86400,
            domain: host,
            sameSite: "Lax",
          });
        sampling.decided = sampledIn(id, rate);
        log.info(SAMPLING_DECISION, { rate, sampledIn: sampling.decided });
      }
      return sampling.decided;
    },
  };
  return sampling;
}

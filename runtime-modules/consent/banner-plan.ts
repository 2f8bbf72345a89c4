import type { ConsentSettings } from "../../generator/config/bundle-config.js";
import type { ConsentEvent } from "./state";
import { regexMatches } from "../core/match-page";
import { normalizeHost } from "../core/host-match";

export interface BannerPlanInput {
  internal: boolean;
  host: string;
  /** location.search */
  query: string;
  banner: ConsentSettings["banner"];
  /** consent.privacyHostPattern, default "^privacy(-[a-z0-9]+)?\\." */
  privacyHostPattern: string;
}

export type BannerPlan =
  | { action: "skip"; reason: "internal-site" | "privacy-host" }
  | { action: "fail"; reason: "config"; missing: Array<"scriptSrc" | "domainScript"> }
  | { action: "load"; src: string; attributes: Record<string, string>; consentDomain?: string };

/**
 * Whether and how the consent banner loads. In order: "skipped ... on
 * internal sites"; "skipped on hosts of the form privacy(-suffix).{host}
 * when a skip parameter (kiwi-ccb) is present" (both needed); "Consent
 * banner needs script source and domain attribute, else failed config
 * check"; else load with data-domain-script, passing on the partner
 * curriculum site's own consent domain when configured.
 */
export function bannerPlan(input: BannerPlanInput): BannerPlan {
  if (input.internal) return { action: "skip", reason: "internal-site" };
  const skipParam = input.banner.skipParam;
  if (skipParam && new URLSearchParams(input.query).has(skipParam) && regexMatches(input.privacyHostPattern, normalizeHost(input.host)))
    return { action: "skip", reason: "privacy-host" };
  const missing: Array<"scriptSrc" | "domainScript"> = [];
  if (!input.banner.scriptSrc) missing.push("scriptSrc");
  if (!input.banner.domainScript) missing.push("domainScript");
  if (missing.length) return { action: "fail", reason: "config", missing };
  const plan: BannerPlan = { action: "load", src: input.banner.scriptSrc!, attributes: { "data-domain-script": input.banner.domainScript! } };
  if (input.banner.consentDomain) plan.consentDomain = input.banner.consentDomain;
  return plan;
}

/**
 * The consent event a plan starts with: an internal site is full consent; a
 * privacy-host skip or a failed config check ends the wait with nothing
 * granted; a banner that loads reports through its own events.
 */
export function bannerPlanEvent(plan: BannerPlan): ConsentEvent | undefined {
  if (plan.action === "load") return undefined;
  if (plan.action === "fail") return { type: "banner-failed", reason: "config" };
  return plan.reason === "internal-site" ? { type: "internal-site" } : { type: "banner-failed", reason: "skipped" };
}

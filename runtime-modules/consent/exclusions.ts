import type { BundleConfig, ConsentCategory } from "../../generator/config/bundle-config.js";
import { hostMatches, normalizeHost } from "../core/host-match";

export type ExclusionSettings = BundleConfig["exclusions"];

/** The exclusion-list key of a category: only functional and marketing have lists. */
function listKey(category: ConsentCategory): "functional" | "marketing" | undefined {
  return category === "functional" || category === "marketing" ? category : undefined;
}

/** "Exclusion app ids: functional 229; marketing 8, 229, 282, 292, 366, 395, 412." */
export function appIdExcluded(exclusions: ExclusionSettings, category: ConsentCategory, appId: string): boolean {
  const key = listKey(category);
  return !!key && exclusions.appIds[key].indexOf(String(appId).trim()) >= 0;
}

/** Exclusion by host name (exact or "*.suffix" entries). */
export function hostExcluded(exclusions: ExclusionSettings, category: ConsentCategory, host: string): boolean {
  const key = listKey(category);
  const h = normalizeHost(host);
  return !!key && exclusions.hosts[key].some((entry) => hostMatches(h, entry));
}

/** "a hostname allow-list restricts if configured": an empty list allows every host. */
export function hostAllowListed(exclusions: ExclusionSettings, host: string): boolean {
  const h = normalizeHost(host);
  return !exclusions.allowHosts.length || exclusions.allowHosts.some((entry) => hostMatches(h, entry));
}

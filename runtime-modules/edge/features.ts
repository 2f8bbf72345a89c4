import { DEMDEX, thirdPartyBrowser } from "./protocol";

/**
 * The Edge client's paths a bundle's configuration turns on, as build-time
 * features (issue #21): the generated core entry imports only those the
 * bundle's config turns on (generator/bundle/features.ts, configFeaturesOf)
 * and hands boot their table with the rule features; a bundle whose config
 * turns a path off carries none of its code. allRuleFeatures()
 * (rules/features.ts) has them all.
 */
export interface EdgeFeatures {
  /** `analytics.thirdPartyCookies`: the third-party host for this browser, or "" where alloy assumes third-party cookies do not work. */
  thirdPartyCookies?: (userAgent: string) => string;
}

/** alloy's thirdPartyCookiesEnabled: a new visitor's first request goes to adobedc.demdex.net in Chromium-family browsers. */
export function thirdPartyCookies(userAgent: string): string {
  return thirdPartyBrowser(userAgent) ? DEMDEX : "";
}

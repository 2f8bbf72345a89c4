import type { BundleConfig } from "../../generator/config/bundle-config.js";
import { mergeInto } from "../core/merge";
import { DEMDEX, thirdPartyBrowser, type Obj } from "./protocol";
import type { personalization } from "./personalization";

export { personalization } from "./personalization";

type Analytics = BundleConfig["analytics"];

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
  /** `analytics.datastreamOverride`: the datastream a request goes to, the configured one named in its meta.sdkConfig. */
  datastreamOverride?: (analytics: Analytics, meta: Obj) => string;
  /** `analytics.configOverrides`: merged into a request's datastream overrides. */
  configOverrides?: (analytics: Analytics, overrides: Obj) => Obj;
  /** `analytics.personalization`: a page view's proposition fetch, its decisions applied and their display notified (personalization.ts). */
  personalization?: typeof personalization;
}

/** alloy's thirdPartyCookiesEnabled: a new visitor's first request goes to adobedc.demdex.net in Chromium-family browsers. */
export function thirdPartyCookies(userAgent: string): string {
  return thirdPartyBrowser(userAgent) ? DEMDEX : "";
}

/** Requests go to the override's configId and name the configured datastream in meta.sdkConfig.datastream.original (alloy's datastreamConfigOverrides). */
export function datastreamOverride(analytics: Analytics, meta: Obj): string {
  const configId = analytics.datastreamOverride || analytics.datastreamId;
  if (configId !== analytics.datastreamId) meta.sdkConfig = { datastream: { original: analytics.datastreamId } };
  return configId;
}

/** The configured overrides merged into a request's (the report suite's). */
export function configOverrides(analytics: Analytics, overrides: Obj): Obj {
  return mergeInto(overrides, analytics.configOverrides);
}

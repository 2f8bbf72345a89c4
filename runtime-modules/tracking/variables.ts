/**
 * The analytics variables the tracking wiring sets (docs/tracking.md). The
 * spec names the fields but not their eVar/prop numbers: every number here
 * is a placeholder to confirm with the analytics team. They stay clear of
 * the numbers in use elsewhere (eVar5-6, eVar30-67, eVar71-74, prop31-33,
 * prop60; the catalogue's rules take eVar97 and up, prop91 and up: docs/rules.md). eVar5 and eVar6 (search term and type) are the org's search
 * rule's, which the wiring took over. The wiring sets `events` only on its
 * own beacons (a link-click push's eventCode, a search's search event),
 * never through setVariables, so it cannot clobber the events a rule or
 * module sets.
 */

/** Traffic source, on the first page view of a page load. */
export const TRAFFIC_VARS = {
  campaign: "eVar80",
  channel: "eVar81",
  referrer: "eVar82",
  referringDomain: "eVar83",
  partner: "eVar84",
  keywords: "eVar85",
  campaignPath: "eVar86",
  emailMessage: "eVar87",
  recipientId: "eVar88",
  segmentId: "eVar89",
  firstChannel: "eVar90",
  latestChannel: "eVar91",
};

/** Page view: "registration" or "conversion" on a conversion page. */
export const CONVERSION_VAR = "eVar92";
/** Page view on the hub: its embed environment (prod or dev). */
export const HUB_ENV_VAR = "prop81";

/** Link clicks: the flags that are on (search result, promo, nav, external, download, feature, pathing hit), joined by |; type; code; feature path; targeted promo. */
export const LINK_VARS = {
  flags: "eVar93",
  type: "prop82",
  code: "prop83",
  path: "prop84",
  targeted: "prop85",
};

/** Web vitals batch: name:rating:navigationType:delta, joined by | (an eVar: a batch outgrows a prop's 100 characters). */
export const VITALS_VAR = "eVar94";

/** Internal search (the search, quick-search and search-result-click pushes); the flags quick and nullified are "true" when set. */
export const SEARCH_VARS = {
  term: "eVar5",
  type: "eVar6",
  facet: "eVar95",
  origTerm: "eVar96",
  count: "prop86",
  speed: "prop87",
  quick: "prop88",
  nullified: "prop89",
  pageStateCode: "prop90",
};

/** Event types. */
export const LINK_EVENT_TYPE = "web.webinteraction.linkClicks";
export const VITALS_EVENT_TYPE = "kiwi.webVitals";
export const SEARCH_EVENT_TYPE = "kiwi.internalSearch";
export const QUICK_SEARCH_EVENT_TYPE = "kiwi.quickSearch";

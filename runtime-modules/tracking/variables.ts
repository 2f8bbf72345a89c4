/**
 * The event types the tracking wiring sends. The analytics variable numbers
 * it sets (traffic source, conversion, hub environment, link flags, web
 * vitals, internal search) are the catalogue's: `analyticsVariables` in
 * sites/_org.yaml (docs/tracking.md), inlined into each bundle. The wiring
 * sets `events` only on its own beacons (a link-click push's eventCode, a
 * search's search event), never through setVariables, so it cannot clobber
 * the events a rule or module sets.
 */

/** Event types. */
export const LINK_EVENT_TYPE = "web.webinteraction.linkClicks";
export const VITALS_EVENT_TYPE = "kiwi.webVitals";
export const SEARCH_EVENT_TYPE = "kiwi.internalSearch";
export const QUICK_SEARCH_EVENT_TYPE = "kiwi.quickSearch";

import type { Analytics } from "../core/types";
import { redactText, safeUrl, trackingAllowed } from "../analytics/redact";
import { activityMapName } from "../analytics/web-text";
import { isObject } from "../core/is-object";

type Xdm = Record<string, unknown>;
type Obj = Record<string, unknown>;

/** What the guard needs from the page and the rest of the tracking wiring. */
export interface GuardDeps {
  /** location.href now. */
  href(): string;
  /** document.referrer. */
  referrer(): string;
  /** The page name when a page view names none. */
  pageName(): string;
  /** Called before each page view passes on; returns variables for it (traffic source, conversion, ...). */
  onPageView(): Record<string, string>;
  /** Called once when a beacon is dropped because the address has an at-sign. */
  onBlocked(): void;
}

function obj(v: unknown): Obj {
  return isObject(v) ? v : {};
}

/**
 * Every value redacted (a variable may hold an address a rule read from the
 * page): the same object when no value changes (most), else a copy, never the
 * caller's object changed. The Edge client copies the values into its own
 * table or record and keeps no reference (issue #21: no copy per rule's variables).
 */
export function safeVariables(variables: Record<string, string> | undefined): Record<string, string> {
  let out: Record<string, string> | undefined;
  for (const k in variables) {
    const v = variables[k];
    const safe = typeof v === "string" ? redactText(v) : v;
    if (safe !== v) (out || (out = { ...variables }))[k] = safe;
  }
  return out || variables || {};
}

/**
 * The xdm with the page and referrer addresses set and made safe: the
 * caller's own when it gave them, else this page's. The Edge client merges
 * this over its defaults, so location.href never leaves unredacted.
 */
export function withPageUrls(xdm: Xdm | undefined, pageUrl: string, referrer: string): Xdm {
  const x: Xdm = { ...obj(xdm) };
  const web: Obj = { ...obj(x.web) };
  const url = (key: string, fallback: string) => {
    const o = obj(web[key]);
    web[key] = { ...o, URL: safeUrl(typeof o.URL === "string" ? o.URL : fallback) };
  };
  url("webPageDetails", pageUrl);
  url("webReferrer", referrer);
  x.web = web;
  return x;
}

/**
 * The Analytics every caller (rules, modules, boot, tracking) talks to:
 * - nothing is sent while the page address contains an at-sign (spec
 *   section 5), so not even the org page view leaves;
 * - every page view and event carries the page address and referrer through
 *   xdm (web.webPageDetails.URL, web.webReferrer.URL) redacted and safe;
 *   an event its web.webInteraction {name, type, URL, linkClicks} with the
 *   address safe; names and variable values are redacted;
 * - a page view without a name gets the page name; an SPA's later page view
 *   has the previous view's address as its referrer;
 * - page views get the variables of onPageView.
 */
export function guardAnalytics(inner: Analytics, deps: GuardDeps): Analytics {
  let referrer: string | undefined;
  let lastView: string | undefined;
  let blocked = false;
  const allowed = () => {
    if (trackingAllowed(deps.href())) return true;
    if (!blocked) deps.onBlocked();
    blocked = true;
    return false;
  };
  const currentReferrer = () => (referrer === undefined ? (referrer = safeUrl(deps.referrer())) : referrer);

  return {
    pageView(e) {
      if (!allowed()) return Promise.resolve(undefined);
      const href = safeUrl(deps.href());
      if (lastView !== undefined) referrer = lastView;
      lastView = href;
      const name = redactText(e.name || deps.pageName());
      const variables = safeVariables({ ...deps.onPageView(), ...e.variables });
      const xdm = withPageUrls(e.xdm, href, currentReferrer());
      // withPageUrls made webPageDetails afresh: named in place.
      ((xdm.web as Obj).webPageDetails as Obj).name = name;
      return inner.pageView({ name, variables, xdm });
    },
    event(e) {
      if (!allowed()) return Promise.resolve(undefined);
      const href = safeUrl(deps.href());
      const url = safeUrl(e.url === undefined ? href : e.url);
      const name = redactText(e.name);
      const xdm = withPageUrls(e.xdm, href, currentReferrer());
      const web = xdm.web as Obj;
      // Whole, so that a shallow merge over the Edge client's defaults keeps every field.
      web.webInteraction = { name, type: e.linkType, linkClicks: { value: 1 }, ...obj(web.webInteraction), URL: url };
      const map = e.activityMap;
      const activityMap = map && { link: redactText(map.link), region: redactText(map.region), page: activityMapName(redactText(deps.pageName())) };
      return inner.event({ name, eventType: e.eventType, linkType: e.linkType, url, variables: safeVariables(e.variables), xdm, activityMap });
    },
    setVariables(variables, xdm) {
      inner.setVariables(safeVariables(variables), xdm);
    },
  };
}

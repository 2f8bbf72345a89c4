import type { ActivityMap, Analytics } from "../core/types";
import { activityMapName, activityMapText } from "../analytics/web-text";
import { withoutEmailWords } from "../analytics/link-text";
import { classifyLink, linkClick, linkFlags, parseLink, type LinkClick, type LinkRules, type LinkType } from "../analytics/link-type";
import { LINK_EVENT_TYPE } from "./variables";
import type { AnalyticsVariables } from "../../generator/config/schemas/variables.js";

/** The link variables' numbers (analyticsVariables.link in sites/_org.yaml). */
export type LinkNames = AnalyticsVariables["link"];

/** The xdm interaction type of each kind of link: download, exit (external) or other. */
export function linkKind(type: LinkType): "download" | "exit" | "other" {
  return type === "download" ? "download" : type === "external" ? "exit" : "other";
}

/** The link flags and details as analytics variables (the catalogue's numbers). */
export function linkVariables(click: Pick<LinkClick, "type" | "pathingHit" | "code" | "path" | "targeted">, LINK_VARS: LinkNames): Record<string, string> {
  const flags = linkFlags(click as LinkClick);
  const on = (Object.keys(flags) as Array<keyof typeof flags>).filter((k) => flags[k]);
  const vars: Record<string, string> = {};
  if (on.length) vars[LINK_VARS.flags] = on.join("|");
  vars[LINK_VARS.type] = click.type;
  if (click.code) vars[LINK_VARS.code] = click.code;
  if (click.path) vars[LINK_VARS.path] = click.path;
  if (click.targeted) vars[LINK_VARS.targeted] = "tnt";
  return vars;
}

/** The analytics event of a classified click. */
export function linkEvent(click: LinkClick, names: LinkNames): Parameters<Analytics["event"]>[0] {
  return { name: click.name, eventType: LINK_EVENT_TYPE, linkType: linkKind(click.type), url: click.url, variables: linkVariables(click, names) };
}

/** What the click listener reads off a link element (a real one, or a test's stand-in). */
export interface LinkElement {
  href: unknown;
  textContent: string | null;
  dataset?: Readonly<Record<string, string | undefined>>;
  getAttribute(name: string): string | null;
  closest(selector: string): unknown;
  parentNode?: RegionNode | null;
}

/** An ancestor as linkRegion reads it. */
export interface RegionNode {
  id?: string;
  nodeName?: string;
  getAttribute?(name: string): string | null;
  parentNode?: RegionNode | null;
}

/**
 * A link's Activity Map region, as alloy finds it: the nearest ancestor's id,
 * else its aria-label when its role is region, else its name when it is a
 * header, main, footer or nav element; BODY when none is.
 */
export function linkRegion(el: Pick<LinkElement, "parentNode">): string {
  for (let n = el.parentNode; n; n = n.parentNode) {
    const label = n.getAttribute && n.getAttribute("role") === "region" ? n.getAttribute("aria-label") : null;
    const name = n.id || label || (n.nodeName && /^(HEADER|MAIN|FOOTER|NAV)$/i.test(n.nodeName) ? n.nodeName : "");
    const region = name && name.replace(/\s+/g, " ").trim();
    if (region) return region;
  }
  return "BODY";
}

/** A link element's text: its content, else its aria-label, else its title. */
function elementText(el: LinkElement): string {
  return el.textContent || el.getAttribute("aria-label") || el.getAttribute("title") || "";
}

/** The Activity Map data of a clicked link: its text (words with an at-sign left out; 99 characters) and region (200). */
export function linkActivityMap(el: LinkElement): ActivityMap {
  return { link: activityMapText(withoutEmailWords(elementText(el))), region: activityMapName(linkRegion(el)) };
}

/** Selector of the elements a click may come from; of the global header and footer (placeholder to confirm). */
export const LINK_SELECTOR = "a[href],area[href]";
export const GLOBAL_NAV_SELECTOR = "[data-ghf]";

/** Classifies the link a click landed on (undefined: not a link the rules track, such as javascript:). */
export function clickedLink(el: LinkElement, pageHost: string, apexDomain: string, rules: LinkRules): LinkClick | undefined {
  if (typeof el.href !== "string") return undefined;
  const d = el.dataset || {};
  const text = elementText(el);
  return classifyLink(
    {
      href: el.href,
      text,
      data: { searchResult: d.searchResult, promo: d.promo, nav: d.nav, feature: d.feature },
      globalNav: !!el.closest(GLOBAL_NAV_SELECTOR),
      pageHost,
      apexDomain,
    },
    rules,
  );
}

export interface LinkListenerDeps {
  analytics: Analytics;
  names: LinkNames;
  rules: LinkRules;
  apexDomain: string;
  pageHost(): string;
  /** Selectors of the site's own click rules: a link inside one of them is left to that rule. */
  ruleSelectors: readonly string[];
  onError(e: unknown): void;
}

/**
 * What a click does: the link it landed on (if any) sent as a link-click
 * event, unless it is inside one of the site's own click rules. It lives in
 * the deferred file (runtime-modules/deferred/deferred.ts); the first file's
 * listener queues the clicks made before it arrives (start-tracking.ts).
 */
export function linkClickHandler(deps: LinkListenerDeps): (target: EventTarget | null) => void {
  return (eventTarget) => {
    try {
      const target = eventTarget as Element | null;
      if (!target || typeof target.closest !== "function") return;
      const el = target.closest(LINK_SELECTOR) as unknown as LinkElement | null;
      if (!el) return;
      for (const selector of deps.ruleSelectors) if (target.closest(selector)) return;
      const click = clickedLink(el, deps.pageHost(), deps.apexDomain, deps.rules);
      if (click) deps.analytics.event({ ...linkEvent(click, deps.names), activityMap: linkActivityMap(el) });
    } catch (e) {
      deps.onError(e);
    }
  };
}

/**
 * One delegated click listener (capture phase, so a page's stopPropagation
 * cannot hide a click) that sends every link click as a link-click event.
 */
export function listenForLinks(doc: Pick<Document, "addEventListener">, deps: LinkListenerDeps): void {
  const handle = linkClickHandler(deps);
  doc.addEventListener("click", (event) => handle(event && event.target), true);
}

const LINK_TYPES = ["searchResult", "promo", "nav", "external", "download", "feature", "mailto", "tel"];

/** A pushed address, unwrapped and resolved against the page (undefined when blank or not an address). */
export function pushedUrl(value: unknown, pageHref: string): URL | undefined {
  return typeof value === "string" && value.trim() ? parseLink(value, pageHref) : undefined;
}

/** The event of a pushed click; without a pushed address the page's own is sent (url undefined). */
function pushedEvent(click: LinkClick, u: URL | undefined, names: LinkNames): Parameters<Analytics["event"]>[0] {
  const event = linkEvent(click, names);
  if (!u) event.url = undefined;
  return event;
}

/**
 * The event of a `link-click` push (docs/events.md): a link the bundle cannot
 * see as a plain link. Only with hasData (spec section 5); without an
 * eventCode it is skipped (the caller logs "no event code found in link
 * track payload"): undefined then, or "no-event-code". Named and flagged as a
 * clicked link of its type is (linkClick: web text, targeted promos, download
 * extension, partner domain, feature path).
 */
export function pushedLinkEvent(
  push: Record<string, unknown>,
  rules: LinkRules,
  pageHref: string,
  names: LinkNames,
): Parameters<Analytics["event"]>[0] | "no-event-code" | undefined {
  if (push.hasData !== true || LINK_TYPES.indexOf(push.linkType as string) < 0) return undefined;
  const code = typeof push.eventCode === "string" ? push.eventCode.trim() : "";
  if (!code) return "no-event-code";
  const type = push.linkType as LinkType;
  const u = pushedUrl(push.linkUrl, pageHref);
  const click = linkClick(
    type,
    typeof push.linkName === "string" ? push.linkName : "",
    u,
    rules,
    typeof push.pathingHit === "boolean" ? { pathingHit: push.pathingHit } : undefined,
  );
  const event = pushedEvent(click, u, names);
  event.variables!.events = code;
  return event;
}

/**
 * The event of a `promo-click` push (docs/events.md): a promo link click the
 * page reports itself. "Promo: name, destination, targeted flag (name starts
 * with tnt:)"; the push's targeted, when a boolean, overrides the prefix.
 * Undefined without a name.
 */
export function pushedPromoEvent(
  push: Record<string, unknown>,
  rules: LinkRules,
  pageHref: string,
  names: LinkNames,
): Parameters<Analytics["event"]>[0] | undefined {
  if (typeof push.name !== "string" || !push.name.trim()) return undefined;
  const u = pushedUrl(push.destination, pageHref);
  const click = linkClick("promo", push.name, u, rules);
  if (typeof push.targeted === "boolean") click.targeted = push.targeted;
  return pushedEvent(click, u, names);
}

import type { AnalyticsRules } from "../../generator/config/schemas/analytics.js";
import { findDomain, onDomain } from "./lookup";
import { LINK_TEXT_LIMIT, linkText, unwrapLink, withoutEmailWords } from "./link-text";
import { redactText, safeUrl } from "./redact";
import { cut, escapeText, squash, webText } from "./web-text";

export type LinkType = "searchResult" | "promo" | "nav" | "external" | "download" | "feature" | "mailto" | "tel";

export type LinkRules = Pick<AnalyticsRules, "internalDomains" | "partnerDomains" | "downloadExtensions" | "smallWords">;

/** A clicked link as plain data (the DOM layer reads it off the element). */
export interface LinkInput {
  /** The link's address: a.href (resolved); a relative one resolves against the page host's root. */
  href: string;
  /** Its visible text. */
  text: string;
  /**
   * Its data attributes (element.dataset): data-search-result marks a search
   * result, data-promo="name" a promo, data-nav="code" a navigation link,
   * data-feature="name" a feature link. Attribute names: placeholders to confirm.
   */
  data?: Readonly<Record<string, string | undefined>>;
  /** True when the link is in the global header or footer (navigation code ghf). */
  globalNav?: boolean;
  pageHost: string;
  apexDomain: string;
}

/** A classified click. */
export interface LinkClick {
  type: LinkType;
  /** Link text (lower case, 40), promo name (40) or feature text (lower case, 50): web text, escaped (linkName). */
  name: string;
  /** The destination, unwrapped and made safe (redacted; mailto and tel: the scheme only). */
  url: string;
  pathingHit: boolean;
  /** Navigation code, download extension, or the partner domain of an external link. */
  code?: string;
  /** Promo: "targeted flag (name starts with tnt:)". */
  targeted?: boolean;
  /** Feature: the destination path, cut to 24. */
  path?: string;
}

/** Section 9 texts. */
export const NONE_PROVIDED = "None Provided";
/** "global nav code ghf" */
export const GLOBAL_NAV_CODE = "ghf";
export const PROMO_NAME_LIMIT = 40;
export const FEATURE_TEXT_LIMIT = 50;
export const FEATURE_PATH_LIMIT = 24;

/**
 * Whether a click of each type is a pathing hit (counts as a step of the
 * visitor's path through the site): clicks that lead to another page of the
 * site. Placeholder to confirm.
 */
export const PATHING_HIT: Readonly<Record<LinkType, boolean>> = {
  searchResult: true,
  promo: true,
  nav: true,
  feature: true,
  external: false,
  download: false,
  mailto: false,
  tel: false,
};

/**
 * A link's or promo's name as recorded. "Web text in names: small words
 * dropped; | : = / become hyphens; commas, registered and trademark signs and
 * brackets removed"; words holding an at-sign (email addresses) left out;
 * "Promo names cut to 40 characters" (case kept), link text lower case and
 * cut to 40, feature text to 50; then "Text escaping replaces &, <, >,
 * double and single quotes" (after the cut: an escape is never cut in two).
 * No text: None Provided.
 */
export function linkName(raw: string, type: LinkType, smallWords: readonly string[]): string {
  const text = webText(withoutEmailWords(redactText(raw)), smallWords);
  const name = type === "promo" ? cut(text, PROMO_NAME_LIMIT).trim() : linkText(text, type === "feature" ? FEATURE_TEXT_LIMIT : LINK_TEXT_LIMIT);
  return name ? escapeText(name) : NONE_PROVIDED;
}

/**
 * A click of a known type: its name (linkName of raw), the destination u
 * made safe (mailto and tel: the scheme only; none: ""), the type's pathing
 * hit; a promo's targeted flag (raw starts with tnt:), a download's
 * extension, an external partner domain, a feature's path cut to 24.
 */
export function linkClick(type: LinkType, raw: string, u: URL | undefined, rules: LinkRules, extra?: Partial<LinkClick>): LinkClick {
  const click: LinkClick = {
    type,
    name: linkName(raw, type, rules.smallWords),
    url: !u ? "" : type === "mailto" || type === "tel" ? u.protocol : safeUrl(u.href),
    pathingHit: PATHING_HIT[type],
    ...extra,
  };
  if (type === "promo") click.targeted = /^tnt:/i.test(squash(raw));
  if (u && type === "download") click.code = extensionOf(u);
  if (u && type === "external") click.code = findDomain(u.hostname.toLowerCase(), rules.partnerDomains);
  if (u && type === "feature") click.path = cut(safeUrl(u.pathname), FEATURE_PATH_LIMIT);
  return click;
}

/** A link's address, unwrapped (clkg/, clkn/) and resolved against base; undefined when it does not parse. */
export function parseLink(href: string, base: string): URL | undefined {
  try {
    return new URL(unwrapLink(href.trim()), base);
  } catch (e) {
    return undefined;
  }
}

/** The lower-case file extension of an address's last path segment ("" when none). */
function extensionOf(u: URL): string {
  return ((/\.([a-z0-9]+)$/i.exec(u.pathname) || [])[1] || "").toLowerCase();
}

/**
 * Classifies a click. In order: mailto and tel ("tracked protocols"); other
 * non-http addresses (javascript:, data:) are not tracked (undefined); then
 * the marked kinds (search result, promo, navigation); then download (the
 * file extension of the last path segment is listed), external (host not
 * the page's, not on the apex domain or an internal domain; partner domain
 * as code), and feature for every other link.
 */
export function classifyLink(input: LinkInput, rules: LinkRules): LinkClick | undefined {
  const u = parseLink(input.href, "https://" + input.pageHost + "/");
  if (!u) return undefined;
  const d = input.data || {};
  const proto = u.protocol.slice(0, -1);
  if (proto === "mailto" || proto === "tel") return linkClick(proto, input.text, u, rules);
  if (proto !== "http" && proto !== "https") return undefined;
  if (d.searchResult != null) return linkClick("searchResult", input.text, u, rules);
  if (d.promo != null) return linkClick("promo", d.promo || input.text, u, rules);
  if (input.globalNav || d.nav != null)
    return linkClick("nav", input.text, u, rules, { code: (!input.globalNav && squash(d.nav || "").toLowerCase()) || GLOBAL_NAV_CODE });
  if (rules.downloadExtensions.indexOf(extensionOf(u)) >= 0) return linkClick("download", input.text, u, rules);
  const host = u.hostname.toLowerCase();
  if (host !== input.pageHost.toLowerCase() && !onDomain(host, input.apexDomain) && !findDomain(host, rules.internalDomains))
    return linkClick("external", input.text, u, rules);
  return linkClick("feature", d.feature || input.text, u, rules);
}

/** "Link flags: search result, promo, nav, external, download, feature, each with pathing hit." */
export function linkFlags(click: LinkClick): Record<"searchResult" | "promo" | "nav" | "external" | "download" | "feature" | "pathingHit", boolean> {
  const t = click.type;
  return {
    searchResult: t === "searchResult",
    promo: t === "promo",
    nav: t === "nav",
    external: t === "external",
    download: t === "download",
    feature: t === "feature",
    pathingHit: click.pathingHit,
  };
}

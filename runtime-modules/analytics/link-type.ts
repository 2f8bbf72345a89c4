import type { AnalyticsRules } from "../../generator/config/schemas/analytics.js";
import { findDomain, onDomain } from "./lookup";
import { linkText, unwrapLink } from "./link-text";
import { safeUrl } from "./redact";
import { cut, squash } from "./web-text";

export type LinkType = "searchResult" | "promo" | "nav" | "external" | "download" | "feature" | "mailto" | "tel";

export type LinkRules = Pick<AnalyticsRules, "internalDomains" | "partnerDomains" | "downloadExtensions">;

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
  /** Link text (lower case, 40), promo name (40) or feature text (lower case, 50). */
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
 * Classifies a click. In order: mailto and tel ("tracked protocols"); other
 * non-http addresses (javascript:, data:) are not tracked (undefined); then
 * the marked kinds (search result, promo, navigation); then download (the
 * file extension of the last path segment is listed), external (host not
 * the page's, not on the apex domain or an internal domain; partner domain
 * as code), and feature for every other link.
 */
export function classifyLink(input: LinkInput, rules: LinkRules): LinkClick | undefined {
  let u: URL;
  try {
    u = new URL(unwrapLink(input.href.trim()), "https://" + input.pageHost + "/");
  } catch (e) {
    return undefined;
  }
  const d = input.data || {};
  const text = linkText(input.text) || NONE_PROVIDED;
  const click = (type: LinkType, extra?: Partial<LinkClick>): LinkClick => ({
    type,
    name: text,
    url: type === "mailto" || type === "tel" ? u.protocol : safeUrl(u.href),
    pathingHit: PATHING_HIT[type],
    ...extra,
  });
  const proto = u.protocol.slice(0, -1);
  if (proto === "mailto" || proto === "tel") return click(proto);
  if (proto !== "http" && proto !== "https") return undefined;
  if (d.searchResult != null) return click("searchResult");
  if (d.promo != null) {
    const name = cut(squash(d.promo || input.text), PROMO_NAME_LIMIT).trim() || NONE_PROVIDED;
    return click("promo", { name, targeted: /^tnt:/i.test(name) });
  }
  if (input.globalNav || d.nav != null) return click("nav", { code: (!input.globalNav && squash(d.nav || "").toLowerCase()) || GLOBAL_NAV_CODE });
  const ext = (/\.([a-z0-9]+)$/i.exec(u.pathname) || [])[1];
  if (ext && rules.downloadExtensions.indexOf(ext.toLowerCase()) >= 0) return click("download", { code: ext.toLowerCase() });
  const host = u.hostname.toLowerCase();
  if (host !== input.pageHost.toLowerCase() && !onDomain(host, input.apexDomain) && !findDomain(host, rules.internalDomains))
    return click("external", { code: findDomain(host, rules.partnerDomains) });
  return click("feature", {
    name: linkText(d.feature || input.text, FEATURE_TEXT_LIMIT) || NONE_PROVIDED,
    path: cut(safeUrl(u.pathname), FEATURE_PATH_LIMIT),
  });
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

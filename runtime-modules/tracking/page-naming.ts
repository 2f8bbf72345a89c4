import type { PageNameSettings } from "../../generator/config/schemas/analytics.js";
import { errorPageName } from "../analytics/error-page";
import { hashCode, pageCode, pageName, pathCodes, uuidToWord } from "../analytics/page-name";
import { conversionPage, hubEnvironment } from "../analytics/site-pages";

/** What a page says about itself: the fields of a `page-view` data-layer push (docs/events.md, docs/tracking.md). */
export interface DeclaredPage {
  pageName?: string;
  flowCode?: string;
  pageCode?: string;
  viewCode?: string;
  errorCode?: string;
}

/** Where the page is (location.pathname, .search, .hash). */
export interface Where {
  path: string;
  search: string;
  hash: string;
}

/** The site whose paths drop their embed environment segment (spec section 2). */
export const HUB_SITE = "kiwihub";

/**
 * The page maps a site's modules offer (runtime-modules/modules/signin-pages/, testday-pages/):
 * the sign-in map for a declared page code, the test-day map for a path.
 * Each gives the codes, or undefined for a key or path it does not name.
 */
export interface PageMaps {
  pageCodes?(key: string, search: string): readonly string[] | undefined;
  pathCodes?(path: string): readonly string[] | undefined;
}

const FIELDS: Array<keyof DeclaredPage> = ["pageName", "flowCode", "pageCode", "viewCode", "errorCode"];

/** The page fields of a push (non-blank strings or numbers, trimmed); undefined when it has none. */
export function declaredPage(push: Record<string, unknown>): DeclaredPage | undefined {
  const page: DeclaredPage = {};
  let any = false;
  for (const field of FIELDS) {
    const v = push[field];
    const s = typeof v === "string" || typeof v === "number" ? String(v).trim() : "";
    if (s) {
      page[field] = s;
      any = true;
    }
  }
  return any ? page : undefined;
}

/**
 * The route a page view belongs to: path, query and the hash route (a
 * prevented hash such as #main-content is no route). Codes declared on one
 * route do not name another; an SPA view is due when this changes.
 */
export function routeKey(where: Where, preventedHashes: readonly string[]): string {
  return where.path + where.search + "#" + hashCode(where.hash, preventedHashes);
}

/**
 * A path's codes: by the site's path map when it names the path (the
 * test-day tool); the hub without its embed-prod/embed-stg/embed-dev
 * segment (an environment, not a page); any other path segment by segment.
 */
export function pathPageCodes(site: string, path: string, maps: PageMaps = {}): string[] {
  const mapped = maps.pathCodes && maps.pathCodes(path);
  if (mapped) return mapped.slice();
  const codes = pathCodes(path);
  return site === HUB_SITE ? codes.filter((c) => !/^embed-(prod|stg|dev)$/i.test(c)) : codes;
}

/**
 * The page name of a page (docs/tracking.md "Page names"), first match wins:
 * 1. a declared full pageName (UUIDs as uuid);
 * 2. a declared errorCode: the error page name (site + known page code, else
 *    site, page, code), joined by the site's separator;
 * 3. declared codes: a pageCode without flowCode that the site's page map
 *    names (the sign-in map; flow=idp-discovery: migrate) gives its codes;
 *    else flow, page and view codes; then the allow-listed parameters;
 * 4. the path (pathPageCodes), then a hash route not on the prevented list,
 *    then the allow-listed parameters.
 */
export function composePageName(site: string, rules: PageNameSettings, where: Where, declared?: DeclaredPage, maps: PageMaps = {}): string {
  const d = declared || {};
  if (d.pageName) return uuidToWord(d.pageName);
  const own = !!(d.flowCode || d.pageCode || d.viewCode);
  let codes: readonly string[];
  if (own) {
    const mapped = !d.flowCode && d.pageCode && maps.pageCodes ? maps.pageCodes(d.pageCode.toLowerCase(), where.search) : undefined;
    codes = mapped || [d.flowCode || "", d.pageCode || "", d.viewCode || ""];
  } else codes = pathPageCodes(site, where.path, maps);
  if (d.errorCode) {
    const page =
      codes
        .map(pageCode)
        .filter((c) => !!c)
        .join(rules.separator) || rules.rootPageCode;
    const name = errorPageName(pageCode(site), d.errorCode, page, rules.separator);
    if (name) return name;
  }
  return pageName({ site, codes, query: where.search, hash: own ? "" : where.hash }, rules);
}

/** Page-view variables of the site rules: the conversion kind, the hub's environment. */
export function sitePageFacts(site: string, where: Where): { conversion?: "registration" | "conversion"; hubEnv?: "prod" | "dev" } {
  const facts: { conversion?: "registration" | "conversion"; hubEnv?: "prod" | "dev" } = {};
  const conversion = conversionPage(site, where.path, where.hash);
  if (conversion) facts.conversion = conversion;
  if (site === HUB_SITE) facts.hubEnv = hubEnvironment(where.path);
  return facts;
}

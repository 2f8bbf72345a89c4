import type { Analytics } from "../core/types";
import { isObject } from "../core/is-object";
import { linkClick, type LinkRules } from "../analytics/link-type";
import { quickSearchRecord, searchKey, searchRecord, type SearchRecord } from "../analytics/search";
import { linkEvent, pushedUrl, type LinkNames } from "./link-clicks";
import { QUICK_SEARCH_EVENT_TYPE, SEARCH_EVENT_TYPE } from "./variables";
import type { AnalyticsVariables } from "../../generator/config/schemas/variables.js";

/** The search's variable numbers and events (analyticsVariables.search in sites/_org.yaml). */
export type SearchNames = AnalyticsVariables["search"];

type AnalyticsEvent = Parameters<Analytics["event"]>[0];

/** A search record as analytics variables (the catalogue's numbers: a flag as "true"), with its search event. */
export function searchVariables(record: SearchRecord, names: SearchNames["variables"]): Record<string, string> {
  const vars: Record<string, string> = { events: record.event };
  for (const k of Object.keys(names) as Array<keyof typeof names>) if (record[k] !== undefined) vars[names[k]] = String(record[k]);
  return vars;
}

/**
 * The events of the search and quick-search pushes (docs/events.md), one
 * per push; undefined when skipped or a duplicate. Keeps the
 * last search of the page: "Duplicate identical searches suppressed" (the
 * same search pushed again, a re-render, a back-and-forth, sends nothing
 * until another search is made).
 */
export function createSearchEvents(
  names: SearchNames,
  siteSearchCode?: string,
): (push: Readonly<Record<string, unknown>>, quick: boolean) => AnalyticsEvent | undefined {
  let last: string | undefined;
  return (push, quick) => {
    const record = quick ? quickSearchRecord(push, names) : searchRecord(push, names, siteSearchCode);
    const key = record && searchKey(record);
    if (!record || key === last) return undefined;
    last = key;
    return {
      name: quick ? "quick search" : "internal search",
      eventType: quick ? QUICK_SEARCH_EVENT_TYPE : SEARCH_EVENT_TYPE,
      linkType: "other",
      variables: searchVariables(record, names.variables),
    };
  };
}

/**
 * The event of a `search-result-click` push ("Site search result click:
 * destination, searchData (term, type, strFacet, isQuick)"): a search-result
 * link click to the destination, named by the search term, with the
 * search's variables (without its search event: the click is not a search).
 * Undefined without a destination or a search term.
 */
export function searchResultClickEvent(
  push: Readonly<Record<string, unknown>>,
  rules: LinkRules,
  pageHref: string,
  names: SearchNames,
  linkNames: LinkNames,
  siteSearchCode?: string,
): AnalyticsEvent | undefined {
  const u = pushedUrl(push.destination, pageHref);
  const d = isObject(push.searchData) ? push.searchData : {};
  // A result click needs its search's term (no placeholder).
  const record =
    u && typeof d.term === "string" && d.term.trim()
      ? searchRecord({ term: d.term, type: d.type, facet: d.strFacet, isQuick: d.isQuick }, names, siteSearchCode)
      : undefined;
  if (!u || !record) return undefined;
  const event = linkEvent(linkClick("searchResult", record.term, u, rules), linkNames);
  const vars = searchVariables(record, names.variables);
  delete vars.events;
  Object.assign(event.variables!, vars);
  return event;
}

import { own } from "./lookup";
import { squash } from "./web-text";

/** Spec section 5: "type without term gets term 'no search phrase entered'". */
export const NO_SEARCH_PHRASE = "no search phrase entered";
/** Spec section 5: "term without type gets type 'no search type entered'". */
export const NO_SEARCH_TYPE = "no search type entered";
/** Spec section 5: "count 0 or no-results marker prefixes term with 'null:'". */
export const NULL_PREFIX = "null:";
/** Spec section 9: "site search code site" (a site may set its own, such as bf_site). */
export const DEFAULT_SITE_SEARCH_CODE = "site";
/** The search events (analyticsVariables.search in sites/_org.yaml): type → event, and the event of any other type. */
export interface SearchEvents {
  events: Readonly<Record<string, string>>;
  otherEvent: string;
}

/** Spec section 5: "bfcs_spirit renamed bfcs". */
const RENAMED_TYPES: Readonly<Record<string, string>> = { bfcs_spirit: "bfcs" };

/** One search as recorded. */
export interface SearchRecord {
  /** Lower case, white space collapsed; a placeholder when blank; `null:` in front when nothing was found. */
  term: string;
  /** Lower case; renamed (bfcs_spirit → bfcs); a site search's type is the site search code. */
  type: string;
  /** The search event of the type (SearchEvents: section 9's table), the other event when the table does not name it. */
  event: string;
  /** "type 'college' marks quick search"; also a push's isQuick, and every quick-search push. */
  quick?: true;
  /** Set when the term was prefixed with null: (no results). */
  nullified?: true;
  count?: number;
  /** Facets, pipe-separated. */
  facet?: string;
  speed?: number;
  /** The term as typed (the push's origTerm, else its term; white space collapsed), when it differs from the recorded one. */
  origTerm?: string;
  pageStateCode?: string;
}

function text(value: unknown): string {
  return typeof value === "string" ? squash(value) : "";
}
function num(value: unknown): number | undefined {
  return typeof value === "number" && isFinite(value) ? value : undefined;
}

/** A record of term and type (blank: the placeholders) with the type's event; the other fields as given, blank ones left out. */
function record(term: string, type: string, fields: Omit<SearchRecord, "term" | "type" | "event">, ev: SearchEvents): SearchRecord {
  const r: SearchRecord = { term: term || NO_SEARCH_PHRASE, type: type || NO_SEARCH_TYPE, event: own(ev.events, type) || ev.otherEvent };
  for (const k of Object.keys(fields) as Array<keyof typeof fields>)
    if (fields[k] !== undefined && fields[k] !== "") (r as unknown as Record<string, unknown>)[k] = fields[k];
  return r;
}

/**
 * The record of a `search` push (docs/events.md), or undefined when it is
 * skipped. Spec section 5: "Internal search without term: skipped" (a push
 * without a term field, or with neither a term nor a type); "term without
 * type gets type 'no search type entered'; type without term gets term 'no
 * search phrase entered'; count 0 or no-results marker prefixes term with
 * 'null:'; type 'college' marks quick search; bfcs_spirit renamed bfcs". The
 * no-results marker is the push's `nullifiedTerm: true`; a term that already
 * starts with null: is not prefixed twice. A site search (type `site`, or
 * `isSiteSearch: true` without another type) takes the site's search code
 * as its type (spec section 9: "Site search codes such as accu_site, bf_site").
 */
export function searchRecord(
  push: Readonly<Record<string, unknown>>,
  ev: SearchEvents,
  siteSearchCode: string = DEFAULT_SITE_SEARCH_CODE,
): SearchRecord | undefined {
  if (typeof push.term !== "string") return undefined;
  const typed = text(push.term);
  let type = text(push.type).toLowerCase();
  if (!typed && !type) return undefined;
  type = RENAMED_TYPES[type] || type;
  if (type === DEFAULT_SITE_SEARCH_CODE || (!type && push.isSiteSearch === true)) type = siteSearchCode;
  const count = num(push.count);
  let term = typed.toLowerCase() || NO_SEARCH_PHRASE;
  const nullified = count === 0 || push.nullifiedTerm === true || !term.indexOf(NULL_PREFIX);
  if (nullified && term.indexOf(NULL_PREFIX)) term = NULL_PREFIX + term;
  const orig = text(push.origTerm) || typed;
  return record(
    term,
    type,
    {
      quick: push.isQuick === true || type === "college" || undefined,
      nullified: nullified || undefined,
      count,
      facet: Array.isArray(push.facet) ? push.facet.map(text).filter(Boolean).join("|") : text(push.facet),
      speed: num(push.speed),
      origTerm: orig === term ? undefined : orig,
      pageStateCode: text(push.pageStateCode),
    },
    ev,
  );
}

/**
 * The record of a `quick-search` push: "Quick-search event needs a term
 * (lowercased)". Undefined without one. The type's event as for a search
 * (quick-college event4, career-quick event302, scholarship-quick event378).
 */
export function quickSearchRecord(push: Readonly<Record<string, unknown>>, ev: SearchEvents): SearchRecord | undefined {
  const term = text(push.term).toLowerCase();
  return term ? record(term, text(push.type).toLowerCase(), { quick: true }, ev) : undefined;
}

/** What makes two searches identical ("Duplicate identical searches suppressed"): what is recorded but the speed and the term as typed. */
export function searchKey(r: SearchRecord): string {
  return JSON.stringify([r.term, r.type, r.quick, r.count, r.facet, r.pageStateCode]);
}

/**
 * Settings of the analytics rules (runtime-modules/analytics/): link
 * classification, web text, traffic source. A schema fragment: schema.ts
 * decides where it hangs in the settings (suggested key `analyticsRules`).
 * Page-name settings already live in PageNamesSchema (schema.ts).
 *
 * No value imports from schema.ts, so schema.ts may import this file without
 * an import cycle at load time.
 */
import { z } from "zod";
import type { PageNamesSchema } from "../schema.js";

/** A domain: `kiwi.example` matches itself and every host below it. */
const Domain = z
  .string()
  .regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, { message: "must be a lower-case domain such as kiwi.example" })
  .describe("A domain; it matches itself and every host below it.");

const ParamName = z.string().min(1).max(64);

/** Section 9 download types, then the extras of the default pattern. */
const DOWNLOAD_EXTENSIONS = [
  "doc",
  "docx",
  "eps",
  "jpg",
  "png",
  "svg",
  "xls",
  "ppt",
  "pptx",
  "pdf",
  "xlsx",
  "tab",
  "csv",
  "zip",
  "txt",
  "exe",
  "wav",
  "mp3",
  "mov",
  "mpg",
  "avi",
  "wmv",
];

/** Placeholder to confirm: the spec names no small words. */
const SMALL_WORDS = ["a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to", "with"];

/** Placeholder to confirm: "Partner domains (five) ...: not shown." */
const PARTNER_DOMAINS = ["practicepartner.example", "applicationportal.example", "financialaid.example", "scholarshipsearch.example", "counselortools.example"];

/** Placeholder to confirm: "search engine lists: not shown." */
const SEARCH_ENGINES = [
  ...["google.com", "google.ca", "google.co.uk", "google.com.au", "google.co.in", "google.com.mx"].map((domain) => ({ domain, keywordParam: "q" })),
  { domain: "bing.com", keywordParam: "q" },
  { domain: "search.yahoo.com", keywordParam: "p" },
  { domain: "duckduckgo.com", keywordParam: "q" },
  { domain: "baidu.com", keywordParam: "wd" },
  { domain: "yandex.com", keywordParam: "text" },
  { domain: "ecosia.org", keywordParam: "q" },
];

export const SearchEngineSchema = z
  .strictObject({
    domain: Domain.describe("The engine's search host; www. + it counts too, other hosts below it do not (classroom.google.com is no search)."),
    keywordParam: ParamName.describe("Referrer query parameter holding the search keywords."),
  })
  .describe("A search engine: referrers from its host are Organic Search.");

export const AnalyticsRulesSchema = z
  .strictObject({
    internalDomains: z
      .array(Domain)
      .default([])
      .describe("Domains counted as internal besides the page's host and the apex domain (links are not external, referrers start no new traffic touch)."),
    partnerDomains: z
      .array(Domain)
      .default(PARTNER_DOMAINS)
      .describe("Partner domains (spec: five, not shown; placeholders to confirm). Referrers there are Partner Sites."),
    searchEngines: z.array(SearchEngineSchema).default(SEARCH_ENGINES).describe("Search engines (spec: not shown; placeholders to confirm)."),
    downloadExtensions: z
      .array(z.string().regex(/^[a-z0-9]{1,10}$/, { message: "must be a lower-case file extension without the dot" }))
      .default(DOWNLOAD_EXTENSIONS)
      .describe("File extensions that make a link a download (spec section 9 list plus the default pattern's exe, wav, mp3, mov, mpg, avi, wmv)."),
    smallWords: z
      .array(z.string().regex(/^\S+$/, { message: "must be one word" }))
      .default(SMALL_WORDS)
      .describe("Small words dropped from web text in names (matched case-insensitively; placeholder list to confirm)."),
    trackingParams: z
      .array(ParamName)
      .default(["excmpid", "sfmc_cid", "s_kwcid"])
      .describe("Tracking-code query parameters, in priority order (spec section 7)."),
    emailParams: z
      .strictObject({
        message: ParamName.default("sfmc_mid").describe("Email message id parameter (placeholder to confirm)."),
        recipient: ParamName.default("sfmc_rid").describe("Recipient id parameter (placeholder to confirm)."),
        segment: ParamName.default("sfmc_sid").describe("Segment id parameter (placeholder to confirm)."),
      })
      .prefault({})
      .describe("Query parameters carrying the email message, recipient and segment ids."),
    historyDays: z
      .number()
      .int()
      .min(1)
      .max(400)
      .default(60)
      .describe("Traffic-source history expires this many days after its latest recorded touch (spec: 60)."),
  })
  .describe("Analytics rules: link classification, web text, traffic source.");

export type AnalyticsRules = z.output<typeof AnalyticsRulesSchema>;
export type SearchEngine = z.output<typeof SearchEngineSchema>;
/** The page-name settings (PageNamesSchema in schema.ts). */
export type PageNameSettings = z.output<typeof PageNamesSchema>;

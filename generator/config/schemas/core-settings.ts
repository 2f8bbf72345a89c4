/**
 * The settings sections every bundle has, whatever modules it enables:
 * timing, sampling, consent, exclusions and allow lists, page naming,
 * analytics ids and the size budget. SettingsSchema (../schema.ts) puts them
 * together with the modules, the analytics rules and the rules.
 */
import { z } from "zod";
import { ConsentCategorySchema, Hostname, HttpsUrl } from "../primitives.js";

const ms = (min: number, max: number, def: number, what: string) =>
  z.number().int().min(min).max(max).describe(`${what}, in ms (${min}–${max}, default ${def}).`).default(def);

/** Section 9 "Timeouts" and the rule/startup constants. */
export const TimingSchema = z
  .strictObject({
    failover: ms(1500, 9000, 5000, "Failover timeout"),
    pageLoad: ms(500, 5000, 2500, "Page-load timeout"),
    routeChange: ms(500, 4000, 2500, "Route/hash change debounce"),
    spaPage: ms(500, 2500, 1500, "SPA page-view delay"),
    trackStage: ms(0, 60000, 1000, "Track-stage timeout"),
    loading: ms(0, 60000, 4000, "Loading timeout"),
    failoverTrack: ms(0, 60000, 4000, "Failover track timeout"),
    widgetLink: ms(0, 60000, 1200, "Widget link timeout"),
    retryAttempts: z.number().int().min(1).max(100).describe("Retry attempts (default 10).").default(10),
    retryInterval: ms(10, 10000, 100, "Retry interval"),
    elementWait: ms(100, 60000, 5000, "Element wait"),
    elementPoll: ms(10, 5000, 100, "Element poll interval"),
    ruleTimeout: ms(100, 60000, 2000, "Rule condition/action timeout"),
    startupWait: ms(0, 30000, 4500, "Startup wait for credential and consent"),
  })
  .describe("Timing values (product spec section 9).");

export const SamplingSchema = z.number().int().min(0).max(100).describe("Sampling rate in percent (prod 100, others 1 unless set).");

export const ConsentSchema = z
  .strictObject({
    banner: z
      .strictObject({
        scriptSrc: HttpsUrl.optional().describe("Consent banner script (OneTrust style)."),
        domainScript: z.string().min(1).optional().describe("The banner's data-domain-script attribute."),
        skipParam: z.string().min(1).default("kiwi-ccb").describe("Query parameter that skips the banner on privacy hosts."),
        consentDomain: Hostname.optional().describe("A different consent domain (partner curriculum site)."),
      })
      .prefault({}),
    groups: z
      .strictObject({
        performance: z.string().default("C0002"),
        functional: z.string().default("C0003"),
        marketing: z.string().default("C0004"),
        programFunctional: z.string().default("C0005"),
        programMarketing: z.string().default("C0006"),
        required: z.string().default("C").describe("Consent group 'C' needed before any tag."),
      })
      .prefault({})
      .describe("Banner group ids per consent category."),
    defaultCategory: ConsentCategorySchema.default("marketing"),
  })
  .describe("Consent settings.");

export const ExclusionsSchema = z
  .strictObject({
    appIds: z
      .strictObject({
        functional: z.array(z.string().regex(/^\d+$/)).default([]),
        marketing: z.array(z.string().regex(/^\d+$/)).default([]),
      })
      .prefault({})
      .describe("Application ids whose pages block tags of a category."),
    hosts: z
      .strictObject({
        functional: z.array(Hostname).default([]),
        marketing: z.array(Hostname).default([]),
      })
      .prefault({}),
    allowHosts: z.array(Hostname).default([]).describe("When not empty, tags run only on these hosts."),
  })
  .describe("Exclusion and allow lists.");

export const PageNamesSchema = z
  .strictObject({
    separator: z.enum(["/", ":"]).default("/").describe("'/' for web style, ':' for app style."),
    keepParams: z.array(z.string().min(1)).default([]).describe("Allow-listed URL parameters appended to page names."),
    dropParams: z.array(z.string().min(1)).default([]).describe("Parameters dropped on this site even if allow-listed."),
    siteSearchCode: z
      .string()
      .min(1)
      .default("site")
      .describe("Site search code such as bf_site: the type a site search is recorded with (spec section 9: default site)."),
    rootPageCode: z.string().min(1).default("home"),
    preventedHashes: z
      .array(z.string().min(1))
      .default([])
      .describe(
        "Hash routes that are not a page: an entry is a whole route (top), or every route it starts when it ends in * (widget-*), = (tst=) or : (javascript:); case-insensitive.",
      ),
  })
  .describe("Page-naming settings.");

export const AnalyticsSchema = z
  .strictObject({
    orgId: z.string().regex(/^[A-Z0-9]+@AdobeOrg$/, { message: "must look like XXXX@AdobeOrg" }),
    datastreamId: z.string().min(1).describe("Edge datastream (configId)."),
    reportSuite: z.string().min(1),
    edgeDomain: Hostname.default("edge.adobedc.net"),
    edgeBasePath: z
      .string()
      .regex(/^[a-z0-9-]+$/)
      .default("ee"),
    datastreamOverride: z
      .string()
      .min(1)
      .optional()
      .describe("Per-environment datastream override: requests go to this configId and name datastreamId in meta.sdkConfig.datastream.original."),
    configOverrides: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "Datastream configuration overrides sent as meta.configOverrides (null and empty values removed); reportSuite is added as com_adobe_analytics.reportSuites.",
      ),
    thirdPartyCookies: z
      .boolean()
      .default(false)
      .describe(
        "A new visitor's first request goes to adobedc.demdex.net in Chromium-family browsers and CORE ids are fetched (alloy's thirdPartyCookiesEnabled). Our sites: false, first-party edge domain only.",
      ),
    idMigration: z
      .boolean()
      .default(true)
      .describe("Read the legacy ECID (AMCV_{orgId}, s_ecid) for a visitor without an identity cookie, and write AMCV_{orgId} for older tags."),
    personalization: z
      .strictObject({
        decisionScopes: z
          .array(z.string().min(1))
          .min(1)
          .default(["capture_ddl"])
          .describe("The decision scopes a page view asks for (section 7: proposition fetch, scope capture_ddl)."),
        storage: z.boolean().default(true).describe("Section 9: personalization storage on: each displayed proposition is counted in localStorage."),
      })
      .optional()
      .describe(
        "Personalisation (a performance tag, code personalization): page views fetch propositions; decisions are applied as personalization-decision pushes and their display notified (docs/edge.md).",
      ),
  })
  .describe("Analytics ids, report suite and edge domain (per environment).");

export const BudgetSchema = z
  .strictObject({
    gzipBytes: z.number().int().min(1000).max(500000).describe("Largest gzip size a bundle may have."),
  })
  .describe("Size budget.");

/**
 * Analytics variable numbers (issue 18: "Every analytics variable number
 * lives in YAML"): every eVar, prop, list and event the runtime's wiring and
 * the feature modules set is named here, under `analyticsVariables:` in
 * sites/_org.yaml (a site or environment may renumber one). No defaults: the
 * numbers are written in the catalogue, never in TypeScript, so an analyst
 * changes one without touching code. The catalogue's rules write theirs in
 * the rules themselves. Sections of feature modules a bundle does not enable
 * are left out of its inlined config (resolve.ts).
 *
 * Self-contained (zod only). The runtime imports these types only.
 */
import { z } from "zod";

/** An eVar, prop or list variable. */
export const VariableName = z
  .string()
  .regex(/^(eVar\d{1,3}|prop\d{1,3}|list\d)$/, { message: "must be an analytics variable such as eVar12, prop4 or list1" })
  .describe("An analytics variable: eVarN, propN or listN.");
/** A success event. */
export const EventName = z
  .string()
  .regex(/^event\d{1,4}$/, { message: "must be a success event such as event12" })
  .describe("A success event: eventN.");

const vars = <K extends string>(keys: readonly K[]) => z.strictObject(Object.fromEntries(keys.map((k) => [k, VariableName])) as Record<K, typeof VariableName>);

export const SEARCH_FIELDS = ["term", "type", "facet", "origTerm", "count", "speed", "quick", "nullified", "pageStateCode"] as const;
export const TRAFFIC_FIELDS = [
  "campaign",
  "channel",
  "referrer",
  "referringDomain",
  "partner",
  "keywords",
  "campaignPath",
  "emailMessage",
  "recipientId",
  "segmentId",
  "firstChannel",
  "latestChannel",
] as const;
export const LINK_FIELDS = ["flags", "type", "code", "path", "targeted"] as const;
/** The SAT funnel's registration data, in the order the module sends them. */
export const REGISTRATION_FIELDS = [
  "satRegNo",
  "adminType",
  "adminFormat",
  "adminCode",
  "adminDate",
  "registrantType",
  "fwType",
  "deviceChoice",
  "tdMinusNDays",
  "source",
  "steps",
  "dedupers",
] as const;
/** A score view's fields, in the order the module sends them. */
export const SCORE_VIEW_FIELDS = ["adminTypeCode", "asmtEventId", "adminType", "adminDate", "registrantType", "fwStatus", "scoreBand", "legacyRegId"] as const;

export const AnalyticsVariablesSchema = z
  .strictObject({
    search: z
      .strictObject({
        events: z.record(z.string().min(1), EventName).describe("Search type → its search event (spec section 9, 'Search type events')."),
        otherEvent: EventName.describe("The event of a type the table does not name (the site search's)."),
        variables: vars(SEARCH_FIELDS),
      })
      .describe("Internal search (search, quick-search, search-result-click pushes)."),
    traffic: vars(TRAFFIC_FIELDS).describe("Traffic source, on the first page view of a page load."),
    link: vars(LINK_FIELDS).describe("Link clicks: flags, type, code, feature path, targeted promo."),
    conversion: VariableName.describe('Page view: "registration" or "conversion" on a conversion page.'),
    hubEnvironment: VariableName.describe("Page view on the hub: its embed environment."),
    vitals: VariableName.describe("Web vitals batch."),
    consentChange: vars(["status", "type", "region", "actionSource"]).describe("Privacy consent change (the banner's, recorded by the runtime)."),
    video: z
      .strictObject({
        events: z.strictObject({
          started: z.array(EventName).min(1),
          milestone: z.array(EventName).min(1),
          resumed: z.array(EventName).min(1),
          ended: z.array(EventName).min(1),
          replayed: z.array(EventName).min(1),
          error: z.array(EventName).min(1),
        }),
        variables: vars(["id", "title", "milestone", "errorMessage", "errorType"]),
      })
      .describe("The video module's records."),
    scoreViews: z
      .strictObject({
        events: z
          .strictObject({ sat: z.tuple([EventName, EventName]), psat: z.tuple([EventName, EventName]) })
          .describe("Score view events (spec section 9: SAT 24 and 118, PSAT 88 and 119); the second is serialized with the deduper."),
        pageType: VariableName,
        variables: vars(SCORE_VIEW_FIELDS),
      })
      .describe("The scoreViews module's records."),
    satFunnel: z
      .strictObject({
        pathingHit: VariableName,
        registration: vars(REGISTRATION_FIELDS),
        orderId: VariableName,
        orderType: VariableName,
        features: VariableName,
        changeSteps: VariableName,
        widgetAction: VariableName,
        seatHold: VariableName,
        photo: VariableName,
        dashboardState: VariableName,
      })
      .describe("The satFunnel module's records."),
    testOrders: z
      .strictObject({
        orderEvent: EventName,
        editEvent: EventName,
        variables: vars(["orderId", "coverage", "tests", "edits", "flags", "aiCode", "admins", "date", "inContract"]),
      })
      .describe("The testOrders module's records."),
  })
  .describe("Analytics variable numbers of the runtime's wiring and the feature modules (placeholders to confirm where the spec gives none).");

export type AnalyticsVariables = z.output<typeof AnalyticsVariablesSchema>;
/** The sections that belong to a feature module (left out of a bundle that does not enable it). */
export const MODULE_VARIABLE_SECTIONS = ["video", "scoreViews", "satFunnel", "testOrders"] as const;

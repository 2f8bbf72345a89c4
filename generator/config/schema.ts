/**
 * The config model. These zod schemas are the single source of truth: the
 * generator validates YAML with them, `sitetags schema` turns them into JSON
 * Schema, and both the generator and the runtime use the types inferred here
 * (the runtime imports types only; zod never reaches a bundle).
 *
 * Every value the product spec fixes (ranges, defaults, tables) is written
 * here or in sites/_org.yaml exactly as the spec gives it.
 */
import { z } from "zod";
import { ENV_NAMES } from "./constants.js";

export { EnvNameSchema, ConsentCategorySchema, RegexString, SelectorString, Hostname, HttpsUrl, PathPrefix, type EnvName, type ConsentCategory } from "./primitives.js";
import { EnvNameSchema, ConsentCategorySchema, RegexString, SelectorString, Hostname, HttpsUrl, PathPrefix } from "./primitives.js";
import { RulesSettingsShape } from "./schemas/rules.js";
import { ConsentExtrasSchema, IdentitySchema } from "./schemas/consent-identity.js";
import { AnalyticsRulesSchema } from "./schemas/analytics.js";
import { FeatureModulesShape } from "./schemas/feature-modules.js";
import { PublishingSchema } from "./schemas/publishing.js";

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
    siteSearchCode: z.string().min(1).default("site").describe("Site search code such as bf_site: the type a site search is recorded with (spec section 9: default site)."),
    rootPageCode: z.string().min(1).default("home"),
    preventedHashes: z
      .array(z.string().min(1))
      .default([])
      .describe("Hash routes that are not a page: an entry is a whole route (top), or every route it starts when it ends in * (widget-*), = (tst=) or : (javascript:); case-insensitive."),
  })
  .describe("Page-naming settings.");

export const AnalyticsSchema = z
  .strictObject({
    orgId: z.string().regex(/^[A-Z0-9]+@AdobeOrg$/, { message: "must look like XXXX@AdobeOrg" }),
    datastreamId: z.string().min(1).describe("Edge datastream (configId)."),
    reportSuite: z.string().min(1),
    edgeDomain: Hostname.default("edge.adobedc.net"),
    edgeBasePath: z.string().regex(/^[a-z0-9-]+$/).default("ee"),
    datastreamOverride: z
      .string()
      .min(1)
      .optional()
      .describe("Per-environment datastream override: requests go to this configId and name datastreamId in meta.sdkConfig.datastream.original."),
    configOverrides: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("Datastream configuration overrides sent as meta.configOverrides (null and empty values removed); reportSuite is added as com_adobe_analytics.reportSuites."),
    thirdPartyCookies: z
      .boolean()
      .default(false)
      .describe("A new visitor's first request goes to adobedc.demdex.net in Chromium-family browsers and CORE ids are fetched (alloy's thirdPartyCookiesEnabled). Our sites: false, first-party edge domain only."),
    idMigration: z.boolean().default(true).describe("Read the legacy ECID (AMCV_{orgId}, s_ecid) for a visitor without an identity cookie, and write AMCV_{orgId} for older tags."),
  })
  .describe("Analytics ids, report suite and edge domain (per environment).");

export const BudgetSchema = z
  .strictObject({
    gzipBytes: z.number().int().min(1000).max(500000).describe("Largest gzip size a bundle may have."),
  })
  .describe("Size budget.");

/* ---------- modules ---------- */

export const ChatModuleSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    scriptSrc: HttpsUrl.describe("The chat widget script for this site and environment."),
    pages: z.array(PathPrefix).min(1).describe("Paths where the widget loads (a path matches itself and everything below it)."),
    pagePatterns: z.array(RegexString).default([]).describe("Extra path patterns."),
    consent: ConsentCategorySchema.default("functional"),
    deploymentId: z.string().min(1).optional(),
    launcherSelector: SelectorString.optional().describe("Element that opens the chat when clicked."),
  })
  .describe("Chat widget loader.");

export const SurveyModuleSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    scriptSrc: HttpsUrl.describe("The helpfulness survey script."),
    paths: z.array(RegexString).default([]).describe("Path patterns that must match too (trailing-slash paths only in any case)."),
    consent: ConsentCategorySchema.default("performance"),
    mountSelector: SelectorString.optional(),
  })
  .describe("Helpfulness survey loader.");

/** Spec section 5: "Milestone configuration: amount, type (fixed or every), unit (percent or seconds)"; "milestone amounts integers". */
export const VideoMilestoneSchema = z
  .strictObject({
    amount: z.number().int().min(1).max(86400),
    type: z.enum(["fixed", "every"]).default("fixed").describe("fixed: once, at the amount; every: at each multiple of it."),
    unit: z.enum(["seconds", "percent"]).default("seconds").describe("Percent milestones are ignored for live video."),
  })
  .refine((m) => m.unit !== "percent" || m.amount <= 100, { message: "a percent milestone is at most 100", path: ["amount"] })
  .describe("A video milestone.");

export const VideoModuleSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    apiSrc: HttpsUrl.default("https://www.youtube.com/iframe_api").describe("The video platform's iframe API script, loaded once a page has a player frame."),
    platform: z
      .string()
      .regex(/^[a-z0-9.-]+$/, { message: "must be lower-case letters, digits, dots and hyphens" })
      .default("youtube")
      .describe("A player frame is tracked only if its source contains this name."),
    frameSelector: SelectorString.default("iframe").describe("Which frames are candidates."),
    // Section 9: "Milestones 30, 60, 90, 120 s".
    milestones: z
      .array(VideoMilestoneSchema)
      .default([
        { amount: 30, type: "fixed", unit: "seconds" },
        { amount: 60, type: "fixed", unit: "seconds" },
        { amount: 90, type: "fixed", unit: "seconds" },
        { amount: 120, type: "fixed", unit: "seconds" },
      ]),
    // Section 9: "started, resumed, replayed tracking on".
    track: z
      .strictObject({ started: z.boolean().default(true), resumed: z.boolean().default(true), replayed: z.boolean().default(true) })
      .prefault({})
      .describe("Off: a first play, a play after a pause or after the end is reported as plain playing."),
    consent: ConsentCategorySchema.default("performance"),
  })
  .describe("Video player tracking: the platform's iframe API, player events, milestones and played time.");

/** A page map module (runtime-modules/modules/signin-pages/, testday-pages/): the spec's table, nothing to set. */
export const PageMapModuleSchema = z.strictObject({ enabled: z.boolean().default(true) });
export const SigninPagesModuleSchema = PageMapModuleSchema.describe("The sign-in page map (the sign-in sites).");
export const TestdayPagesModuleSchema = PageMapModuleSchema.describe("The test-day tool's page map (the test-day site).");

/**
 * Every module a site may enable, with its settings schema. Each key has a
 * folder runtime-modules/modules/KEY-IN-KEBAB-CASE/ whose module.ts names the
 * same schema (the build checks both ways: BUILD_REGISTRY_INVALID).
 */
export const ModulesSchema = z
  .strictObject({
    chat: ChatModuleSchema.optional(),
    survey: SurveyModuleSchema.optional(),
    video: VideoModuleSchema.optional(),
    ...FeatureModulesShape,
    signinPages: SigninPagesModuleSchema.optional(),
    testdayPages: TestdayPagesModuleSchema.optional(),
  })
  .describe("Feature modules this site uses, with their settings.");

/* ---------- settings (overridable per org, env, site, site env) ---------- */

export const SettingsSchema = z.strictObject({
  timing: TimingSchema.prefault({}),
  sampling: SamplingSchema.default(1),
  consent: ConsentSchema.extend(ConsentExtrasSchema.shape).prefault({}),
  identity: IdentitySchema.prefault({}),
  analyticsRules: AnalyticsRulesSchema.prefault({}),
  exclusions: ExclusionsSchema.prefault({}),
  pageNames: PageNamesSchema.prefault({}),
  analytics: AnalyticsSchema,
  budget: BudgetSchema,
  modules: ModulesSchema.prefault({}),
  ...RulesSettingsShape,
});
export type Settings = z.output<typeof SettingsSchema>;

/** The keys of SettingsSchema, for the layer schemas below. */
export const SETTINGS_KEYS = Object.keys(SettingsSchema.shape) as Array<keyof Settings>;

/* ---------- layers and files ---------- */

type AnyZod = z.ZodType;

/**
 * The "layer" form of a schema: every object key optional, defaults removed,
 * so that org, org-env, site and site-env layers can each set any subset.
 * Leaf checks (ranges, regexes, selectors) stay, so a bad value is reported
 * in the file that wrote it. Arrays and scalars are replaced whole on merge.
 */
export function layerOf(schema: AnyZod): AnyZod {
  const def = (schema as unknown as { _zod: { def: { type: string; innerType?: AnyZod } } })._zod.def;
  if (def.type === "default" || def.type === "prefault" || def.type === "optional") return layerOf(def.innerType!);
  if (def.type === "object") {
    const obj = schema as z.ZodObject;
    const shape: Record<string, AnyZod> = {};
    for (const [key, value] of Object.entries(obj.shape)) shape[key] = layerOf(value as AnyZod).optional();
    const layered = z.strictObject(shape);
    return obj.description ? layered.describe(obj.description) : layered;
  }
  return schema;
}

export const SettingsLayerSchema = layerOf(SettingsSchema) as z.ZodObject;

const envMap = <T extends AnyZod>(value: T) =>
  z.strictObject(Object.fromEntries(ENV_NAMES.map((env) => [env, value.optional()])) as Record<(typeof ENV_NAMES)[number], z.ZodOptional<T>>);

export const HostsSchema = envMap(z.array(Hostname)).describe(
  "Host names per environment. Only the environments the site has; each needs at least one host.",
);

export const SiteCodeSchema = z.string().regex(/^[a-z][a-z0-9-]{1,30}$/, { message: "must be lower-case letters, digits and hyphens" });

export const SiteFileSchema = z
  .strictObject({
    code: SiteCodeSchema.describe("The site code; equals the file name."),
    name: z.string().min(1).describe("Human-readable site name."),
    appId: z.string().regex(/^\d+$/, { message: "must be a digit string such as \"8\"" }).describe('Application id as a string, e.g. "8" identity, "16" store.'),
    spa: z.boolean().default(false).describe("Single-page application: page views on route changes."),
    internal: z.boolean().default(false).describe("Internal site: full consent, no banner wait."),
    hosts: HostsSchema,
    ...SettingsLayerSchema.shape,
    envs: envMap(SettingsLayerSchema).optional().describe("Per-environment overrides of any setting."),
  })
  .describe("One site of the catalogue (sites/CODE.yaml).");
export type SiteFile = z.output<typeof SiteFileSchema>;

export const OrgFileSchema = z
  .strictObject({
    apexDomain: Hostname.describe("The organisation's apex domain, e.g. kiwi.example."),
    dataLayerName: z.string().regex(/^[A-Za-z_$][A-Za-z0-9_$]*$/, { message: "must be a JavaScript identifier" }).describe("Global data-layer array name."),
    defaultEnv: EnvNameSchema.default("prod").describe("Environment when neither the host table nor the domain fallback decides."),
    envFallback: z
      .array(z.strictObject({ pattern: RegexString, env: EnvNameSchema }))
      .default([])
      .describe("Domain fallback table: host-name patterns to environments, tried in order."),
    publishing: PublishingSchema.prefault({}),
    ...SettingsLayerSchema.shape,
    envs: envMap(SettingsLayerSchema).optional().describe("Organisation-wide per-environment overrides."),
  })
  .describe("Organisation-wide defaults (sites/_org.yaml).");
export type OrgFile = z.output<typeof OrgFileSchema>;

export type ChatModuleConfig = z.output<typeof ChatModuleSchema>;
export type SurveyModuleConfig = z.output<typeof SurveyModuleSchema>;
export type VideoModuleConfig = z.output<typeof VideoModuleSchema>;
export type VideoMilestone = z.output<typeof VideoMilestoneSchema>;
export type ModulesConfig = z.output<typeof ModulesSchema>;
export type Timing = z.output<typeof TimingSchema>;
export type ConsentSettings = z.output<typeof ConsentSchema>;
export type ModuleName = keyof ModulesConfig;

/**
 * The config model. These zod schemas are the single source of truth: the
 * generator validates YAML with them, `sitetags schema` turns them into JSON
 * Schema, and both the generator and the runtime use the types inferred here
 * (the runtime imports types only; zod never reaches a bundle).
 *
 * Every value the product spec fixes (ranges, defaults, tables) is written
 * here or in sites/_org.yaml exactly as the spec gives it.
 *
 * This file holds the module schemas, SettingsSchema and the file schemas
 * (layers, site and organisation files); the sections are in schemas/
 * (core-settings.ts, consent-identity.ts, analytics.ts, rules.ts, …).
 */
import { z } from "zod";
import { ENV_NAMES } from "./constants.js";

export {
  EnvNameSchema,
  ConsentCategorySchema,
  RegexString,
  SelectorString,
  Hostname,
  HttpsUrl,
  PathPrefix,
  type EnvName,
  type ConsentCategory,
} from "./primitives.js";
import { EnvNameSchema, ConsentCategorySchema, RegexString, SelectorString, Hostname, HttpsUrl, PathPrefix } from "./primitives.js";
import { RulesSettingsShape } from "./schemas/rules.js";
import { ConsentExtrasSchema, IdentitySchema } from "./schemas/consent-identity.js";
import { AnalyticsRulesSchema } from "./schemas/analytics.js";
import { FeatureModulesShape } from "./schemas/feature-modules.js";
import { PublishingSchema } from "./schemas/publishing.js";
import { AnalyticsVariablesSchema } from "./schemas/variables.js";
import { TagModulesShape, TagsSchema } from "./schemas/tags.js";
import { AnalyticsSchema, BudgetSchema, ConsentSchema, ExclusionsSchema, PageNamesSchema, SamplingSchema, TimingSchema } from "./schemas/core-settings.js";

export { AnalyticsSchema, BudgetSchema, ConsentSchema, ExclusionsSchema, PageNamesSchema, SamplingSchema, TimingSchema } from "./schemas/core-settings.js";

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
    milestones: z.array(VideoMilestoneSchema).default([
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
    ...TagModulesShape,
  })
  .describe("Feature modules this site uses, with their settings.");

/* ---------- settings (overridable per org, env, site, site env) ---------- */

export const SettingsSchema = z.strictObject({
  timing: TimingSchema.prefault({}),
  sampling: SamplingSchema.default(1),
  consent: ConsentSchema.extend(ConsentExtrasSchema.shape).prefault({}),
  identity: IdentitySchema.prefault({}),
  analyticsRules: AnalyticsRulesSchema.prefault({}),
  analyticsVariables: AnalyticsVariablesSchema,
  exclusions: ExclusionsSchema.prefault({}),
  pageNames: PageNamesSchema.prefault({}),
  analytics: AnalyticsSchema,
  budget: BudgetSchema,
  modules: ModulesSchema.prefault({}),
  tags: TagsSchema.default({}),
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
  // tags: each entry is a layer too, so a site can switch an organisation's tag on (other records keep their schema).
  if (schema === TagsSchema) {
    const rec = def as unknown as { keyType: AnyZod; valueType: AnyZod };
    const layered = z.record(rec.keyType as z.ZodString, layerOf(rec.valueType));
    return schema.description ? layered.describe(schema.description) : layered;
  }
  return schema;
}

export const SettingsLayerSchema = layerOf(SettingsSchema) as z.ZodObject;

const envMap = <T extends AnyZod>(value: T) =>
  z.strictObject(Object.fromEntries(ENV_NAMES.map((env) => [env, value.optional()])) as Record<(typeof ENV_NAMES)[number], z.ZodOptional<T>>);

export const HostsSchema = envMap(z.array(Hostname)).describe("Host names per environment. Only the environments the site has; each needs at least one host.");

export const SiteCodeSchema = z.string().regex(/^[a-z][a-z0-9-]{1,30}$/, { message: "must be lower-case letters, digits and hyphens" });

export const SiteFileSchema = z
  .strictObject({
    code: SiteCodeSchema.describe("The site code; equals the file name."),
    name: z.string().min(1).describe("Human-readable site name."),
    appId: z.string().regex(/^\d+$/, { message: 'must be a digit string such as "8"' }).describe('Application id as a string, e.g. "8" identity, "16" store.'),
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
    dataLayerName: z
      .string()
      .regex(/^[A-Za-z_$][A-Za-z0-9_$]*$/, { message: "must be a JavaScript identifier" })
      .describe("Global data-layer array name."),
    defaultEnv: EnvNameSchema.default("prod").describe("Environment when neither the host table nor the domain fallback decides."),
    envFallback: z
      .array(z.strictObject({ pattern: RegexString, env: EnvNameSchema }))
      .default([])
      .describe("Domain fallback table: host-name patterns to environments, tried in order."),
    envGlobal: z
      .string()
      .regex(/^[A-Za-z_$][A-Za-z0-9_$]*$/, { message: "must be a JavaScript identifier" })
      .optional()
      .describe("Global flag (spec section 4): a page global naming the environment, read when neither the host table nor the domain fallback decides."),
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
export type { TagModuleConfig, ResolvedTag } from "./schemas/tags.js";
export { TagModuleSchema } from "./schemas/tags.js";
export type { TagFamilyModuleConfig } from "./schemas/tags.js";
export { TagFamilyModuleSchema } from "./schemas/tags.js";

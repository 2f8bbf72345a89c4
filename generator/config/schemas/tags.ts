/**
 * The declarative third-party tag catalogue (issue 20): `tags:` in
 * sites/_org.yaml, a site file or an `envs.ENV` block, keyed by tag code.
 * Layers merge key by key (a site turns an organisation tag on with
 * `tags: { rum: { enabled: true } }`). At resolve time each enabled tag
 * becomes one plain entry of the generic loader, module `tags` (resolve.ts,
 * resolveTags); a tag of a family whose vendor behaviour needs code (`rum`,
 * `beacon`, `adTracker`) switches that family's module on too. A bundle that
 * declares no tag carries no tag code; none of a family, none of its code.
 *
 * Self-contained (zod and primitives only) so that schema.ts imports it
 * without a cycle. The runtime imports these types only.
 */
import { z } from "zod";
import { ENV_NAMES } from "../constants.js";
import { ConsentCategorySchema, EnvNameSchema, Hostname, HttpsUrl, RegexString, SelectorString } from "../primitives.js";

/** Section 4: "Tags load after the consent banner closes, at page top, DOM ready and window loaded". */
export const TAG_LIFECYCLES = ["pageTop", "domReady", "windowLoaded"] as const;

/** The families whose vendor behaviour needs code: each is a runtime module of that name. */
export const TAG_FAMILIES = ["rum", "beacon", "adTracker", "chatFlow", "pushNotifications", "guidedHelp"] as const;
export type TagFamily = (typeof TAG_FAMILIES)[number];

export const TagCodeSchema = z
  .string()
  .regex(/^[a-z][a-z0-9-]{1,39}$/, { message: "must be lower-case letters, digits and hyphens (the code of ?cb-disable-{code})" });

const Identifier = z.string().regex(/^[A-Za-z_$][A-Za-z0-9_$]*$/, { message: "must be a JavaScript identifier" });
const AppId = z.string().regex(/^\d+$/, { message: 'must be a digit string such as "8"' });

/** A URL per environment, with a default for the environments not listed ("embedScriptSrc by environment with default"). */
export const UrlByEnvSchema = z
  .strictObject({ default: HttpsUrl.optional(), ...Object.fromEntries(ENV_NAMES.map((env) => [env, HttpsUrl.optional()])) } as Record<
    "default" | (typeof ENV_NAMES)[number],
    z.ZodOptional<typeof HttpsUrl>
  >)
  .describe("An https URL per environment; `default` for the others.");

/**
 * Real-user monitoring: "monitoring default 1 with sampled-in/out cookie per
 * host" (spec section 9). A tag of this family is sampled by default: the
 * host's sampling rate (`sampling`) decides, stably per visitor, whether it
 * runs (docs/identity.md, "Sampling"); nothing else of its own.
 */
export const RumSettingsSchema = z.strictObject({}).describe("Real-user monitoring: declares the family (its tags are sampled).");

/** The behavioural beacon: "hostNameRegex, embedScriptSrc by environment with default; embed settings name, host, domain, env, lowerYn". */
export const BeaconSettingsSchema = z
  .strictObject({
    hostNameRegex: RegexString.describe("The beacon loads only on hosts this matches."),
    global: Identifier.default("kiwiBeaconSettings").describe("The window global the embed settings are written to before the script."),
    name: z.string().min(1).describe("The embed settings' name."),
    subdomainEnvs: z
      .array(z.strictObject({ pattern: RegexString, env: EnvNameSchema }))
      .default([])
      .describe("The beacon's environment from the host's first label, tried in order."),
    domainEnvs: z
      .array(z.strictObject({ pattern: RegexString, env: EnvNameSchema }))
      .default([])
      .describe("Then from the rest of the host; else dev (lowerYn y)."),
  })
  .describe("The behavioural beacon's embed settings.");

/** Ad-tracker forwarding: "events pushed to a data layer and forwarded to advertising trackers (tracker, pixel id, event name, data)". */
export const AdTrackerSettingsSchema = z
  .strictObject({
    tracker: Identifier.describe("The tracker's window function (its queue stub is installed before its script)."),
    pixelId: z.string().min(1).describe("The pixel id, passed with every call."),
    initCommand: z.string().min(1).default("init"),
    trackCommand: z.string().min(1).default("track"),
    events: z
      .record(z.string().min(1), z.string().min(1))
      .refine((r) => Object.keys(r).length > 0, { message: "needs at least one data-layer event" })
      .describe("Data-layer event name → the tracker's event name."),
    call: z
      .enum(["function", "array"])
      .default("function")
      .describe(
        "How the tracker takes a call: function, its window function called with the arguments (social pixels); array, its window array's push with the arguments as one array (search ads' queues).",
      ),
    pageView: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The tracker's page-view event: (track command, pixel id, this, { path }) right after init, once per page load; a single-page application's later views are the data-layer event page-view (map it in events).",
      ),
  })
  .describe("Advertising trackers (search ads, social pixels): init with the pixel id, the page view, data-layer events forwarded.");

/**
 * Push notifications: the vendor's window queue (an array its script
 * replays), its init call with the app id and the tag's settings on this host
 * (`settings` with the host's `hostSettings` over them), and its page-view
 * call: once per page load, and on each data-layer page-view of a
 * single-page application.
 */
export const PushNotificationsSettingsSchema = z
  .strictObject({
    global: Identifier.describe("The vendor's window queue: an array installed before its script (left alone when already set)."),
    appId: z.string().min(1).describe("The site's app id at the push vendor, passed to init."),
    initCommand: z.string().min(1).default("init").describe("The first entry of the init call: [initCommand, { appId, ...settings }]."),
    pageViewCommand: z.string().min(1).default("pageView").describe("The first entry of the page-view call: [pageViewCommand, { path }]."),
  })
  .describe("The push-notification vendor's queue, init and page-view calls.");

const Ms = (max: number) => z.number().int().min(0, { message: "must not be negative" }).max(max);

/**
 * The chat-flow popup (spec sections 5 and 9): "flow id required; route
 * pattern a regex or false; cookie lifetime and delay not negative. ...
 * Shows once per cookie, skipped if path does not match, ignored within 1
 * second of the last. Exit intent: mouse within 5 px of the top moving
 * upward." The defaults are section 9's: "cookie widget_shown, lifetime 1
 * day, delay 0, exit threshold 5 px, ready timeout 30000 ms, rate limit 1000
 * ms, path /"; "Retry defaults 10 attempts, 100 ms; element wait 5000 ms,
 * 100 ms poll": the retries, their interval and the element wait are the
 * bundle's timing values (retryAttempts, retryInterval, elementWait) unless
 * the tag sets its own.
 */
export const ChatFlowSettingsSchema = z
  .strictObject({
    flowId: z.string().min(1, { message: "is required: the flow the popup shows" }).describe("The chat flow the popup shows (required)."),
    api: Identifier.default("kiwiChatFlow").describe("The vendor's window object: its ready(callback) function and its show command."),
    showCommand: Identifier.default("showFlow").describe("The vendor object's function called with the flow id."),
    trigger: z
      .enum(["exitIntent", "click", "load"])
      .default("exitIntent")
      .describe(
        "exitIntent: the mouse within exitThreshold px of the top, moving upward; click: a click on `selector`; load: once the tag's script has loaded. The popup follows `delay` ms later.",
      ),
    selector: SelectorString.optional().describe("The trigger element, for trigger click."),
    routePattern: z
      .union([RegexString, z.literal(false)])
      .default(false)
      .describe("The paths the popup shows on (a regex), or false for every path."),
    cookie: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, { message: "must be a cookie name" })
      .default("widget_shown")
      .describe("Set once the popup has shown (path /); while it is set the popup does not show again."),
    cookieDays: z.number().min(0, { message: "must not be negative" }).max(365).default(1).describe("The cookie's lifetime in days."),
    delay: Ms(600000).default(0).describe("Milliseconds between the trigger and the popup."),
    exitThreshold: z.number().int().min(0).max(100).default(5).describe("Exit intent: px from the top of the window."),
    rateLimit: Ms(60000).default(1000).describe("A trigger within this many ms of the last is ignored."),
    readyTimeout: Ms(120000).default(30000).describe("How long the vendor's ready callback is awaited."),
    retries: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe("Attempts to find the vendor object after its script loaded (default timing.retryAttempts, 10)."),
    retryInterval: Ms(10000).optional().describe("Milliseconds between those attempts (default timing.retryInterval, 100)."),
    elementWait: Ms(60000).optional().describe("How long the trigger element is awaited, polled every retryInterval (default timing.elementWait, 5000)."),
  })
  .refine((s) => s.trigger !== "click" || !!s.selector, { message: "trigger click needs a selector", path: ["selector"] })
  .describe("The chat-flow popup.");

/** The guided-help flow flags (spec section 3: "flags for impression, step impression, interaction, time spent, complete, dismiss, error"). */
export const GUIDED_HELP_FLAGS = ["impression", "stepImpression", "interaction", "timeSpent", "complete", "dismiss", "error"] as const;
/** A guided-help survey's parts (section 3: "Survey variants have impression, score, feedback, dismiss"). */
export const GUIDED_HELP_SURVEY_PARTS = ["impression", "score", "feedback", "dismiss"] as const;

/**
 * The guided-help vendor (AppCues-like; spec sections 3 and 8): its window
 * object, where the bundle listens for every flow event (`on("all",
 * handler(name, event))`), and which vendor event is which flag. Each flow
 * event becomes a `guided-help` push (docs/events.md), each survey event a
 * `guided-help-survey` push, which the site's YAML records consume; "guidance
 * widget not available" when the object never arrives within `timeout` ms.
 * The event names are AppCues's (placeholders to confirm with the vendor).
 */
export const GuidedHelpSettingsSchema = z
  .strictObject({
    api: Identifier.default("kiwiGuide").describe("The vendor's window object (its on(eventName, handler) function)."),
    listen: z.string().min(1).default("all").describe("The event name that listens to every vendor event (handler(name, event))."),
    timeout: Ms(120000).default(5000).describe("Milliseconds the vendor object is awaited once the tag loads; then 'guidance widget not available'."),
    pollInterval: Ms(10000).default(100).describe("Milliseconds between the looks for the vendor object."),
    flowEvents: z
      .record(z.string().min(1), z.enum(GUIDED_HELP_FLAGS))
      .default({
        flow_started: "impression",
        step_started: "stepImpression",
        step_interacted: "interaction",
        form_submitted: "interaction",
        step_completed: "timeSpent",
        flow_completed: "complete",
        flow_skipped: "dismiss",
        flow_error: "error",
        step_error: "error",
      })
      .describe("Vendor flow event name -> the flag its guided-help push carries."),
    surveyEvents: z
      .record(z.string().min(1), z.enum(GUIDED_HELP_SURVEY_PARTS))
      .default({ nps_survey_started: "impression", nps_score: "score", nps_feedback: "feedback", nps_ask_me_later_selected: "dismiss" })
      .describe("Vendor survey event name -> the part its guided-help-survey push carries."),
  })
  .describe("The guided-help vendor's flow events, turned into guided-help and guided-help-survey pushes.");

export const TagSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    description: z.string().optional(),
    category: ConsentCategorySchema.optional().describe("The consent category; consent.defaultCategory (marketing) when not set."),
    lifecycle: z
      .enum(TAG_LIFECYCLES)
      .optional()
      .describe("When it loads: its category's point when not set (performance at page top; functional, program and marketing at DOM ready); never earlier."),
    script: UrlByEnvSchema.optional().describe("The tag's script (with the page's CSP nonce)."),
    pixel: UrlByEnvSchema.optional().describe("A 1x1 image."),
    iframe: UrlByEnvSchema.optional().describe("A hidden iframe."),
    queue: z
      .strictObject({ global: Identifier, kind: z.enum(["function", "array"]).default("function") })
      .optional()
      .describe("A vendor's global queue stub, installed before the script arrives."),
    excludeAppIds: z.array(AppId).default([]).describe("Application ids where this tag never loads (besides the category's exclusion lists)."),
    attributes: z
      .record(z.string().regex(/^data-[a-z0-9-]+$/, { message: "must be a data- attribute name" }), z.string())
      .default({})
      .describe("data- attributes of the script element."),
    settingsGlobal: Identifier.optional().describe("The window global the settings are written to before the tag loads."),
    settings: z
      .record(z.string(), z.unknown())
      .default({})
      .describe("The tag's settings (written to settingsGlobal; a family may take them too, as push notifications' init does)."),
    hostSettings: z.record(Hostname, z.record(z.string(), z.unknown())).default({}).describe("Settings per host, over `settings` on that host."),
    sampled: z
      .boolean()
      .optional()
      .describe(
        "Whether the host's sampling rate decides, stably per visitor, if it runs (docs/identity.md, Sampling); default true for the rum family, false otherwise.",
      ),
    rum: RumSettingsSchema.optional(),
    beacon: BeaconSettingsSchema.optional(),
    adTracker: AdTrackerSettingsSchema.optional(),
    chatFlow: ChatFlowSettingsSchema.optional(),
    pushNotifications: PushNotificationsSettingsSchema.optional(),
    guidedHelp: GuidedHelpSettingsSchema.optional(),
  })
  .describe("One third-party tag.");

export const TagsSchema = z.record(TagCodeSchema, TagSchema).describe("Third-party tags by code (docs/tags.md).");
export type TagDeclaration = z.output<typeof TagSchema>;

/** One enabled tag as a bundle carries it: only what this site and environment need, nothing empty. */
export const ResolvedTagSchema = z.strictObject({
  code: TagCodeSchema,
  category: ConsentCategorySchema,
  lifecycle: z.enum(TAG_LIFECYCLES),
  kind: z.enum(["script", "pixel", "iframe"]),
  family: z.enum(TAG_FAMILIES).optional(),
  src: HttpsUrl,
  queue: z.strictObject({ global: Identifier, kind: z.enum(["function", "array"]) }).optional(),
  excludeAppIds: z.array(AppId).optional(),
  attributes: z.record(z.string(), z.string()).optional(),
  settingsGlobal: Identifier.optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
  hostSettings: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  sampled: z.literal(true).optional(),
  rum: RumSettingsSchema.optional(),
  beacon: BeaconSettingsSchema.optional(),
  adTracker: AdTrackerSettingsSchema.optional(),
  chatFlow: ChatFlowSettingsSchema.optional(),
  pushNotifications: PushNotificationsSettingsSchema.optional(),
  guidedHelp: GuidedHelpSettingsSchema.optional(),
});
export type ResolvedTag = z.output<typeof ResolvedTagSchema>;

/** A tag module's settings: filled from `tags:` by the build, never written under `modules:` by hand. */
export const TagModuleSchema = z
  .strictObject({ enabled: z.boolean().default(true), tags: z.array(ResolvedTagSchema).min(1) })
  .describe("Filled by the build from the tags: section (docs/tags.md); not written by hand.");
export type TagModuleConfig = z.output<typeof TagModuleSchema>;

/** A family's module: its vendor behaviour, for the tags of `tags` that declare the family. Switched on by the build, never by hand. */
export const TagFamilyModuleSchema = z
  .strictObject({ enabled: z.boolean().default(true) })
  .describe("Switched on by the build when an enabled tag declares this family (docs/tags.md); not written by hand.");
export type TagFamilyModuleConfig = z.output<typeof TagFamilyModuleSchema>;

/** Spread into ModulesSchema: the generic loader and one module per family. */
export const TagModulesShape = {
  tags: TagModuleSchema.optional(),
  rum: TagFamilyModuleSchema.optional(),
  beacon: TagFamilyModuleSchema.optional(),
  adTracker: TagFamilyModuleSchema.optional(),
  chatFlow: TagFamilyModuleSchema.optional(),
  pushNotifications: TagFamilyModuleSchema.optional(),
  guidedHelp: TagFamilyModuleSchema.optional(),
};

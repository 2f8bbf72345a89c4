/**
 * Rules, data elements and the data layer: the schema of what the analytics
 * team declares in YAML (org-wide in _org.yaml, per site, per environment).
 * The runtime (runtime-modules/rules/) imports these types only.
 */
import { z } from "zod";
import { ConsentCategorySchema, EnvNameSchema, HttpsUrl, RegexString, SelectorString } from "../primitives.js";
import { DataElementSchema, Name, Scalar } from "./data-elements.js";
import * as MESSAGES from "../../../runtime-modules/core/messages.js";

export { CORE_PROVIDED_VALUES, DATA_ELEMENT_NAME, DataElementSchema, TOKEN, type DataElement } from "./data-elements.js";

/** The runtime's log messages (runtime-modules/core/messages.ts, docs/messages.md): what a log action may say. */
const MESSAGE_TEXTS = Object.values(MESSAGES).filter((m) => typeof m === "string") as unknown as [string, ...string[]];

const ms = (max: number) => z.number().int().min(0).max(max);

/* ---------- events ---------- */

const ev = <K extends string, T extends z.ZodRawShape>(type: K, shape: T, description: string) =>
  z.strictObject({ type: z.literal(type), ...shape }).describe(description);

export const RuleEventSchema = z.discriminatedUnion("type", [
  ev("libraryLoaded", {}, "When the bundle starts (page top)."),
  ev("domReady", {}, "DOMContentLoaded."),
  ev("windowLoaded", {}, "window load."),
  ev("dataLayerPush", { event: z.string().min(1).describe("The pushed event name.") }, "A data-layer push with this event name."),
  ev("dataOnly", {}, "A data-layer push without an event name."),
  ev("click", { selector: SelectorString }, "A click on an element matching the selector (one delegated listener)."),
  ev("routeChange", {}, "SPA route change (history API and hash), debounced by timing.routeChange."),
  ev("elementExists", { selector: SelectorString }, "An element appears (polled per timing.elementPoll up to timing.elementWait)."),
  ev("directCall", { name: z.string().min(1) }, "sitetags.track(name, detail) from the page."),
  ev(
    "timer",
    { delay: ms(3600000).optional(), interval: ms(3600000).optional(), limit: z.number().int().min(1).optional() },
    "After a delay, or every interval (limit times).",
  ),
  ev(
    "noPush",
    {
      event: z.string().min(1).describe("The data-layer event awaited."),
      after: z
        .string()
        .min(1)
        .optional()
        .describe(
          "Each push of this event starts the wait again (the same name as `event`: the wait runs from its last push); without it, the wait runs once from the rules' start.",
        ),
      wait: z
        .enum(["failover", "failoverTrack", "trackStage", "loading"])
        .describe("The timing value the wait lasts (docs/runtime.md, timing table): failover, failoverTrack, trackStage or loading."),
    },
    "An awaited push that did not come: the wait (timing.<wait>) has passed with no push of `event` since the rules started (or since the last push of `after`).",
  ),
  ev(
    "tagsLoad",
    { category: ConsentCategorySchema, lifecycle: z.enum(["pageTop", "domReady", "windowLoaded"]) },
    "Once per page, when the lifecycle point is reached and the category is granted (or a load-tags push asks for the pair).",
  ),
]);
export type RuleEvent = z.output<typeof RuleEventSchema>;
export const EVENT_TYPES = RuleEventSchema.options.map((o) => o.shape.type.value);

/* ---------- conditions ---------- */

const match = {
  equals: z.string().optional(),
  matches: RegexString.optional(),
  startsWith: z.string().optional(),
};

export type RuleCondition =
  | { type: "host" | "path"; equals?: string; matches?: string; startsWith?: string }
  | { type: "query" | "cookie"; name: string; equals?: string; matches?: string; startsWith?: string; exists?: boolean }
  | {
      type: "dataElement";
      name: string;
      equals?: string | number | boolean;
      matches?: string;
      startsWith?: string;
      exists?: boolean;
      gt?: number;
      lt?: number;
      integer?: boolean;
    }
  | { type: "dateAge"; name: string; atLeastMonths?: number; lessThanMonths?: number }
  | { type: "consent"; category: z.output<typeof ConsentCategorySchema> }
  | { type: "sampling"; percent: number }
  | { type: "loggedIn"; value: boolean }
  | { type: "env"; in: Array<z.output<typeof EnvNameSchema>> }
  | { type: "not"; condition: RuleCondition }
  | { type: "allOf" | "anyOf"; conditions: RuleCondition[] };

export const RuleConditionSchema: z.ZodType<RuleCondition> = z.lazy(() =>
  z.discriminatedUnion("type", [
    z.strictObject({ type: z.literal("host"), ...match }).describe("The page's host name."),
    z.strictObject({ type: z.literal("path"), ...match }).describe("The page's path."),
    z.strictObject({ type: z.literal("query"), name: z.string().min(1), ...match, exists: z.boolean().optional() }).describe("A query parameter."),
    z.strictObject({ type: z.literal("cookie"), name: z.string().min(1), ...match, exists: z.boolean().optional() }).describe("A cookie."),
    z
      .strictObject({
        type: z.literal("dataElement"),
        name: Name,
        equals: Scalar.optional(),
        matches: RegexString.optional(),
        startsWith: z.string().optional(),
        exists: z.boolean().optional(),
        gt: z.number().optional(),
        lt: z.number().optional(),
        integer: z.boolean().optional().describe('true: the value is an integer number (3, not "3"); false: it is not.'),
      })
      .describe("Compares a data element's value."),
    z
      .strictObject({
        type: z.literal("dateAge"),
        name: Name,
        atLeastMonths: z.number().int().min(0).max(1200).optional().describe("Passes when the date is this many whole months old or more."),
        lessThanMonths: z.number().int().min(1).max(1200).optional().describe("Passes when the date is fewer whole months old than this."),
      })
      .describe(
        "The age of a data element's date (a date text such as 2025-01-15, or a time in ms) in whole calendar months (spec section 9, six-month flag: last order 6+ months old); not a date fails.",
      ),
    z.strictObject({ type: z.literal("consent"), category: ConsentCategorySchema }).describe("A consent category is granted."),
    z.strictObject({ type: z.literal("sampling"), percent: z.number().min(0).max(100) }).describe("Passes for this share of page views."),
    z.strictObject({ type: z.literal("loggedIn"), value: z.boolean().default(true) }).describe("The visitor's logged-in state."),
    z.strictObject({ type: z.literal("env"), in: z.array(EnvNameSchema).min(1) }).describe("The bundle's environment is one of these."),
    z.strictObject({ type: z.literal("not"), condition: RuleConditionSchema }).describe("Negation."),
    z.strictObject({ type: z.literal("allOf"), conditions: z.array(RuleConditionSchema).min(1) }).describe("All must pass."),
    z.strictObject({ type: z.literal("anyOf"), conditions: z.array(RuleConditionSchema).min(1) }).describe("At least one must pass."),
  ]),
);

/* ---------- actions ---------- */

const step = {
  timeout: z.number().int().min(100).max(60000).optional().describe("Milliseconds before the step counts as timed out (default timing.ruleTimeout, 2000)."),
  waitBeforeNext: z.boolean().default(false).describe("Block the rest of this rule until this action settles or times out."),
};
/** The analytics variables a rule may set, as messages name them. */
export const VARIABLE_NAMES = ["eVarN", "propN", "listN", "events", "products", "channel", "campaign", "pageName", "server"] as const;
const VARIABLE = /^(eVar\d{1,3}|prop\d{1,2}|events|products|channel|campaign|pageName|server|list\d)$/;
const Variables = z.record(z.string().regex(VARIABLE, { message: "is not an analytics variable" }), z.string());

/** The variable a mistyped name most likely means: the same name in the right case (evar30: eVar30, pagename: pageName). */
export function variableSuggestion(name: string): string | undefined {
  for (const fixed of VARIABLE_NAMES) {
    const candidate =
      fixed.endsWith("N") && new RegExp(`^${fixed.slice(0, -1)}(\\d+)$`, "i").test(name)
        ? fixed.slice(0, -1) + name.slice(fixed.length - 1)
        : fixed.toLowerCase() === name.toLowerCase()
          ? fixed
          : undefined;
    if (candidate && VARIABLE.test(candidate)) return candidate;
  }
  return undefined;
}

export const RuleActionSchema = z.discriminatedUnion("type", [
  z
    .strictObject({
      type: z.literal("sendPageView"),
      name: z.string().optional().describe("Page name (tokens allowed)."),
      variables: Variables.optional(),
      ...step,
    })
    .describe("Send a page view."),
  z
    .strictObject({
      type: z.literal("sendEvent"),
      name: z.string().min(1).describe("Interaction name (tokens allowed)."),
      eventType: z.string().default("web.webinteraction.linkClicks"),
      linkType: z.enum(["other", "download", "exit"]).default("other"),
      variables: Variables.optional(),
      ...step,
    })
    .describe("Send a link or interaction event."),
  z
    .strictObject({
      type: z.literal("setVariables"),
      variables: Variables,
      xdm: z
        .record(z.string(), z.unknown())
        .optional()
        .describe(
          'XDM fields for every later record of the page (nested objects merge); a value that is exactly one token ("%identityMap%") keeps the data element\'s own value (an object, a number), others are text; an empty value removes the field.',
        ),
      ...step,
    })
    .describe("Set analytics variables (and XDM fields) for the next beacons of this page view; an empty variable is removed."),
  z
    .strictObject({
      type: z.literal("loadScript"),
      src: HttpsUrl,
      consent: ConsentCategorySchema.default("marketing"),
      id: z.string().optional(),
      attributes: z.record(z.string(), z.string()).optional(),
      ...step,
    })
    .describe("Load a third-party script, behind its consent category."),
  z
    .strictObject({
      type: z.literal("pixel"),
      src: HttpsUrl,
      kind: z.enum(["image", "iframe"]).default("image"),
      consent: ConsentCategorySchema.default("marketing"),
      ...step,
    })
    .describe("Fire a 1x1 image or a hidden iframe (tokens allowed in src)."),
  z.strictObject({ type: z.literal("pushDataLayer"), data: z.record(z.string(), z.unknown()), ...step }).describe("Push to the data layer."),
  z
    .strictObject({
      type: z.literal("log"),
      level: z.enum(["debug", "info", "warn", "error"]).default("warn"),
      message: z.enum(MESSAGE_TEXTS).describe("One of the runtime's messages (docs/messages.md), e.g. 'vouchers order ID missing'."),
      ...step,
    })
    .describe("Log a message (console in debug mode, window.sitetags.log): the spec's message of a skipped push."),
  z
    .strictObject({
      type: z.literal("sessionTimer"),
      name: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*$/, { message: "timer names are letters, digits, _ and -" }),
      do: z.enum(["start", "stop", "reset"]),
      ...step,
    })
    .describe(
      "A timer kept in session storage (across the pages of a visit): start keeps the time; stop keeps the stop time and the seconds between (0 when not a number: never started); reset forgets all three. Data elements read them: sessionStorage: sitetags:timer:NAME:start, :stop, :seconds.",
    ),
  z
    .strictObject({
      type: z.literal("tagStatus"),
      tag: z.string().min(1).describe("The tag key (tokens allowed: %tagKey%)."),
      status: z
        .string()
        .default("")
        .describe('enabled or disabled (tokens allowed); empty is enabled ("status defaults to enabled"); anything else keeps nothing.'),
      ...step,
    })
    .describe(
      'Keep a tag\'s status for the session where the tag check reads it (sessionStorage sitetags:tag:KEY): "a stored status is reused unless a fresh evaluation is forced" (?cb-refresh); a pushed disabled status blocks the tag (reason configuration), an enabled one never unblocks what a fresh check blocks.',
    ),
  z
    .strictObject({
      type: z.literal("trafficTouch"),
      channel: z.string().min(1).describe("The touch's channel (tokens allowed: %channel%); empty records nothing."),
      campaign: z.string().optional().describe("The touch's campaign (tokens allowed)."),
      historyDays: z.number().int().min(1).max(3650).describe("The history's lifetime, as analyticsRules.historyDays (spec: 60)."),
      ...step,
    })
    .describe(
      "Record a touch into the visit's traffic-source history (the session cookie the page views read): a new campaign is recorded, a direct touch does not overwrite an earlier non-direct one, the history expires historyDays after its latest touch.",
    ),
  z
    .strictObject({ type: z.literal("command"), module: z.string().min(1), name: z.string().min(1), args: z.array(z.unknown()).default([]), ...step })
    .describe("Call a module's command."),
]);
export type RuleAction = z.output<typeof RuleActionSchema>;
export const ACTION_TYPES = RuleActionSchema.options.map((o) => o.shape.type.value);

/* ---------- rules ---------- */

export const RuleSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, { message: "rule ids are lower-case letters, digits and hyphens" }),
    name: z.string().min(1),
    order: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .default(50)
      .describe("Lower runs first (spec values 0, 5, 10, 50; default 50). Equal order keeps declaration order."),
    events: z.array(RuleEventSchema).min(1),
    conditions: z.array(RuleConditionSchema).default([]).describe("All must pass."),
    actions: z.array(RuleActionSchema).min(1),
    conditionTimeout: z.number().int().min(100).max(60000).optional().describe("All conditions' timeout (default timing.ruleTimeout)."),
  })
  .describe("A tracking rule: events, conditions, actions.");
export type Rule = z.output<typeof RuleSchema>;

export const RulesSettingsShape = {
  dataElements: z.record(Name, DataElementSchema).default({}).describe("Data elements by name; a site's element replaces the org's of the same name."),
  rules: z.array(RuleSchema).default([]).describe("Tracking rules; org rules run on every site, then the site's, then the environment's."),
  disabledRules: z.array(z.string()).default([]).describe("Ids of inherited rules this site or environment turns off."),
};

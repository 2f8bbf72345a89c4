/**
 * Factories of the diagnostics of data elements and rules, checked on each
 * site x environment's merged settings (rules-check.ts). rules-check adds
 * "(in site/env)" to each message.
 */
import { didYouMean, factory } from "./factory.js";

export const RULES_DIAGNOSTICS = {
  /** `what`: "a condition", "the token %x%". */
  unknownDataElement: factory(
    "CONFIG_UNKNOWN_DATA_ELEMENT",
    (what: string, name: string, suggestion?: string) => `${what} names data element "${name}", which is not defined${didYouMean(suggestion)}`,
  ),
  unknownProvidedValue: factory(
    "CONFIG_UNKNOWN_PROVIDED_VALUE",
    (name: string, provided: readonly string[], suggestion?: string) =>
      `no runtime part or enabled module provides "${name}"${didYouMean(suggestion, ` (provided: ${provided.join(", ")})`)}`,
  ),
  dataElementCycle: factory("CONFIG_DATA_ELEMENT_CYCLE", (cycle: readonly string[]) => `data elements refer to each other in a circle: ${cycle.join(" -> ")}`),
  duplicateRule: factory(
    "CONFIG_DUPLICATE_RULE",
    (id: string, firstAt: string) => `rule id "${id}" is already used at ${firstAt} (to change an inherited rule, disable it and add your own under a new id)`,
  ),
  pushElementOutsidePushRule: factory(
    "CONFIG_PUSH_ELEMENT_OUTSIDE_PUSH_RULE",
    (what: string, element: string, push: string, rule: string) =>
      `${what} reads data element "${element}" (push: ${push}), which has a value only in a rule a data-layer push triggers; rule "${rule}" has no dataLayerPush or dataOnly event (read the merged state with dataLayer: instead)`,
  ),
  moduleNotEnabled: factory(
    "CONFIG_MODULE_NOT_ENABLED",
    (rule: string, module: string, command: string) => `rule "${rule}" calls ${module}.${command}, but module "${module}" is not enabled here`,
  ),
  unknownCommand: factory(
    "CONFIG_UNKNOWN_COMMAND",
    (module: string, command: string, commands: readonly string[], suggestion?: string) =>
      `module "${module}" has no command "${command}"${didYouMean(suggestion, ` (commands: ${commands.join(", ") || "none"})`)}`,
  ),
  unknownRule: factory(
    "CONFIG_UNKNOWN_RULE",
    (id: string, suggestion?: string) => `disabledRules names rule "${id}", which does not exist here${didYouMean(suggestion)}`,
  ),
  tagNeverGranted: factory(
    "CONFIG_TAG_NEVER_GRANTED",
    (tag: string, category: string, why: string) => `tag "${tag}" needs ${category} consent, which this site's consent setup never grants (${why})`,
  ),
  tagWithoutSource: factory("CONFIG_TAG_NO_SOURCE", (tag: string, env: string) => `tag "${tag}" has no script, pixel or iframe URL for ${env} (nor a default)`),
  tagTwoSources: factory(
    "CONFIG_TAG_TWO_SOURCES",
    (tag: string, kinds: readonly string[]) => `tag "${tag}" declares ${kinds.join(" and ")}: a tag loads one thing`,
  ),
  tagTooEarly: factory(
    "CONFIG_TAG_LIFECYCLE_TOO_EARLY",
    (tag: string, lifecycle: string, category: string, earliest: string) =>
      `tag "${tag}" loads at ${lifecycle}, before its category's point (${category} tags load at ${earliest} at the earliest)`,
  ),
  tagModuleByHand: factory(
    "CONFIG_TAG_MODULE_BY_HAND",
    (module: string) => `module "${module}" is switched on by the build from the tags: section; declare or enable a tag there instead (docs/tags.md)`,
  ),
  tagTwoFamilies: factory(
    "CONFIG_TAG_TWO_FAMILIES",
    (tag: string, families: readonly string[]) => `tag "${tag}" declares ${families.join(" and ")}: a tag belongs to one family`,
  ),
  // Issue 18's generic record capabilities (docs/rules.md, "Record capabilities").
  lookupEmpty: factory("CONFIG_LOOKUP_EMPTY", () => "lookup has no entries: every value would have none (name each value and what it stands for)"),
  dateAgeNoBound: factory(
    "CONFIG_DATE_AGE_NO_BOUND",
    () => "a dateAge condition needs atLeastMonths, lessThanMonths or both (without a bound it would pass for any date)",
  ),
  trafficHistoryDays: factory(
    "CONFIG_TRAFFIC_HISTORY_DAYS",
    (rule: string, days: number, historyDays: number) =>
      `rule "${rule}" keeps the traffic history ${days} days, but analyticsRules.historyDays is ${historyDays}: the page views read the history the touches write, so the two must be equal`,
  ),
  timerNeverStarted: factory(
    "CONFIG_TIMER_NEVER_STARTED",
    (timer: string, rule: string) =>
      `rule "${rule}" stops session timer "${timer}", which no rule here starts (add a sessionTimer action with do: start and the same name): its duration would always be 0`,
  ),
} as const;

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
} as const;

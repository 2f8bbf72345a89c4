/**
 * Factories of the diagnostics the schema checks produce: zod's issues in
 * words a person can act on (issues.ts picks the factory), and the checks
 * the schema runs itself (regular expressions, CSS selectors, data elements).
 * `got` arguments are values already described ("the string "x"", "a list").
 */
import { didYouMean, factory, typeWords } from "./factory.js";

const oneOf = (candidates: readonly string[]) => ` (expected one of ${candidates.map((c) => `"${c}"`).join(", ")})`;
const unknownName = (noun: string) => (name: string, suggestion: string | undefined, candidates: readonly string[]) =>
  `unknown ${noun} "${name}"${didYouMean(suggestion, oneOf(candidates))}`;
const plural = (n: unknown, word: string) => `${String(n)} ${word}${Number(n) === 1 ? "" : "s"}`;

export const SCHEMA_DIAGNOSTICS = {
  unknownKey: factory("CONFIG_UNKNOWN_KEY", unknownName("key")),
  unknownModule: factory("CONFIG_UNKNOWN_MODULE", unknownName("module")),
  unknownEnv: factory("CONFIG_UNKNOWN_ENV", unknownName("environment")),
  missingKey: factory("CONFIG_MISSING_KEY", (key: string, expected: string) => `missing required key "${key}" (${typeWords(expected)})`),
  /** A union without its discriminating key (a rule event without `type`). */
  missingDiscriminator: factory("CONFIG_MISSING_KEY", (key: string, options: readonly string[]) => `missing "${key}" (one of ${options.join(", ")})`),
  expectedType: factory("CONFIG_INVALID_TYPE", (expected: string, got: string) => `expected ${typeWords(expected)}, got ${got}`),
  notFinite: factory("CONFIG_INVALID_VALUE", (yaml: string) => `expected a finite number, got ${yaml}`),
  /** `bound` is "at least" or "at most"; `origin` zod's (array, string, number). */
  outOfRange: factory("CONFIG_OUT_OF_RANGE", (bound: string, limit: unknown, origin: string, got: unknown) =>
    origin === "array"
      ? `needs ${bound} ${plural(limit, "item")}`
      : origin === "string"
        ? `needs ${bound} ${plural(limit, "character")}`
        : `${String(got)} is out of range: must be ${bound} ${String(limit)}`,
  ),
  notMultipleOf: factory("CONFIG_OUT_OF_RANGE", (got: unknown, divisor: unknown) => `${String(got)} must be a multiple of ${String(divisor)}`),
  notAllowed: factory(
    "CONFIG_INVALID_VALUE",
    (got: string, options: readonly unknown[], suggestion?: string) =>
      `${got} is not allowed: expected one of ${options.map((v) => JSON.stringify(v)).join(", ")}${didYouMean(suggestion)}`,
  ),
  /** `rule` is the schema's own words for the format ("must start with /"), when it has some. */
  invalidFormat: factory("CONFIG_INVALID_VALUE", (got: string, rule?: string) => (rule ? `${rule} (got ${got})` : `${got} has an invalid format`)),
  invalidName: factory("CONFIG_INVALID_VALUE", (name: string, rule: string) => `name "${name}" ${rule}`),
  notAVariable: factory(
    "CONFIG_INVALID_VALUE",
    (key: string, names: readonly string[], suggestion?: string) =>
      `"${key}" is not an analytics variable${didYouMean(suggestion)}: variables are ${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`,
  ),
  noMatchingForm: factory("CONFIG_INVALID_VALUE", (got: string) => `${got} matches none of the allowed forms`),
  /** A problem zod words itself and the schema gave no factory for (kept as zod says it). */
  invalidValue: factory("CONFIG_INVALID_VALUE", (message: string) => message),
  unknownEventType: factory(
    "CONFIG_UNKNOWN_EVENT_TYPE",
    (got: unknown, options: readonly string[], suggestion?: string) =>
      `unknown event type ${JSON.stringify(got)}${didYouMean(suggestion, ` (expected one of ${options.join(", ")})`)}`,
  ),
  unknownCondition: factory(
    "CONFIG_UNKNOWN_CONDITION",
    (got: unknown, options: readonly string[], suggestion?: string) =>
      `unknown condition ${JSON.stringify(got)}${didYouMean(suggestion, ` (expected one of ${options.join(", ")})`)}`,
  ),
  unknownAction: factory(
    "CONFIG_UNKNOWN_ACTION",
    (got: unknown, options: readonly string[], suggestion?: string) =>
      `unknown action ${JSON.stringify(got)}${didYouMean(suggestion, ` (expected one of ${options.join(", ")})`)}`,
  ),
  unknownType: factory(
    "CONFIG_INVALID_VALUE",
    (got: unknown, options: readonly string[], suggestion?: string) =>
      `unknown type ${JSON.stringify(got)}${didYouMean(suggestion, ` (expected one of ${options.join(", ")})`)}`,
  ),
  invalidRegex: factory(
    "CONFIG_INVALID_REGEX",
    (src: string, engineMessage: string) => `invalid regular expression /${src}/: ${engineMessage.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "")}`,
  ),
  unsafeRegex: factory(
    "CONFIG_UNSAFE_REGEX",
    (src: string, growth: string, attack: string) =>
      `regular expression /${src}/ backtracks catastrophically (${growth}) on inputs such as ${JSON.stringify(attack)}: it runs in visitors' browsers against every URL and host, so rewrite it without nested or overlapping repetition (e.g. (a+)+ as a+)`,
  ),
  uncheckedRegex: factory(
    "CONFIG_REGEX_UNCHECKED",
    (src: string, reason: string) => `regular expression /${src}/ could not be checked for catastrophic backtracking (${reason}): simplify it if you can`,
    "warning",
  ),
  slashWrapped: factory(
    "CONFIG_REGEX_SLASHES",
    (src: string) =>
      `regular expression "${src}" is written as a JavaScript literal: the slashes${/\/[a-z]+$/.test(src) ? " and flags" : ""} are matched as text, so it likely never matches (write the pattern alone, without slashes)`,
    "warning",
  ),
  /** `problem` is the selector check's or the selector parser's words. */
  invalidSelector: factory(
    "CONFIG_INVALID_SELECTOR",
    (src: string, problem: string) => `invalid CSS selector "${src}": ${problem.replace(/found\s*$/, "found the end of the selector")}`,
  ),
  dataElementSources: factory("CONFIG_INVALID_VALUE", (found: readonly string[], sources: readonly string[]) =>
    found.length ? `a data element has exactly one source, got ${found.join(" and ")}` : `a data element needs a source: one of ${sources.join(", ")}`,
  ),
} as const;

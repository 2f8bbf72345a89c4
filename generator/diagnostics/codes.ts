/**
 * The one registry of build diagnostics. Every error the generator reports
 * has a SCREAMING_SNAKE code from this table; docs/diagnostics.md lists them.
 */
export const DIAGNOSTIC_CODES = {
  YAML_SYNTAX: "The file is not valid YAML.",
  YAML_DUPLICATE_KEY: "A mapping has the same key twice.",
  YAML_INVALID_ENCODING: "The file is not valid UTF-8 (reported at the first bad byte).",
  YAML_MERGE_KEY: "A YAML merge key (<<: *anchor), which the configuration does not support.",
  CONFIG_UNKNOWN_KEY: "A key the schema does not know (a typo, usually).",
  CONFIG_UNKNOWN_MODULE: "A module name that is not in ModulesSchema (no runtime module of that name).",
  CONFIG_UNKNOWN_ENV: "An environment name outside dev, qa, uat, perf, prod, oat, nonprod, prev.",
  CONFIG_MISSING_KEY: "A required key is missing.",
  CONFIG_INVALID_TYPE: "A value of the wrong type.",
  CONFIG_INVALID_VALUE: "A value outside the allowed set or format.",
  CONFIG_OUT_OF_RANGE: "A number or list outside its allowed range.",
  CONFIG_INVALID_REGEX: "A regular expression that does not compile.",
  CONFIG_UNSAFE_REGEX: "A regular expression that can backtrack catastrophically (exponential time, or polynomial of degree 3 or more): it runs in the visitor's browser against every URL and host.",
  CONFIG_REGEX_SLASHES: "Warning: a regular expression written as a JavaScript literal (/…/i): the slashes and flags are matched as text.",
  CONFIG_REGEX_UNCHECKED: "Warning: a regular expression the ReDoS checker could not finish with (too complex, or the check timed out).",
  CONFIG_CONTROL_CHARACTER: "A string holds a control character (NUL, escape, a line break, …); only tab is allowed.",
  CONFIG_INVALID_SELECTOR: "A CSS selector that does not parse, or that browsers reject (jQuery pseudo-classes such as :contains, a trailing combinator, #1abc).",
  CONFIG_DUPLICATE_SITE: "Two files declare the same site code.",
  CONFIG_CODE_MISMATCH: "A site file's code differs from its file name.",
  CONFIG_HOST_CONFLICT: "A host is claimed by two sites (or twice by one).",
  CONFIG_ENV_NO_HOSTS: "An environment is listed with no hosts.",
  CONFIG_ENV_NOT_HOSTED: "An envs override for an environment the site has no hosts for.",
  CONFIG_NO_ENVIRONMENTS: "A site with no environments at all.",
  CONFIG_ORG_MISSING: "The organisation file sites/_org.yaml is missing.",
  CONFIG_NO_SITES: "No site files were found.",
  CONFIG_UNREADABLE_FILE: "A name in the sites folder that cannot be read as a file (a folder called x.yaml, no permission).",
  CONFIG_UNKNOWN_EVENT_TYPE: "A rule event type that does not exist.",
  CONFIG_UNKNOWN_CONDITION: "A rule condition type that does not exist.",
  CONFIG_UNKNOWN_ACTION: "A rule action type that does not exist.",
  CONFIG_UNKNOWN_DATA_ELEMENT: "A %token% or condition names a data element that is not defined.",
  CONFIG_DATA_ELEMENT_CYCLE: "Data elements refer to each other in a circle.",
  CONFIG_PUSH_ELEMENT_OUTSIDE_PUSH_RULE: "A rule without a dataLayerPush or dataOnly event reads a push: data element, which has no value there.",
  CONFIG_UNKNOWN_PROVIDED_VALUE: "A data element reads a provided value that neither the runtime nor an enabled module provides.",
  CONFIG_UNKNOWN_COMMAND: "A rule calls a module command that does not exist.",
  CONFIG_MODULE_NOT_ENABLED: "A rule calls a command of a module this site and environment do not enable.",
  CONFIG_DUPLICATE_RULE: "Two rules of one site and environment share an id.",
  CONFIG_UNKNOWN_RULE: "disabledRules names a rule that does not exist.",
  CONFIG_UNKNOWN_SITE: "--site names a site that does not exist (with the nearest site code, if one is close).",
  CONFIG_UNKNOWN_ENV_OPTION: "--env names an environment no selected site has (with the nearest, if the name is no environment at all).",
  BUILD_REGISTRY_INVALID: "A module manifest (runtime-modules/modules/NAME/module.ts) cannot be loaded or does not match ModulesSchema or its factory file.",
  BUILD_COMPILE_ERROR: "The runtime or a generated entry failed to compile.",
  BUILD_OVER_BUDGET: "A bundle's gzip size is over its budget.",
  BUILD_FORBIDDEN_CODE: "A bundle contains eval, new Function, document.write or a string timer.",
  BUILD_WRITE_FAILED: "dist/ could not be written.",
  MERGE_NOT_A_SHARD: "`manifest merge` was given a folder without a shard's partial manifest (the output of `build --shard I/N`).",
  MERGE_DIFFERENT_BUILDS: "The shards come from different builds: other sources or toolchain, another slicing or another selection.",
  MERGE_OVERLAP: "A shard is given twice, or a bundle is in two shards.",
  MERGE_MISSING: "A shard, or a bundle of the selection, is missing.",
  MERGE_INPUTS_DIFFER: "Two shards hold one bundle built from different inputs (inputsHash).",
  MERGE_BAD_FILE: "A shard's bundle file is missing or does not match its manifest entry (integrity, alias, content hash).",
  PUBLISH_FAILED: "The store failed or refused a request (after the SDK's retries), or an upload's checksum did not match: the target still serves its previous release (exit 4); run again.",
  PUBLISH_PARTIAL_DIST: "publish was pointed at one shard's partial dist: merge the shards first.",
  PUBLISH_NOTHING_TO_PUBLISH: "The manifest (or the source release) lists no bundle of the selection.",
  PUBLISH_DIST_MISMATCH: "A file of dist/ does not match its manifest entry's integrity.",
  PUBLISH_NO_RELEASE: "rollback or promote names a release the target (or the source) does not have, or the source has published nothing.",
  PUBLISH_PROMOTE_REFUSED: "promote: the configuration does not build the source's bundle for the target environment (the differing keys are named), or the source was built from other inputs than the configuration gives now.",
} as const;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/** How messages name the types zod reports (its `expected`): words a person can act on, not zod's. */
const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  bigint: "a whole number",
  boolean: "true or false",
  array: "a list",
  tuple: "a list",
  object: "a mapping",
  record: "a mapping",
  map: "a mapping",
  null: "null",
};
export const typeWords = (expected: string): string => TYPE_WORDS[expected] ?? expected;

const CONTROL_NAMES: Record<number, string> = { 0: "NUL", 8: "backspace", 10: "line break", 11: "vertical tab", 12: "form feed", 13: "carriage return", 27: "escape", 127: "DEL" };
const codePoint = (c: number) => `U+${c.toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * The wording of messages that would otherwise be a library's (zod's, the
 * YAML parser's) or that several call sites share. Keep them in one voice:
 * what is wrong, then what to do.
 */
export const MESSAGES = {
  invalidUtf8: (byte: number) => `the file is not valid UTF-8: byte 0x${byte.toString(16).toUpperCase().padStart(2, "0")} here is not part of a UTF-8 character (save the file as UTF-8)`,
  controlCharacter: (c: number) => `a string holds the control character ${codePoint(c)}${CONTROL_NAMES[c] ? ` (${CONTROL_NAMES[c]})` : ""}: only tab is allowed in configuration strings`,
  multipleDocuments: () => `a second YAML document starts here: a configuration file holds one document (remove this "---" line, or move what follows into a file of its own)`,
  mergeKey: () =>
    `YAML merge keys (<<) are not supported: write settings every environment shares once at the top level of the file and only what differs under envs.ENV; settings every site shares go in _org.yaml`,
  overIndented: (key: string) => `All mapping items must start at the same column: "${key}" is indented more than the key above it`,
  expectedType: (expected: string, got: string) => `expected ${typeWords(expected)}, got ${got}`,
  missingKey: (key: string, expected: string) => `missing required key "${key}" (${typeWords(expected)})`,
  notFinite: (yaml: string) => `expected a finite number, got ${yaml}`,
  notAVariable: (key: string, names: readonly string[], suggestion?: string) =>
    `"${key}" is not an analytics variable${suggestion ? ` (did you mean "${suggestion}"?)` : ""}: variables are ${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`,
  hostTaken: (host: string, owner: string, at: string) => `host "${host}" is already claimed by ${owner} at ${at}`,
  unsafeRegex: (src: string, growth: string, attack: string) =>
    `regular expression /${src}/ backtracks catastrophically (${growth}) on inputs such as ${JSON.stringify(attack)}: it runs in visitors' browsers against every URL and host, so rewrite it without nested or overlapping repetition (e.g. (a+)+ as a+)`,
  uncheckedRegex: (src: string, reason: string) => `regular expression /${src}/ could not be checked for catastrophic backtracking (${reason}): simplify it if you can`,
  slashWrapped: (src: string) =>
    `regular expression "${src}" is written as a JavaScript literal: the slashes${/\/[a-z]+$/.test(src) ? " and flags" : ""} are matched as text, so it likely never matches (write the pattern alone, without slashes)`,
  buildLeftAsItWas: (dir: string) => `build failed: ${dir} was left as it was`,
} as const;

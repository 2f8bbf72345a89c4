/**
 * The codes of build diagnostics, each with its meaning. Every problem the
 * generator reports has a SCREAMING_SNAKE code from this table, made by a
 * factory of DIAGNOSTICS (diagnostics.ts); docs/diagnostics.md lists them.
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
  CONFIG_UNSAFE_REGEX:
    "A regular expression that can backtrack catastrophically (exponential time, or polynomial of degree 3 or more): it runs in the visitor's browser against every URL and host.",
  CONFIG_REGEX_SLASHES: "Warning: a regular expression written as a JavaScript literal (/…/i): the slashes and flags are matched as text.",
  CONFIG_REGEX_UNCHECKED: "Warning: a regular expression the ReDoS checker could not finish with (too complex, or the check timed out).",
  CONFIG_CONTROL_CHARACTER: "A string holds a control character (NUL, escape, a line break, …); only tab is allowed.",
  CONFIG_INVALID_SELECTOR:
    "A CSS selector that does not parse, or that browsers reject (jQuery pseudo-classes such as :contains, a trailing combinator, #1abc).",
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
  CONFIG_LOOKUP_EMPTY: "A data element's lookup table has no entries.",
  CONFIG_DATE_AGE_NO_BOUND: "A dateAge condition has neither atLeastMonths nor lessThanMonths.",
  CONFIG_TRAFFIC_HISTORY_DAYS:
    "A trafficTouch action keeps the traffic history another number of days than analyticsRules.historyDays, which the page views read it by.",
  CONFIG_TIMER_NEVER_STARTED: "A sessionTimer action stops (or resets) a timer that no rule of the site and environment starts.",
  CONFIG_TAG_NEVER_GRANTED:
    "A tag's consent category is one the site's consent setup never grants (no banner script or domain script, or an empty group id for it).",
  CONFIG_TAG_NO_SOURCE: "A tag has no script, pixel or iframe URL for an environment of the site, nor a default.",
  CONFIG_TAG_TWO_SOURCES: "A tag declares more than one of script, pixel and iframe.",
  CONFIG_TAG_LIFECYCLE_TOO_EARLY:
    "A tag's lifecycle point comes before its category's (performance at page top; functional, program and marketing at DOM ready).",
  CONFIG_TAG_MODULE_BY_HAND:
    "modules: names tags, rum, beacon, adTracker, chatFlow, pushNotifications or guidedHelp, which the build switches on from the tags: section.",
  CONFIG_TAG_TWO_FAMILIES: "A tag declares the settings of more than one family (rum, beacon, adTracker, chatFlow, pushNotifications, guidedHelp).",
  CONFIG_UNKNOWN_SITE: "--site names a site that does not exist (with the nearest site code, if one is close).",
  CONFIG_UNKNOWN_ENV_OPTION: "--env names an environment no selected site has (with the nearest, if the name is no environment at all).",
  BUILD_REGISTRY_INVALID: "A module manifest (runtime-modules/modules/NAME/module.ts) cannot be loaded or does not match ModulesSchema or its factory file.",
  BUILD_COMPILE_ERROR: "The runtime or a generated entry failed to compile.",
  BUILD_INPUTS_CHANGED:
    "A runtime or generator source, a tsconfig or a toolchain package changed while the build ran: nothing built from it was cached, and dist/ was left as it was (build again).",
  BUILD_OVER_BUDGET: "A bundle's gzip size is over its budget.",
  BUILD_FORBIDDEN_CODE: "A bundle contains eval, new Function, document.write or a string timer.",
  BUILD_WRITE_FAILED: "dist/ could not be written.",
  MERGE_NOT_A_SHARD: "`manifest merge` was given a folder without a shard's partial manifest (the output of `build --shard I/N`).",
  MERGE_DIFFERENT_BUILDS: "The shards come from different builds: other sources or toolchain, another slicing or another selection.",
  MERGE_OVERLAP: "A shard is given twice, or a bundle is in two shards.",
  MERGE_MISSING: "A shard, or a bundle of the selection, is missing.",
  MERGE_INPUTS_DIFFER: "Two shards hold one bundle built from different inputs (inputsHash).",
  MERGE_BAD_FILE: "A shard's bundle file is missing or does not match its manifest entry (integrity, alias, content hash).",
  PUBLISH_FAILED:
    "The store failed or refused a request (after the SDK's retries), or an upload's checksum did not match: the target still serves its previous release (exit 4); run again.",
  PUBLISH_PARTIAL_DIST: "publish was pointed at one shard's partial dist: merge the shards first.",
  PUBLISH_NOTHING_TO_PUBLISH: "The manifest (or the source release) lists no bundle of the selection.",
  PUBLISH_DIST_MISMATCH: "A file of dist/ does not match its manifest entry's integrity.",
  PUBLISH_NO_RELEASE: "rollback or promote names a release the target (or the source) does not have, or the source has published nothing.",
  PUBLISH_PROMOTE_REFUSED:
    "promote: the configuration does not build the source's bundle for the target environment (the differing keys are named), or the source was built from other inputs than the configuration gives now.",
} as const;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

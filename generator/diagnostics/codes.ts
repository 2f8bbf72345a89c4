/**
 * The one registry of build diagnostics. Every error the generator reports
 * has a SCREAMING_SNAKE code from this table; docs/diagnostics.md lists them.
 */
export const DIAGNOSTIC_CODES = {
  YAML_SYNTAX: "The file is not valid YAML.",
  YAML_DUPLICATE_KEY: "A mapping has the same key twice.",
  CONFIG_UNKNOWN_KEY: "A key the schema does not know (a typo, usually).",
  CONFIG_UNKNOWN_MODULE: "A module name that is not in runtime-modules/registry.ts.",
  CONFIG_UNKNOWN_ENV: "An environment name outside dev, qa, uat, perf, prod, oat, nonprod, prev.",
  CONFIG_MISSING_KEY: "A required key is missing.",
  CONFIG_INVALID_TYPE: "A value of the wrong type.",
  CONFIG_INVALID_VALUE: "A value outside the allowed set or format.",
  CONFIG_OUT_OF_RANGE: "A number or list outside its allowed range.",
  CONFIG_INVALID_REGEX: "A regular expression that does not compile.",
  CONFIG_INVALID_SELECTOR: "A CSS selector that does not parse.",
  CONFIG_DUPLICATE_SITE: "Two files declare the same site code.",
  CONFIG_CODE_MISMATCH: "A site file's code differs from its file name.",
  CONFIG_HOST_CONFLICT: "A host is claimed by two sites (or twice by one).",
  CONFIG_ENV_NO_HOSTS: "An environment is listed with no hosts.",
  CONFIG_ENV_NOT_HOSTED: "An envs override for an environment the site has no hosts for.",
  CONFIG_NO_ENVIRONMENTS: "A site with no environments at all.",
  CONFIG_ORG_MISSING: "The organisation file sites/_org.yaml is missing.",
  CONFIG_NO_SITES: "No site files were found.",
  CONFIG_UNKNOWN_EVENT_TYPE: "A rule event type that does not exist.",
  CONFIG_UNKNOWN_CONDITION: "A rule condition type that does not exist.",
  CONFIG_UNKNOWN_ACTION: "A rule action type that does not exist.",
  CONFIG_UNKNOWN_DATA_ELEMENT: "A %token% or condition names a data element that is not defined.",
  CONFIG_DATA_ELEMENT_CYCLE: "Data elements refer to each other in a circle.",
  CONFIG_UNKNOWN_PROVIDED_VALUE: "A data element reads a provided value that neither the runtime nor an enabled module provides.",
  CONFIG_UNKNOWN_COMMAND: "A rule calls a module command that does not exist.",
  CONFIG_MODULE_NOT_ENABLED: "A rule calls a command of a module this site and environment do not enable.",
  CONFIG_DUPLICATE_RULE: "Two rules of one site and environment share an id.",
  CONFIG_UNKNOWN_RULE: "disabledRules names a rule that does not exist.",
  CONFIG_UNKNOWN_SITE: "--site names a site that does not exist.",
  CONFIG_UNKNOWN_ENV_OPTION: "--env names an environment no selected site has.",
  BUILD_REGISTRY_INVALID: "runtime-modules/registry.ts does not match the schema or the module files.",
  BUILD_COMPILE_ERROR: "The runtime or a generated entry failed to compile.",
  BUILD_OVER_BUDGET: "A bundle's gzip size is over its budget.",
  BUILD_FORBIDDEN_CODE: "A bundle contains eval, new Function, document.write or a string timer.",
  BUILD_WRITE_FAILED: "dist/ could not be written.",
} as const;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/**
 * Factories of the diagnostics about configuration files: reading and
 * decoding them, YAML, and the checks across files (site codes, hosts,
 * environments). Wording: what is wrong, then what to do.
 */
import { didYouMean, factory } from "./factory.js";

const CONTROL_NAMES: Record<number, string> = {
  0: "NUL",
  8: "backspace",
  10: "line break",
  11: "vertical tab",
  12: "form feed",
  13: "carriage return",
  27: "escape",
  127: "DEL",
};
const codePoint = (c: number) => `U+${c.toString(16).toUpperCase().padStart(4, "0")}`;

export const FILE_DIAGNOSTICS = {
  sitesDirUnreadable: factory("CONFIG_NO_SITES", (dir: string) => `cannot read the sites directory ${dir}`),
  noSiteFiles: factory("CONFIG_NO_SITES", (dir: string) => `no site files in ${dir}`),
  unreadableFile: factory("CONFIG_UNREADABLE_FILE", (name: string, reason: string) => `cannot read ${name} as a file (${reason})`),
  orgMissing: factory("CONFIG_ORG_MISSING", (orgFile: string, dir: string) => `no ${orgFile} in ${dir}`),
  invalidUtf8: factory(
    "YAML_INVALID_ENCODING",
    (byte: number) =>
      `the file is not valid UTF-8: byte 0x${byte.toString(16).toUpperCase().padStart(2, "0")} here is not part of a UTF-8 character (save the file as UTF-8)`,
  ),
  controlCharacter: factory(
    "CONFIG_CONTROL_CHARACTER",
    (c: number) =>
      `a string holds the control character ${codePoint(c)}${CONTROL_NAMES[c] ? ` (${CONTROL_NAMES[c]})` : ""}: only tab is allowed in configuration strings`,
  ),
} as const;

export const YAML_DIAGNOSTICS = {
  /** The YAML parser's own words, white space collapsed. */
  yamlSyntax: factory("YAML_SYNTAX", (parserMessage: string) => parserMessage.replace(/\s+/g, " ").trim()),
  multipleDocuments: factory(
    "YAML_SYNTAX",
    () => `a second YAML document starts here: a configuration file holds one document (remove this "---" line, or move what follows into a file of its own)`,
  ),
  overIndented: factory("YAML_SYNTAX", (key: string) => `All mapping items must start at the same column: "${key}" is indented more than the key above it`),
  unresolvedAlias: factory("YAML_SYNTAX", () => "an alias whose anchor is not set before it (define &name before *name)"),
  tooManyAliases: factory("YAML_SYNTAX", (max: number) => `more than ${max} alias expansions in one file`),
  duplicateKey: factory("YAML_DUPLICATE_KEY", (parserMessage: string) => parserMessage.replace(/\s+/g, " ").trim()),
  mergeKey: factory(
    "YAML_MERGE_KEY",
    () =>
      `YAML merge keys (<<) are not supported: write settings every environment shares once at the top level of the file and only what differs under envs.ENV; settings every site shares go in _org.yaml`,
  ),
} as const;

export const CATALOGUE_DIAGNOSTICS = {
  codeMismatch: factory(
    "CONFIG_CODE_MISMATCH",
    (code: string, fileName: string) => `site code "${code}" differs from the file name "${fileName}" (rename one of them)`,
  ),
  duplicateSite: factory("CONFIG_DUPLICATE_SITE", (code: string, ownerFile: string) => `site code "${code}" is already declared in ${ownerFile}`),
  noEnvironments: factory(
    "CONFIG_NO_ENVIRONMENTS",
    (code: string, envNames: readonly string[]) => `site "${code}" has no environments: list hosts for at least one of ${envNames.join(", ")}`,
  ),
  envNoHosts: factory("CONFIG_ENV_NO_HOSTS", (env: string) => `environment "${env}" has no hosts (remove it or list at least one host)`),
  envNotHosted: factory("CONFIG_ENV_NOT_HOSTED", (env: string) => `overrides for environment "${env}", which has no hosts on this site`),
  /**
   * `owner` is `this site` or `site "code"`, `at` its file:line:col. A host
   * pattern (*.suffix) that covers another site's host names that host in
   * `covered` (and how many more it covers).
   */
  hostConflict: factory(
    "CONFIG_HOST_CONFLICT",
    (host: string, owner: string, at: string, covered?: { host: string; more: number }) =>
      `host "${host}"${covered ? ` covers "${covered.host}", which is` : " is"} already claimed by ${owner} at ${at}${covered?.more ? ` (and ${covered.more} more)` : ""}`,
  ),
  /** --site on the command line. */
  unknownSite: factory("CONFIG_UNKNOWN_SITE", (site: string, suggestion?: string) => `no site "${site}" in the catalogue${didYouMean(suggestion)}`),
  /** --env on the command line: no selected site has it. */
  unknownEnvOption: factory(
    "CONFIG_UNKNOWN_ENV_OPTION",
    (env: string, suggestion?: string) => `no selected site has environment "${env}"${didYouMean(suggestion)}`,
  ),
  /** --env on the command line for one site (embed). */
  siteHasNoEnv: factory(
    "CONFIG_UNKNOWN_ENV_OPTION",
    (site: string, env: string, envs: readonly string[]) => `${site} has no environment "${env}" (it has ${envs.join(", ")})`,
  ),
} as const;

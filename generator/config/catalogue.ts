/**
 * What loading the catalogue yields: the organisation file, the site files
 * that passed their checks, one resolved bundle per site x environment, and
 * every diagnostic found on the way.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { BundleConfig } from "./bundle-config.js";
import type { EnvName, OrgFile, SiteFile } from "./schema.js";
import type { YamlSource } from "./yaml-source.js";

export const ORG_FILE = "_org.yaml";

export interface ResolvedBundle {
  site: string;
  env: EnvName;
  config: BundleConfig;
  budgetGzipBytes: number;
  /** Enabled module names, sorted. */
  modules: string[];
  /** Which file enabled each module (for `inspect`). */
  moduleSources: Record<string, string>;
  /** Which file declares or enables each tag (for `inspect`). */
  tagSources?: Record<string, string>;
  /** Where the budget was set (for BUILD_OVER_BUDGET). */
  budgetSource?: { file: string; line: number; column: number };
}

export interface SiteModel {
  code: string;
  file: string;
  data: SiteFile;
  envs: EnvName[];
}

export interface Catalogue {
  sitesDir: string;
  org?: OrgFile;
  sites: SiteModel[];
  bundles: ResolvedBundle[];
  diagnostics: Diagnostic[];
  /** Raw file texts, for hashing. */
  files: Array<{ file: string; text: string }>;
}

export interface LoadOptions {
  sitesDir: string;
  /** Module names the runtime registry offers. */
  moduleNames: readonly string[];
  /** Load only these files of the folder (cached-load.ts: _org.yaml and the site files its cache missed). */
  only?: readonly string[];
  /** _org.yaml checked before (cached-load.ts, its bytes unchanged): its model and its source rebuilt from the cache, not read, parsed or validated again. */
  org?: { model: OrgFile; source: YamlSource };
}

export type Plain = Record<string, unknown>;
export const isPlain = (v: unknown): v is Plain => typeof v === "object" && v !== null && !Array.isArray(v);

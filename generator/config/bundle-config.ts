/**
 * The plain data inlined into each bundle: the resolved settings of one
 * site x environment. Inferred from the zod schemas; the runtime imports
 * this file's types only.
 */
import type { EnvName, ModulesConfig, Settings } from "./schema.js";
import type { AnalyticsVariables, MODULE_VARIABLE_SECTIONS } from "./schemas/variables.js";

type ModuleVariableSection = (typeof MODULE_VARIABLE_SECTIONS)[number];

export interface SiteIdentity {
  code: string;
  name: string;
  appId: string;
  spa: boolean;
  internal: boolean;
}

export interface BundleConfig extends Omit<Settings, "budget" | "modules" | "disabledRules" | "analyticsVariables" | "tags"> {
  /** The variable numbers (sites/_org.yaml); a feature module's section only when the module is enabled. */
  analyticsVariables: Omit<AnalyticsVariables, ModuleVariableSection> & Partial<Pick<AnalyticsVariables, ModuleVariableSection>>;
  /** Format version of this object. */
  v: 1;
  site: SiteIdentity;
  /** The environment this bundle was built for. */
  env: EnvName;
  /** Every host of the site, per environment (the hostname table). */
  hosts: Partial<Record<EnvName, string[]>>;
  apexDomain: string;
  dataLayerName: string;
  defaultEnv: EnvName;
  envFallback: Array<{ pattern: string; env: EnvName }>;
  /** The page global of the environment table's global-flag step (dev bundles only; generator/bundle/trim-config.ts). */
  envGlobal?: string;
  /** Only the enabled modules, with resolved settings. */
  modules: { [K in keyof ModulesConfig]?: NonNullable<ModulesConfig[K]> };
}

export type { Rule, RuleEvent, RuleCondition, RuleAction, DataElement } from "./schemas/rules.js";
export type {
  EnvName,
  ConsentCategory,
  ChatModuleConfig,
  SurveyModuleConfig,
  VideoModuleConfig,
  VideoMilestone,
  ModulesConfig,
  Timing,
  ConsentSettings,
  ModuleName,
  TagModuleConfig,
  TagFamilyModuleConfig,
  ResolvedTag,
} from "./schema.js";

/**
 * Per-feature-set cores (issue #21, "compile the core per feature set"): a
 * bundle's core holds only the rule conditions, actions and event sources its
 * rules use. The core entry is generated per feature set: it imports each
 * used type's function from the compiled runtime (exported under the type's
 * name from rules/conditions.js, rules/actions.js, rules/events.js) and hands
 * boot the table (runtime-modules/rules/features.ts, RuleFeatures); rollup
 * leaves every other function out. The core is compiled once per distinct
 * feature set (a handful across the catalogue) and cached like any piece.
 *
 * A new condition (action, event source) joins by its schema option and a
 * function of the same name exported from its runtime file, listed in
 * allRuleFeatures() (a compile error until it is); nothing here changes.
 */
import type { BundleConfig, RuleCondition } from "../config/bundle-config.js";
import { sha256 } from "./hash.js";

/** The rule features of one bundle, each list in a fixed order. */
export interface FeatureSet {
  conditions: string[];
  actions: string[];
  events: string[];
  /** The Edge client's config-driven paths its config turns on (runtime-modules/edge/features.ts, EdgeFeatures). */
  edge: string[];
  /** Data-element options with code of their own (`lists`: unique, sort, reduce); absent when none is used. */
  elements?: string[];
  /** The sampling service (runtime-modules/identity/sampling.ts, `createSampling`): only where an enabled tag is sampled; absent otherwise. */
  sampling?: string[];
  /** The credential request and fetch (runtime-modules/identity/credentials.ts): only where the environment has a credential service (identity.credentials.serviceUrl); absent otherwise. */
  credentials?: string[];
}

/** Where each kind's functions are exported, in the compiled runtime. */
export const FEATURE_FILES: Record<keyof FeatureSet, string> = {
  conditions: "rules/conditions",
  actions: "rules/actions",
  events: "rules/events",
  edge: "edge/features",
  elements: "rules/data-elements",
  sampling: "identity/sampling",
  credentials: "identity/credentials",
};

/** Event types with a source of their own, in the order boot connects them (runtime-modules/rules/events.ts, SourcedEvent). */
export const SOURCED_EVENTS = ["domReady", "windowLoaded", "click", "routeChange", "elementExists", "timer", "noPush"];

function addCondition(condition: RuleCondition, into: Set<string>): void {
  into.add(condition.type);
  if (condition.type === "not") addCondition(condition.condition, into);
  if (condition.type === "allOf" || condition.type === "anyOf") for (const c of condition.conditions) addCondition(c, into);
}

/**
 * The Edge client's paths a config turns on, by feature name (issue #21): a
 * path every shipped config turns off is compiled out of their cores. A new
 * one joins here, in EdgeFeatures and in allRuleFeatures().
 */
export function edgeFeaturesOf(analytics: Partial<BundleConfig["analytics"]> | undefined): string[] {
  const on = {
    thirdPartyCookies: !!analytics?.thirdPartyCookies,
    datastreamOverride: !!analytics?.datastreamOverride,
    configOverrides: !!analytics?.configOverrides && Object.keys(analytics.configOverrides).length > 0,
    personalization: !!analytics?.personalization,
  };
  return Object.keys(on).filter((name) => on[name as keyof typeof on]);
}

/** The conditions, actions and event sources a bundle's rules use, and the Edge client's paths its config turns on. */
/** The conditions, actions and event sources a bundle's rules use, the Edge client's paths its config turns on, and the data-element options with code its data elements use. */
export function featureSetOf(
  config: Pick<BundleConfig, "rules"> &
    Partial<Pick<BundleConfig, "dataElements">> & {
      analytics?: Partial<BundleConfig["analytics"]>;
      modules?: Partial<BundleConfig["modules"]>;
      identity?: { credentials?: { serviceUrl?: string } };
    },
): FeatureSet {
  const conditions = new Set<string>();
  const actions = new Set<string>();
  const events = new Set<string>();
  for (const rule of config.rules) {
    for (const c of rule.conditions) addCondition(c, conditions);
    for (const a of rule.actions) actions.add(a.type);
    for (const e of rule.events) events.add(e.type);
  }
  const set: FeatureSet = {
    conditions: [...conditions].sort(),
    actions: [...actions].sort(),
    events: SOURCED_EVENTS.filter((e) => events.has(e)),
    edge: edgeFeaturesOf(config.analytics),
  };
  if (Object.values(config.dataElements ?? {}).some((d) => d.unique || d.sort || d.reduce)) set.elements = ["lists"];
  // "The sampling rate of the tag settings per host" decides only for sampled tags: a bundle without one carries no sampling code.
  if (config.modules?.tags?.tags.some((t) => t.sampled)) set.sampling = ["createSampling"];
  // "A site without a credential service carries no credential fetch" (issue #21): no serviceUrl, no request to make.
  if (config.identity?.credentials?.serviceUrl) set.credentials = ["fetchCredential"];
  return set;
}

/** A short, stable name for a feature set: the core piece of bundles with it is "core.KEY". */
export function featureKeyOf(set: FeatureSet): string {
  // A set without data-element options keeps the key it would have had without them.
  const elements = set.elements?.length ? `\0${set.elements.join(",")}` : "";
  // Likewise without the sampling service.
  const sampling = set.sampling?.length ? `\0sampling:${set.sampling.join(",")}` : "";
  // Likewise without the credential fetch.
  const credentials = set.credentials?.length ? `\0credentials:${set.credentials.join(",")}` : "";
  return sha256(
    `${set.conditions.join(",")}\0${set.actions.join(",")}\0${set.events.join(",")}\0${set.edge.join(",")}${elements}${sampling}${credentials}`,
  ).slice(0, 10);
}

/** The import lines and the table expression of a feature set, for a core entry importing from `runtime` (with `extension` on each file). */
export function featureImports(set: FeatureSet, runtime: string, extension: string): { imports: string[]; table: string } {
  const imports: string[] = [];
  const parts: string[] = [];
  for (const kind of ["conditions", "actions", "events", "edge", "elements", "sampling", "credentials"] as const) {
    const names = set[kind];
    // No config-driven path on: boot gets no edge table (most bundles); no data-element option: no elements table.
    if (!names || (kind === "edge" && !names.length)) continue;
    const local = (name: string) => `${kind[0]}_${name}`;
    if (names.length)
      imports.push(`import { ${names.map((n) => `${n} as ${local(n)}`).join(", ")} } from ${JSON.stringify(`${runtime}/${FEATURE_FILES[kind]}${extension}`)};`);
    parts.push(`${kind}: { ${names.map((n) => `${n}: ${local(n)}`).join(", ")} }`);
  }
  return { imports, table: `{ ${parts.join(", ")} }` };
}

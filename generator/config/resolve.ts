/**
 * The last step of loading: each site x environment's settings, merged from
 * four layers (org, org envs.ENV, site, site envs.ENV), validated, checked
 * (rules, data elements) and resolved into one ResolvedBundle. Runs for
 * invalid site files too, so that every problem is reported in one run;
 * errors of the merged settings are reported in the most specific file that
 * sets (a prefix of) the offending path, and once.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { BundleConfig } from "./bundle-config.js";
import { MODULE_VARIABLE_SECTIONS } from "./schemas/variables.js";
import { isPlain, type Catalogue, type LoadOptions, type Plain, type ResolvedBundle, type SiteModel } from "./catalogue.js";
import { issuesToDiagnostics } from "./issues.js";
import { mergeSettings } from "./merge.js";
import { parseWithWarnings, type ParseContext } from "./parse.js";
import { checkRules } from "./rules-check.js";
import { checkTags, resolveTags } from "./tags-check.js";
import { SettingsSchema, type EnvName, type OrgFile, type Settings } from "./schema.js";
import type { SiteToResolve } from "./site-checks.js";
import { TagModulesShape } from "./schemas/tags.js";
import { hasPath, offsetOf, type YamlSource } from "./yaml-source.js";

const TAG_MODULE_KEYS = TagModulesShape;

type Layer = { source: YamlSource; prefix: PropertyKey[]; data: unknown };

const SETTING_KEYS = Object.keys(SettingsSchema.shape);
const pickSettings = (data: unknown): Plain => {
  const out: Plain = {};
  if (isPlain(data)) for (const k of SETTING_KEYS) if (data[k] !== undefined) out[k] = data[k];
  return out;
};

/** The four layers of a site x environment, least specific first. */
function layersOf(orgSource: YamlSource, source: YamlSource, env: EnvName): Layer[] {
  const orgRaw = orgSource.data as Plain;
  const siteRaw = source.data as Plain;
  return [
    { source: orgSource, prefix: [], data: pickSettings(orgRaw) },
    { source: orgSource, prefix: ["envs", env], data: pickSettings((orgRaw.envs as Plain | undefined)?.[env]) },
    { source, prefix: [], data: pickSettings(siteRaw) },
    { source, prefix: ["envs", env], data: pickSettings((siteRaw.envs as Plain | undefined)?.[env]) },
  ];
}

/** Adds the bundles of the valid sites to the catalogue and every problem of the merged settings to `diagnostics`. */
export function resolveBundles(
  catalogue: Catalogue,
  orgSource: YamlSource,
  toResolve: readonly SiteToResolve[],
  options: LoadOptions,
  checks: ParseContext,
  diagnostics: Diagnostic[],
): void {
  const seen = new Set(diagnostics.map((d) => `${d.file}:${d.line}:${d.column}:${d.code}`));
  const inSite = new Map<string, { diagnostic: Diagnostic; site: string; envs: EnvName[] }>();
  for (const { model: site, source, valid } of toResolve) {
    for (const env of site.envs) {
      const layers = layersOf(orgSource, source, env);
      const { merged, pick } = mergeSettings(layers);
      const parsed = parseWithWarnings(SettingsSchema, merged, checks);
      const issues = issuesToDiagnostics(parsed.success ? parsed.warnings : parsed.issues, pick, {
        schema: SettingsSchema,
        moduleNames: options.moduleNames,
        data: merged,
      });
      const found = parsed.success
        ? [
            ...issues,
            ...checkRules({
              settings: parsed.data,
              // The modules written under modules:, and those the enabled tags switch on (their families': a rule may call their commands).
              enabledModules: Object.keys(parsed.data.modules)
                .filter((m) => parsed.data.modules[m as keyof typeof parsed.data.modules])
                .concat(resolveTags(parsed.data, env).families),
              pick,
              where: `${site.code}/${env}`,
            }),
            ...checkTags({ settings: parsed.data, env, internal: site.data.internal, pick, where: `${site.code}/${env}` }),
          ]
        : issues;
      for (const d of found) {
        const key = `${d.file}:${d.line}:${d.column}:${d.code}`;
        const same = inSite.get(key);
        // One problem of a site file shared by several environments: one diagnostic naming them all.
        if (same && !same.envs.includes(env)) same.envs.push(env);
        if (seen.has(key)) continue;
        seen.add(key);
        if (d.file !== orgSource.file && !parsed.success) inSite.set(key, { diagnostic: d, site: site.code, envs: [env] });
        diagnostics.push(d);
      }
      if (!parsed.success || found.some((d) => d.severity === "error")) continue;
      if (valid && catalogue.org) catalogue.bundles.push(toBundle(catalogue.org, site, env, parsed.data, layers));
    }
  }
  for (const { diagnostic, site, envs } of inSite.values()) diagnostic.message += ` (in ${envs.map((e) => `${site}/${e}`).join(", ")})`;
}

/** `file:line:col` of the most specific layer that writes `path`. */
function whereSet(layers: readonly Layer[], path: PropertyKey[], prefer: "key" | "value"): { file: string; line: number; column: number } | undefined {
  const from = [...layers].reverse().find((l) => hasPath(l.source, [...l.prefix, ...path]));
  if (!from) return undefined;
  const pos = from.source.lines.linePos(offsetOf(from.source, [...from.prefix, ...path], prefer));
  return { file: from.source.file, line: pos.line, column: pos.col };
}

/** The variable numbers a bundle needs: a feature module's section only when the module is enabled. */
function moduleVariables(all: Settings["analyticsVariables"], enabled: BundleConfig["modules"]): BundleConfig["analyticsVariables"] {
  const kept: BundleConfig["analyticsVariables"] = { ...all };
  for (const section of MODULE_VARIABLE_SECTIONS) if (!enabled[section]) delete kept[section];
  return kept;
}

function toBundle(org: OrgFile, site: SiteModel, env: EnvName, settings: Settings, layers: readonly Layer[]): ResolvedBundle {
  const { budget, modules, disabledRules, rules, analyticsVariables, tags, ...rest } = settings;
  const enabled: BundleConfig["modules"] = {};
  const moduleSources: Record<string, string> = {};
  const tagModules = resolveTags(settings, env);
  for (const [name, value] of Object.entries(modules) as Array<[keyof typeof modules, (typeof modules)[keyof typeof modules]]>) {
    // The tag modules are filled from tags: below, never from modules:.
    if (!value || value.enabled === false || name in TAG_MODULE_KEYS) continue;
    (enabled as Record<string, unknown>)[name] = value;
    const from = whereSet(layers, ["modules", name], "key");
    if (from) moduleSources[name] = `${from.file}:${from.line}:${from.column}`;
  }
  // The generic loader is in the bundle only when an enabled tag needs it, a family's module only when one of its tags does.
  const tagSources: Record<string, string> = {};
  if (tagModules.tags.length) {
    (enabled as Record<string, unknown>).tags = { enabled: true, tags: tagModules.tags };
    for (const tag of tagModules.tags) {
      // The most specific layer that enables it, else the one that declares it.
      const from = whereSet(layers, ["tags", tag.code, "enabled"], "key") ?? whereSet(layers, ["tags", tag.code], "key");
      if (from) tagSources[tag.code] = `${from.file}:${from.line}:${from.column}`;
    }
    moduleSources.tags = tagSources[tagModules.tags[0].code];
    for (const family of tagModules.families) {
      (enabled as Record<string, unknown>)[family] = { enabled: true };
      moduleSources[family] = tagSources[tagModules.tags.find((t) => t.family === family)!.code];
    }
  }
  void tags;
  const hosts: BundleConfig["hosts"] = {};
  for (const e of site.envs) hosts[e] = site.data.hosts[e];
  const config: BundleConfig = {
    v: 1,
    site: { code: site.code, name: site.data.name, appId: site.data.appId, spa: site.data.spa, internal: site.data.internal },
    env,
    hosts,
    apexDomain: org.apexDomain,
    dataLayerName: org.dataLayerName,
    defaultEnv: org.defaultEnv,
    envFallback: org.envFallback,
    envGlobal: org.envGlobal,
    ...rest,
    analyticsVariables: moduleVariables(analyticsVariables, enabled),
    rules: rules.filter((r) => !disabledRules.includes(r.id)),
    modules: enabled,
  };
  return {
    site: site.code,
    env,
    config,
    budgetGzipBytes: budget.gzipBytes,
    modules: Object.keys(enabled).sort(),
    moduleSources,
    tagSources,
    budgetSource: whereSet(layers, ["budget", "gzipBytes"], "value"),
  };
}

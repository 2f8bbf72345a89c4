/**
 * Loads the catalogue: sites/_org.yaml and sites/CODE.yaml. Parses with
 * positions, validates with the zod schemas, runs the cross-file checks and
 * resolves one BundleConfig per site x environment. Every problem in every
 * file is collected; nothing stops at the first.
 */
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";

import { z } from "zod";
import { sortDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import { ENV_NAMES } from "./constants.js";
import { HostsSchema, OrgFileSchema, SettingsSchema, SiteCodeSchema, SiteFileSchema, type EnvName, type OrgFile, type Settings, type SiteFile } from "./schema.js";
import type { BundleConfig } from "./bundle-config.js";
import { issuesToDiagnostics } from "./issues.js";
import { checkRules } from "./rules-check.js";
import { diagnosticAtOffset, hasPath, offsetOf, parseYamlSource, type YamlSource } from "./yaml-source.js";
import { mergeInto } from "../../runtime-modules/core/merge.js";

export const ORG_FILE = "_org.yaml";

/** The parts of a site file the cross-file checks need (used when the rest is invalid). */
const SiteIdentitySchema = z.looseObject({ code: SiteCodeSchema, hosts: HostsSchema, envs: z.looseObject({}).optional() });

/**
 * A file's code and hosts when its hosts block has problems (already
 * reported): the host names of each known environment, so that host
 * conflicts and the merged settings and rules of that file are still
 * checked in the same run. Undefined without a valid code.
 */
function salvageIdentity(raw: unknown): SiteFile | undefined {
  const data = (raw ?? {}) as Plain;
  const code = SiteCodeSchema.safeParse(data.code);
  if (!code.success) return undefined;
  const hosts: Partial<Record<EnvName, string[]>> = {};
  const rawHosts = (data.hosts ?? {}) as Plain;
  for (const env of ENV_NAMES) {
    const list = rawHosts[env];
    if (!Array.isArray(list)) continue;
    // Invalid names stay too (already reported): the environment is still listed, so its overrides are no stray.
    const names = list.filter((h): h is string => typeof h === "string");
    if (names.length) hosts[env] = names;
  }
  const envs = data.envs && typeof data.envs === "object" && !Array.isArray(data.envs) ? data.envs : undefined;
  return { ...data, code: code.data, hosts, envs } as unknown as SiteFile;
}

export interface ResolvedBundle {
  site: string;
  env: EnvName;
  config: BundleConfig;
  budgetGzipBytes: number;
  /** Enabled module names, sorted. */
  modules: string[];
  /** Which file enabled each module (for `inspect`). */
  moduleSources: Record<string, string>;
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
  cwd?: string;
}

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === "object" && v !== null && !Array.isArray(v);

/** Deep merge of layers: objects merge key by key, everything else (lists too) is replaced (the runtime's guarded merge, runtime-modules/core/merge.ts). */
export function mergeLayers(...layers: unknown[]): Plain {
  return layers.reduce<Plain>((out, layer) => mergeInto(out, layer), {});
}

const SETTING_KEYS = Object.keys(SettingsSchema.shape);
const pickSettings = (data: unknown): Plain => {
  const out: Plain = {};
  if (isPlain(data)) for (const k of SETTING_KEYS) if (data[k] !== undefined) out[k] = data[k];
  return out;
};

export async function loadCatalogue(options: LoadOptions): Promise<Catalogue> {
  const cwd = options.cwd ?? process.cwd();
  const display = (abs: string) => relative(cwd, abs) || abs;
  const diagnostics: Diagnostic[] = [];
  const catalogue: Catalogue = { sitesDir: options.sitesDir, sites: [], bundles: [], diagnostics, files: [] };

  let names: string[];
  try {
    names = (await readdir(options.sitesDir)).filter((n) => n.endsWith(".yaml") || n.endsWith(".yml")).sort();
  } catch {
    diagnostics.push({ code: "CONFIG_NO_SITES", message: `cannot read the sites directory ${display(options.sitesDir)}`, severity: "error", file: display(options.sitesDir) });
    return catalogue;
  }
  // A name that cannot be read as a file (a folder called x.yaml, no permission) is reported, not thrown.
  const read = await Promise.all(names.map((n) => readFile(join(options.sitesDir, n), "utf8").then((text) => ({ text }), (err: NodeJS.ErrnoException) => ({ error: err.code ?? err.message }))));
  names = names.filter((n, i) => {
    const r = read[i];
    if ("text" in r) return true;
    diagnostics.push({ code: "CONFIG_UNREADABLE_FILE", message: `cannot read ${n} as a file (${r.error})`, severity: "error", file: display(join(options.sitesDir, n)) });
    return false;
  });
  const texts = read.flatMap((r) => ("text" in r ? [r.text] : []));
  names.forEach((n, i) => catalogue.files.push({ file: n, text: texts[i] }));

  // Parse every file first (syntax errors of all files are reported together).
  const sources = new Map<string, YamlSource>();
  names.forEach((name, i) => {
    const { source, diagnostics: found } = parseYamlSource(display(join(options.sitesDir, name)), texts[i]);
    diagnostics.push(...found);
    if (found.length === 0) sources.set(name, source);
  });

  // The organisation file.
  let orgSource: YamlSource | undefined;
  if (!names.includes(ORG_FILE)) {
    diagnostics.push({ code: "CONFIG_ORG_MISSING", message: `no ${ORG_FILE} in ${display(options.sitesDir)}`, severity: "error", file: display(join(options.sitesDir, ORG_FILE)) });
  } else if (sources.has(ORG_FILE)) {
    orgSource = sources.get(ORG_FILE)!;
    const parsed = OrgFileSchema.safeParse(orgSource.data);
    if (parsed.success) catalogue.org = parsed.data;
    else diagnostics.push(...issuesToDiagnostics(parsed.error.issues, () => ({ source: orgSource!, prefix: [] }), { schema: OrgFileSchema, moduleNames: options.moduleNames, data: orgSource.data }));
  }

  const siteNames = names.filter((n) => !n.startsWith("_"));
  if (siteNames.length === 0) diagnostics.push({ code: "CONFIG_NO_SITES", message: `no site files in ${display(options.sitesDir)}`, severity: "error" });

  // Each site file on its own. A file whose code matches its name owns the
  // code; other files declaring the same code are the duplicates.
  const declared = new Map<string, string[]>();
  for (const name of siteNames) {
    const code = (sources.get(name)?.data as Plain | undefined)?.code;
    if (typeof code === "string") declared.set(code, [...(declared.get(code) ?? []), name]);
  }
  const ownerOf = (code: string) => {
    const files = declared.get(code) ?? [];
    return files.find((f) => f.replace(/\.ya?ml$/, "") === code) ?? files[0];
  };
  const hostOwner = new Map<string, { site: string; file: string; line: number; column: number }>();
  /** Host patterns (*.suffix): checked against every other site's hosts once all are known. */
  const wildcards: Array<{ host: string; site: string; source: YamlSource; offset: number; path: string }> = [];
  /** Sites whose settings are checked after merging (valid or not: all problems at once). */
  const toResolve: Array<{ model: SiteModel; source: YamlSource; valid: boolean }> = [];
  for (const name of siteNames) {
    const source = sources.get(name);
    if (!source) continue;
    const parsed = SiteFileSchema.safeParse(source.data);
    let ok = parsed.success;
    if (!parsed.success) diagnostics.push(...issuesToDiagnostics(parsed.error.issues, () => ({ source, prefix: [] }), { schema: SiteFileSchema, moduleNames: options.moduleNames, data: source.data }));
    // The cross-file checks still run when other parts of the file are wrong.
    const identity = parsed.success ? parsed.data : (SiteIdentitySchema.safeParse(source.data).data ?? salvageIdentity(source.data));
    if (!identity) continue;
    const data = identity as SiteFile;
    const expected = name.replace(/\.ya?ml$/, "");
    if (data.code !== expected) {
      diagnostics.push(diagnosticAtOffset(source, "CONFIG_CODE_MISMATCH", `site code "${data.code}" differs from the file name "${name}" (rename one of them)`, offsetOf(source, ["code"]), "code"));
      ok = false;
    }
    const owner = ownerOf(data.code);
    if (owner !== name) {
      diagnostics.push(diagnosticAtOffset(source, "CONFIG_DUPLICATE_SITE", `site code "${data.code}" is already declared in ${display(join(options.sitesDir, owner))}`, offsetOf(source, ["code"]), "code"));
      ok = false;
    }
    // Hosts in the order the file lists them.
    const rawHosts = ((source.data as Plain).hosts ?? {}) as Plain;
    const listed = Object.keys(rawHosts).filter((env): env is EnvName => (ENV_NAMES as readonly string[]).includes(env) && data.hosts[env as EnvName] !== undefined);
    if (listed.length === 0) {
      diagnostics.push(diagnosticAtOffset(source, "CONFIG_NO_ENVIRONMENTS", `site "${data.code}" has no environments: list hosts for at least one of ${ENV_NAMES.join(", ")}`, offsetOf(source, ["hosts"], "key"), "hosts"));
      ok = false;
    }
    for (const env of listed) {
      const hosts = data.hosts[env]!;
      if (hosts.length === 0) {
        diagnostics.push(diagnosticAtOffset(source, "CONFIG_ENV_NO_HOSTS", `environment "${env}" has no hosts (remove it or list at least one host)`, offsetOf(source, ["hosts", env], "key"), `hosts.${env}`));
        ok = false;
      }
      hosts.forEach((host, i) => {
        const offset = offsetOf(source, ["hosts", env, i]);
        if (host.startsWith("*.")) wildcards.push({ host, site: data.code, source, offset, path: `hosts.${env}[${i}]` });
        const first = hostOwner.get(host);
        if (first) {
          const who = first.site === data.code ? "this site" : `site "${first.site}"`;
          diagnostics.push(diagnosticAtOffset(source, "CONFIG_HOST_CONFLICT", `host "${host}" is already claimed by ${who} at ${first.file}:${first.line}:${first.column}`, offset, `hosts.${env}[${i}]`));
          ok = false;
        } else {
          const pos = source.lines.linePos(offset);
          hostOwner.set(host, { site: data.code, file: source.file, line: pos.line, column: pos.col });
        }
      });
    }
    for (const env of ENV_NAMES) {
      if (data.envs?.[env] !== undefined && data.hosts[env] === undefined) {
        diagnostics.push(diagnosticAtOffset(source, "CONFIG_ENV_NOT_HOSTED", `overrides for environment "${env}", which has no hosts on this site`, offsetOf(source, ["envs", env], "key"), `envs.${env}`));
        ok = false;
      }
    }
    const envs = ENV_NAMES.filter((e) => (data.hosts[e]?.length ?? 0) > 0);
    const model: SiteModel = { code: data.code, file: source.file, data, envs };
    toResolve.push({ model, source, valid: ok });
    if (ok) catalogue.sites.push(model);
  }

  // A pattern claims every host below its suffix (as the runtime's host check reads it): another site's host there is a conflict.
  for (const w of wildcards) {
    const suffix = w.host.slice(1);
    const taken = [...hostOwner].filter(([host, owner]) => owner.site !== w.site && host !== w.host && (host.endsWith(suffix) || (host.startsWith("*.") && host.slice(1).endsWith(suffix))));
    if (!taken.length) continue;
    const [host, owner] = taken[0];
    const more = taken.length > 1 ? ` (and ${taken.length - 1} more)` : "";
    diagnostics.push(diagnosticAtOffset(w.source, "CONFIG_HOST_CONFLICT", `host pattern "${w.host}" also covers "${host}", claimed by site "${owner.site}" at ${owner.file}:${owner.line}:${owner.column}${more}`, w.offset, w.path));
    const entry = toResolve.find((t) => t.model.code === w.site && t.source === w.source);
    if (entry) entry.valid = false;
    catalogue.sites = catalogue.sites.filter((m) => m.code !== w.site);
  }

  // Resolve site x env. Runs for invalid files too, so that every problem is
  // reported in one run; errors of the merged config are reported in the most
  // specific file that sets (a prefix of) the offending path, and once.
  if (orgSource) {
    const orgRaw = orgSource.data as Plain;
    const seen = new Set(diagnostics.map((d) => `${d.file}:${d.line}:${d.column}:${d.code}`));
    for (const { model: site, source, valid } of toResolve) {
      const siteRaw = source.data as Plain;
      for (const env of site.envs) {
        const layers: Array<{ source: YamlSource; prefix: PropertyKey[]; data: unknown }> = [
          { source: orgSource, prefix: [], data: pickSettings(orgRaw) },
          { source: orgSource, prefix: ["envs", env], data: pickSettings((orgRaw.envs as Plain | undefined)?.[env]) },
          { source, prefix: [], data: pickSettings(siteRaw) },
          { source, prefix: ["envs", env], data: pickSettings((siteRaw.envs as Plain | undefined)?.[env]) },
        ];
        const { merged, pick } = mergeSettings(layers);
        const parsed = SettingsSchema.safeParse(merged);
        const found = parsed.success
          ? checkRules({ settings: parsed.data, enabledModules: Object.keys(parsed.data.modules).filter((m) => parsed.data.modules[m as keyof typeof parsed.data.modules]), pick, where: `${site.code}/${env}` })
          : issuesToDiagnostics(parsed.error.issues, pick, { schema: SettingsSchema, moduleNames: options.moduleNames, data: merged }).map((d) =>
              d.file === orgSource.file ? d : { ...d, message: `${d.message} (in ${site.code}/${env})` },
            );
        for (const d of found) {
          const key = `${d.file}:${d.line}:${d.column}:${d.code}`;
          if (seen.has(key)) continue;
          seen.add(key);
          diagnostics.push(d);
        }
        if (!parsed.success || found.length) continue;
        if (valid && catalogue.org) catalogue.bundles.push(toBundle(catalogue.org, site, env, parsed.data, layers));
      }
    }
  }

  catalogue.diagnostics = sortDiagnostics(diagnostics);
  return catalogue;
}

type Layer = { source: YamlSource; prefix: PropertyKey[]; data: unknown };

/**
 * Merges the four layers of one site x environment. Objects merge key by
 * key; lists and values are replaced; except that rules and disabledRules
 * add up across layers and a data element replaces the same-named one whole.
 * The picker maps a path of the merged settings to the file and key path
 * that wrote it.
 */
function mergeSettings(layers: Layer[]) {
  const SPECIAL = ["rules", "disabledRules", "dataElements"];
  const plain = layers.map((l) => Object.fromEntries(Object.entries((l.data ?? {}) as Plain).filter(([k]) => !SPECIAL.includes(k))));
  const merged = withoutDisabledModules(mergeLayers(...plain));
  const origins: Record<string, Array<{ layer: Layer; index: number }>> = { rules: [], disabledRules: [] };
  for (const key of ["rules", "disabledRules"]) {
    const all: unknown[] = [];
    let invalid: unknown;
    for (const layer of layers) {
      const list = (layer.data as Plain | undefined)?.[key];
      if (Array.isArray(list)) {
        list.forEach((item, index) => {
          all.push(item);
          origins[key].push({ layer, index });
        });
      } else if (list !== undefined) invalid = list; // not a list: the schema reports it
    }
    merged[key] = invalid ?? all;
  }
  const elementOrigin: Record<string, Layer> = {};
  const elements: Plain = {};
  for (const layer of layers) {
    const own = (layer.data as Plain | undefined)?.dataElements;
    if (!isPlain(own)) continue;
    for (const [name, element] of Object.entries(own)) {
      elements[name] = element;
      elementOrigin[name] = layer;
    }
  }
  merged.dataElements = elements;
  const pick = (path: ReadonlyArray<PropertyKey>): { source: YamlSource; prefix: ReadonlyArray<PropertyKey>; path?: ReadonlyArray<PropertyKey> } => {
    const [head, index, ...rest] = path;
    if ((head === "rules" || head === "disabledRules") && typeof index === "number" && origins[head][index]) {
      const { layer, index: local } = origins[head][index];
      return { source: layer.source, prefix: layer.prefix, path: [...layer.prefix, head, local, ...rest] };
    }
    if (head === "dataElements" && typeof index === "string" && elementOrigin[index]) {
      const layer = elementOrigin[index];
      return { source: layer.source, prefix: layer.prefix, path: [...layer.prefix, ...path] };
    }
    for (let len = path.length; len >= 1; len--) {
      for (let i = layers.length - 1; i >= 0; i--) {
        if (hasPath(layers[i].source, [...layers[i].prefix, ...path.slice(0, len)])) return layers[i];
      }
    }
    // Set nowhere: a required organisation-wide default is missing.
    return layers[0];
  };
  return { merged, pick };
}

/** A module switched off (enabled: false) needs no other settings. */
function withoutDisabledModules(settings: Plain): Plain {
  const modules = settings.modules;
  if (!isPlain(modules)) return settings;
  const kept: Plain = {};
  for (const [name, value] of Object.entries(modules)) if (!(isPlain(value) && value.enabled === false)) kept[name] = value;
  return { ...settings, modules: kept };
}

function toBundle(org: OrgFile, site: SiteModel, env: EnvName, settings: Settings, layers: Array<{ source: YamlSource; prefix: PropertyKey[] }>): ResolvedBundle {
  const { budget, modules, disabledRules, rules, ...rest } = settings;
  const enabled: BundleConfig["modules"] = {};
  const moduleSources: Record<string, string> = {};
  for (const [name, value] of Object.entries(modules) as Array<[keyof typeof modules, (typeof modules)[keyof typeof modules]]>) {
    if (!value || value.enabled === false) continue;
    (enabled as Record<string, unknown>)[name] = value;
    const from = [...layers].reverse().find((l) => hasPath(l.source, [...l.prefix, "modules", name]));
    if (from) {
      const pos = from.source.lines.linePos(offsetOf(from.source, [...from.prefix, "modules", name], "key"));
      moduleSources[name] = `${from.source.file}:${pos.line}:${pos.col}`;
    }
  }
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
    ...rest,
    rules: rules.filter((r) => !disabledRules.includes(r.id)),
    modules: enabled,
  };
  const budgetLayer = [...layers].reverse().find((l) => hasPath(l.source, [...l.prefix, "budget", "gzipBytes"]));
  let budgetSource: ResolvedBundle["budgetSource"];
  if (budgetLayer) {
    const pos = budgetLayer.source.lines.linePos(offsetOf(budgetLayer.source, [...budgetLayer.prefix, "budget", "gzipBytes"]));
    budgetSource = { file: budgetLayer.source.file, line: pos.line, column: pos.col };
  }
  return { site: site.code, env, config, budgetGzipBytes: budget.gzipBytes, modules: Object.keys(enabled).sort(), moduleSources, budgetSource };
}


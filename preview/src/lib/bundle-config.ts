/**
 * The configuration a bundle carries. The compiler inlines each site x
 * environment's resolved config as one JSON object literal
 * (`{"v":1,"site":{...},...}`, generator/bundle/build.ts inlineConfig), so
 * the preview reads it from the bundle's own bytes: what the inspector shows
 * (rules, hosts, consent groups) is what the bundle runs, even when sites/
 * has changed since the build or the bundle comes from another dist.
 *
 * Typed loosely on purpose: the preview must open bundles of any version.
 */
import { isObject, type Obj } from "./json";

export interface RuleSpec {
  id: string;
  name?: string;
  order?: number;
  events: Obj[];
  conditions: Obj[];
  actions: Obj[];
}

export interface PreviewConfig {
  v?: number;
  site: { code: string; name?: string; appId?: string; spa?: boolean; internal?: boolean };
  env: string;
  hosts: Record<string, string[]>;
  apexDomain?: string;
  dataLayerName: string;
  defaultEnv?: string;
  consent: { groups: Record<string, string>; defaultCategory?: string };
  identity: { cookies: Record<string, string | number>; loginRecordKey?: string };
  analytics: { orgId?: string; datastreamId?: string; reportSuite?: string; edgeDomain?: string; edgeBasePath?: string };
  modules: Record<string, Obj>;
  rules: RuleSpec[];
  dataElements: Record<string, Obj>;
  sampling?: number;
  timing?: Record<string, number>;
  /** Everything, as inlined. */
  raw: Obj;
}

const START = '{"v":';

/** Finds the inlined config object in a bundle's code; undefined when there is none. */
export function extractConfig(code: string): PreviewConfig | undefined {
  let from = 0;
  for (;;) {
    const start = code.indexOf(START, from);
    if (start < 0) return undefined;
    const end = matchingBrace(code, start);
    if (end > start) {
      try {
        const raw = JSON.parse(code.slice(start, end + 1)) as unknown;
        if (isObject(raw) && isObject(raw.site) && typeof raw.env === "string") return normalizeConfig(raw);
      } catch {
        // Not JSON after all; keep looking.
      }
    }
    from = start + START.length;
  }
}

/** Index of the brace closing the object that opens at `start` (JSON strings respected), or -1. */
function matchingBrace(code: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < code.length; i++) {
    const c = code.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 /* { */) depth++;
    else if (c === 125 /* } */ && --depth === 0) return i;
  }
  return -1;
}

/** Defaults for whatever an older or newer bundle lacks. */
export function normalizeConfig(raw: Obj): PreviewConfig {
  const site = isObject(raw.site) ? raw.site : {};
  const consent = isObject(raw.consent) ? raw.consent : {};
  const identity = isObject(raw.identity) ? raw.identity : {};
  const hosts: Record<string, string[]> = {};
  if (isObject(raw.hosts))
    for (const [env, list] of Object.entries(raw.hosts)) if (Array.isArray(list)) hosts[env] = list.filter((h): h is string => typeof h === "string");
  const rules: RuleSpec[] = Array.isArray(raw.rules)
    ? raw.rules.filter(isObject).map((r) => ({
        id: String(r.id ?? "?"),
        name: typeof r.name === "string" ? r.name : undefined,
        order: typeof r.order === "number" ? r.order : undefined,
        events: Array.isArray(r.events) ? r.events.filter(isObject) : [],
        conditions: Array.isArray(r.conditions) ? r.conditions.filter(isObject) : [],
        actions: Array.isArray(r.actions) ? r.actions.filter(isObject) : [],
      }))
    : [];
  return {
    v: typeof raw.v === "number" ? raw.v : undefined,
    site: {
      code: String(site.code ?? "?"),
      name: typeof site.name === "string" ? site.name : undefined,
      appId: typeof site.appId === "string" ? site.appId : undefined,
      spa: site.spa === true,
      internal: site.internal === true,
    },
    env: String(raw.env),
    hosts,
    apexDomain: typeof raw.apexDomain === "string" ? raw.apexDomain : undefined,
    dataLayerName: typeof raw.dataLayerName === "string" ? raw.dataLayerName : "kiwiDataLayer",
    defaultEnv: typeof raw.defaultEnv === "string" ? raw.defaultEnv : undefined,
    consent: {
      groups: {
        performance: "C0002",
        functional: "C0003",
        marketing: "C0004",
        programFunctional: "C0005",
        programMarketing: "C0006",
        required: "C",
        ...(stringRecord(consent.groups) ?? {}),
      },
      defaultCategory: typeof consent.defaultCategory === "string" ? consent.defaultCategory : undefined,
    },
    identity: {
      cookies: {
        signInSession: "kiwi_session",
        signInToken: "kiwi_token",
        lifetime: "kiwi_lifetime",
        ...(isObject(identity.cookies) ? (identity.cookies as Record<string, string | number>) : {}),
      },
      loginRecordKey: typeof identity.loginRecordKey === "string" ? identity.loginRecordKey : "sitetags:login",
    },
    analytics: isObject(raw.analytics) ? (raw.analytics as PreviewConfig["analytics"]) : {},
    modules: isObject(raw.modules) ? (Object.fromEntries(Object.entries(raw.modules).filter(([, v]) => isObject(v))) as Record<string, Obj>) : {},
    rules,
    dataElements: isObject(raw.dataElements)
      ? (Object.fromEntries(Object.entries(raw.dataElements).filter(([, v]) => isObject(v))) as Record<string, Obj>)
      : {},
    sampling: typeof raw.sampling === "number" ? raw.sampling : undefined,
    timing: isObject(raw.timing) ? (raw.timing as Record<string, number>) : undefined,
    raw,
  };
}

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (!isObject(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === "string") out[k] = v;
  return out;
}

/** The page host for a bundle: its first host for its own environment (else the organisation's naming pattern). */
export function pageHost(config: Pick<PreviewConfig, "hosts" | "env" | "site" | "apexDomain">): string {
  const own = config.hosts[config.env];
  if (own && own.length) return own[0];
  const apex = config.apexDomain ?? "kiwi.example";
  return config.env === "prod" ? `${config.site.code}.${apex}` : `${config.site.code}-${config.env}.${apex}`;
}

/** The consent category of a tag-like rule action (loadScript, pixel), or the analytics gate for beacons. */
export function actionConsent(action: Obj): string | undefined {
  if (typeof action.consent === "string") return action.consent;
  if (action.type === "sendPageView" || action.type === "sendEvent") return "performance";
  return undefined;
}

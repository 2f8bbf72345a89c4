/**
 * Services every runtime module receives. Modules are factories:
 * `createX({ config, bundle, log, consent, cookies, page, loadScript })`
 * returns what the module offers. Loading a module file does nothing.
 */
import type { BundleConfig, ConsentCategory, ResolvedTag } from "../../generator/config/bundle-config.js";

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface LogEntry {
  level: LogLevel;
  message: string;
  code?: string;
  data?: unknown;
  /** ms since navigation start */
  t: number;
}

export interface Logger {
  debug(message: string, data?: unknown): void;
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown, code?: string): void;
  error(message: string, data?: unknown, code?: string): void;
  /** Whether console output is on (debug mode). */
  readonly enabled: boolean;
}

/** Runtime events for the preview's inspector and tests (see docs/runtime.md). */
export interface MonitorEvent {
  type: string;
  t: number;
  [key: string]: unknown;
}

export interface Monitor {
  emit(type: string, detail?: Record<string, unknown>): void;
  /** Whether anyone listens now (a caller may skip building its details when not; the rule engine does, issue #21). */
  on?(): boolean;
}

export interface TagDecisionReport {
  allowed: boolean;
  /** cb-disable, synthetics, allow-list, stored-status, internal-site, consent-category, exclusion-app-id, exclusion-host, gpc, user-name-in-url, consent-given */
  reason: string;
  category: ConsentCategory;
  detail?: string;
}

export interface ConsentGate {
  /** True when the visitor's consent grants this category now. */
  allows(category: ConsentCategory): boolean;
  /** Calls back once the category is granted (at once if it already is). */
  whenAllowed(category: ConsentCategory, callback: () => void): void;
  /** The one gate every tag passes: switches, consent, exclusion lists, GPC, user names in the URL. */
  decide(tagCode: string, category?: ConsentCategory): TagDecisionReport;
  /** Runs `load` once the tag passes the gate: now, or when consent arrives; never when a rule forbids it (then `blocked`, if given). */
  whenTagAllowed(tagCode: string, category: ConsentCategory | undefined, load: () => void, blocked?: () => void): void;
  /** The analytics SDK consent: pending (default), in, out. */
  sdk(): "pending" | "in" | "out";
  /** True once the banner has reported the visitor's groups on this page: a stored SDK consent no longer stands in for them. */
  reported(): boolean;
  onChange(listener: () => void): void;
}

export interface Cookies {
  get(name: string): string | undefined;
  /** Written on the apex domain, path /, Secure, SameSite=Lax unless told otherwise. */
  set(name: string, value: string, options?: { maxAgeSeconds?: number; domain?: string; sameSite?: "Lax" | "Strict" | "None" }): void;
  remove(name: string): void;
}

export interface PageInfo {
  host: string;
  path: string;
  query: URLSearchParams;
  hash: string;
  referrer: string;
  href: string;
}

export interface LoadScriptOptions {
  id?: string;
  attributes?: Record<string, string>;
}

export type LoadScript = (src: string, options?: LoadScriptOptions) => Promise<void>;

export interface ModuleServices<C> {
  config: C;
  /**
   * The page's window (its document is `win.document`): modules reach the
   * page only through it, never through globals. One service rather than two,
   * so the core's services object stays as small as before.
   */
  win: Window;
  bundle: BundleConfig;
  log: Logger;
  monitor: Monitor;
  consent: ConsentGate;
  cookies: Cookies;
  page: PageInfo;
  loadScript: LoadScript;
  /** Values for data elements: a module provides its own (`values.provide("pageName", …)`). */
  values: ProvidedValues;
  /** The data layer (computed state, listeners, push). */
  dataLayer: {
    get(path: string): unknown;
    push(item: Record<string, unknown>): void;
    on(listener: (push: Record<string, unknown>, event: string | undefined) => void): void;
  };
  /** Analytics (the Edge client). */
  analytics: Analytics;
  /**
   * The host's sampling rate and this visitor's decision (runtime-modules/identity/sampling.ts): the sampled tags (`sampled`, the
   * monitoring family by default) run only when sampledIn(). Only in bundles with a sampled tag (generator/bundle/features.ts).
   */
  sampling?: { rate: number; sampledIn(): boolean; decided?: boolean };
  /**
   * The tag family registry of this page (docs/tags.md): a family's module
   * (rum, beacon, adTracker, …) registers its hook under its family name when
   * boot creates it; module `tags`, created after every family (the
   * generator hands it to boot last), reads it. One per boot, never global.
   */
  tagFamilies: TagFamilies;
}

/** What a family's module adds to its tags (runtime-modules/modules/rum, beacon, ad-tracker, …). */
export interface TagFamilyHook {
  /** Why the tag does not load on this page at all, checked before the gate (a log message), or undefined. */
  skip?(tag: ResolvedTag): string | undefined;
  /** Runs once the gate allows the tag, at its lifecycle point, just before it loads; false: it does not load. */
  prepare?(tag: ResolvedTag): boolean;
  /** Runs once the tag's script, image or frame has loaded. */
  loaded?(tag: ResolvedTag): void;
}

/** The family hooks by family name (`ModuleServices.tagFamilies`). */
export type TagFamilies = Record<string, TagFamilyHook>;

/** What a module returns: named commands other parts (rules, pages) may call. */
export interface ModuleInstance {
  commands?: Record<string, (...args: unknown[]) => unknown>;
}

export type ModuleFactory<C> = (services: ModuleServices<C>) => ModuleInstance;

/**
 * The analytics pipeline's entry point (the Edge client): one canonical event
 * record feeds both destinations, the XDM event and the report suite's
 * analytics variables. `xdm` is merged over the defaults.
 */
export interface Analytics {
  pageView(event: { name?: string; variables?: Record<string, string>; xdm?: Record<string, unknown> }): Promise<unknown>;
  event(event: {
    name: string;
    eventType: string;
    linkType: "other" | "download" | "exit";
    url?: string;
    variables?: Record<string, string>;
    xdm?: Record<string, unknown>;
    /** A clicked element's Activity Map data: its text and region; the page is filled in on the way out. */
    activityMap?: ActivityMap;
  }): Promise<unknown>;
  /**
   * Variables merged into every later beacon of this page view; `events` and `products` (hit-scoped: counted once) into the next beacon only.
   * An empty variable is removed. `xdm`: fields merged into every later record's xdm; an empty value (undefined, null, "", {}) removes its field.
   */
  setVariables(variables: Record<string, string>, xdm?: unknown): void;
}

/**
 * Activity Map data of a click, as alloy's click collection sends it
 * (data.__adobe.analytics.contextData.a.activitymap): the link's text (99
 * characters), its region and the page's name (200 each).
 */
export interface ActivityMap {
  link: string;
  region: string;
  page?: string;
}

/** Values the runtime and modules provide to data elements (`provided: NAME`). */
export interface ProvidedValues {
  provide(name: string, read: () => unknown): void;
  get(name: string): unknown;
}

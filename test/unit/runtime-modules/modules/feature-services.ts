/**
 * Services for the feature-module factory tests (score views, SAT funnel,
 * test orders): the real data layer, logger and provided values over a fake
 * window (location, sessionStorage, the data-layer array), and an analytics
 * stand-in that records what would be sent, merging setVariables into later
 * beacons as the Edge client does. `start()` does what boot does after
 * creating the modules: processes the pushes made before the bundle loaded,
 * then fires the org page-view rule (sendPageView without a name, named by
 * the provided pageName or the default page name).
 */
import type { BundleConfig } from "../../../../generator/config/bundle-config.js";
import { defaultPageName } from "../../../../runtime-modules/core/default-page-name";
import { createLogger } from "../../../../runtime-modules/core/log";
import { createProvidedValues } from "../../../../runtime-modules/core/provided-values";
import type { Analytics, ModuleServices, MonitorEvent } from "../../../../runtime-modules/core/types";
import { createDataLayer } from "../../../../runtime-modules/rules/data-layer";
import { bundleConfig } from "../helpers/config";

export interface Sent {
  kind: "pageView" | "event";
  name: string;
  eventType: string;
  variables: Record<string, string>;
}

export interface FakeStorage extends Storage {
  data: Record<string, string>;
}

export function memoryStorage(data: Record<string, string> = {}, throws = false): FakeStorage {
  const fail = () => {
    if (throws) throw new Error("SecurityError: storage is disabled");
  };
  return {
    data,
    get length() {
      return Object.keys(data).length;
    },
    key: (i: number) => Object.keys(data)[i] ?? null,
    getItem: (k: string) => (fail(), Object.prototype.hasOwnProperty.call(data, k) ? data[k] : null),
    setItem: (k: string, v: string) => void (fail(), (data[k] = String(v))),
    removeItem: (k: string) => void (fail(), delete data[k]),
    clear: () => void Object.keys(data).forEach((k) => delete data[k]),
  } as FakeStorage;
}

export interface FeatureOptions {
  url: string;
  site?: string;
  appId?: string;
  /** Pushes made before the bundle loaded. */
  preload?: Record<string, unknown>[];
  /** Session storage shared across "page loads" (a new setup on the same tab). */
  storage?: FakeStorage;
  /** Cookies shared across "page loads" (name → value, with the options last written). */
  cookieJar?: CookieJar;
  /** Whether performance consent is granted (default true); `grantPerformance()` grants it later. */
  performance?: boolean;
}

export type CookieJar = Map<string, { value: string; options?: Record<string, unknown> }>;

/** Lets promise callbacks (the module's "bundle started" microtask, sends) run. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export function featureServices<C>(config: C, options: FeatureOptions) {
  const url = new URL(options.url);
  const site = options.site ?? url.hostname.split(".")[0].replace(/-(dev|qa|uat|perf|oat)$/, "");
  const storage = options.storage ?? memoryStorage();
  const cookieJar: CookieJar = options.cookieJar ?? new Map();
  let performance = options.performance ?? true;
  const waitingForPerformance: Array<() => void> = [];
  const monitorEvents: MonitorEvent[] = [];
  const win: Record<string, any> = {
    location: { pathname: url.pathname, href: url.href, search: url.search },
    sessionStorage: storage,
    kiwiDataLayer: [...(options.preload ?? [])],
    __sitetagsMonitors: [(e: MonitorEvent) => monitorEvents.push(e)],
  };
  const monitor = { emit: (type: string, detail: Record<string, unknown> = {}) => void monitorEvents.push({ type, t: 0, ...detail }) };
  const log = createLogger(monitor, false);
  const bundle: BundleConfig = bundleConfig({ site: { code: site, name: site, appId: options.appId ?? "33", spa: true, internal: false } });
  bundle.pageNames = { ...bundle.pageNames, separator: ":" };
  const values = createProvidedValues({ site, appId: bundle.site.appId });
  const dataLayer = createDataLayer(win, "kiwiDataLayer", log, monitor);
  const sent: Sent[] = [];
  let pageVariables: Record<string, string> = {};
  let throwOnSend = false;
  const analytics: Analytics = {
    pageView({ name, variables }) {
      if (throwOnSend) throw new Error("edge exploded");
      sent.push({
        kind: "pageView",
        name: name || (values.get("pageName") as string) || defaultPageName(bundle, win.location.pathname),
        eventType: "web.webpagedetails.pageViews",
        variables: { ...pageVariables, ...variables },
      });
      return Promise.resolve();
    },
    event({ name, eventType, variables }) {
      if (throwOnSend) throw new Error("edge exploded");
      sent.push({ kind: "event", name, eventType, variables: { ...pageVariables, ...variables } });
      return Promise.resolve();
    },
    setVariables(variables) {
      pageVariables = { ...pageVariables, ...variables };
    },
  };
  const services: ModuleServices<C> = {
    sampling: { rate: 100, sampledIn: () => true },
    tagFamilies: {},
    config,
    win: win as never,
    bundle,
    log,
    monitor,
    consent: {
      allows: (c: string) => c !== "performance" || performance,
      whenAllowed: (c: string, cb: () => void) => (c !== "performance" || performance ? cb() : void waitingForPerformance.push(cb)),
    } as never,
    cookies: {
      get: (name) => cookieJar.get(name)?.value,
      set: (name, value, options) => void cookieJar.set(name, { value, options }),
      remove: (name) => void cookieJar.delete(name),
    },
    page: { host: url.hostname, path: url.pathname, query: url.searchParams, hash: url.hash, referrer: "", href: url.href },
    loadScript: () => Promise.resolve(),
    values,
    dataLayer,
    analytics,
  };
  return {
    services,
    win,
    log,
    sent,
    storage,
    cookieJar,
    values,
    dataLayer,
    monitorEvents,
    /** Performance consent arrives (the callbacks waiting for it run). */
    grantPerformance() {
      performance = true;
      waitingForPerformance.splice(0).forEach((cb) => cb());
    },
    /** What the module sent, without the variables set before (page variables) unless `all`. */
    events: (eventType?: string) => sent.filter((s) => s.kind === "event" && (!eventType || s.eventType === eventType)),
    pageViews: () => sent.filter((s) => s.kind === "pageView"),
    logs: () => log.entries.map((e) => [e.level, e.message]),
    /** Boot's order after the modules: the pre-load pushes, then the org page-view rule (libraryLoaded). */
    start() {
      dataLayer.start();
      analytics.pageView({});
    },
    push: (item: Record<string, unknown>) => void (win.kiwiDataLayer as unknown[]).push(item),
    /** An SPA route change (history.pushState). */
    navigate(path: string) {
      win.location.pathname = path;
      win.location.href = url.origin + path;
    },
    failSends(on = true) {
      throwOnSend = on;
    },
  };
}

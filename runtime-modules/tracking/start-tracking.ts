import type { Rule } from "../../generator/config/bundle-config.js";
import type { Commands } from "../core/globals";
import type { Analytics, ModuleServices } from "../core/types";
import { errorText } from "../core/log";
import { NO_EVENT_CODE_IN_LINK_TRACK, SCRIPT_EMBEDDING_FAILED } from "../core/messages";
import { TBM_COOKIE, TBM_SECONDS } from "../analytics/traffic-source";
import type { VitalMetric } from "../analytics/web-vitals";
import { guardAnalytics } from "./guard-analytics";
import { pushedLinkEvent, pushedPromoEvent, type linkClickHandler } from "./link-clicks";
import { composePageName, declaredPage, HUB_SITE, routeKey, sitePageFacts, type DeclaredPage, type PageMaps, type Where } from "./page-naming";
import { createSearchEvents, searchResultClickEvent } from "./search-events";
import { createViewScheduler, watchRoutes, type ViewScheduler } from "./spa";
import { trafficVariables } from "./traffic";
import { createVitalsBatch, startVitals, type VitalsSubscribe } from "./vitals";

/** The services boot hands over (ModuleServices without a module's own config). */
export type TrackingServices = Omit<ModuleServices<unknown>, "config">;
/** The modules' commands (boot's `commands`): a module that names pages offers `pageName()`. */
export type ModuleCommands = Readonly<Record<string, Readonly<Commands>>>;

export const TRACKING_FAILED = "tracking failed";
export const TRACKING_NOT_ALLOWED = "tracking not allowed: the page address contains an at-sign";

/** What the deferred file hands over (tracking/deferred.ts): the web-vitals subscription and the link-click handler. */
export interface DeferredParts {
  vitals: VitalsSubscribe;
  links: typeof linkClickHandler;
}

/** The deferred file, as the build names it (generator/bundle/deferred.ts): its name beside the first file and its SRI integrity. */
export interface DeferredFile {
  file: string;
  integrity: string;
}

/** Loads the deferred file (after the window's load event); it calls `arrive` with its parts. Called once, after the first page view sent with consent. */
export type DeferredLoader = (arrive: (parts: DeferredParts) => void) => void;

/** How many clicks wait for the deferred file at most (the first ones are kept). */
export const MAX_QUEUED_CLICKS = 50;

/** Where the first file waits for the deferred one: the deferred file calls window[DEFERRED_HOOK](parts). */
export const DEFERRED_HOOK = "sitetags.deferred";

/** What the wiring gives back (for tests): the guarded analytics and the page name now. */
export interface Tracking {
  analytics: Analytics;
  pageName(): string;
}

/** Whether a site's own rule sends a page view on SPA route changes (then the wiring leaves route changes to it). */
export function hasRoutePageViewRule(rules: readonly Rule[]): boolean {
  return rules.some((r) => r.events.some((e) => e.type === "routeChange") && r.actions.some((a) => a.type === "sendPageView"));
}

/** The pushed events a site's own rule sends an event for (the wiring leaves those pushes to it: each is counted once). */
export function rulePushEvents(rules: readonly Rule[]): string[] {
  const out: string[] = [];
  for (const r of rules) if (r.actions.some((a) => a.type === "sendEvent")) for (const e of r.events) if (e.type === "dataLayerPush") out.push(e.event);
  return out;
}

/** The selectors of the site's click rules (a link inside one is left to that rule). */
export function clickRuleSelectors(rules: readonly Rule[]): string[] {
  const out: string[] = [];
  for (const r of rules) for (const e of r.events) if (e.type === "click") out.push(e.selector);
  return out;
}

/**
 * The analytics rules wired into the runtime (docs/tracking.md). Boot calls
 * this once, after the modules and before the rules engine. Never throws.
 */
export function startTracking(services: TrackingServices, commands: ModuleCommands = {}, deferred?: DeferredFile): void {
  try {
    wireTracking(services, commands, deferred && deferredLoader(services, deferred));
  } catch (e) {
    services.log.error(TRACKING_FAILED, errorText(e));
  }
}

/**
 * The loader of the deferred file: named relative to the first file's own
 * src (read now, while it runs: the CDN path and the alias both work), a
 * classic script with the page's nonce, `integrity` and `crossorigin`,
 * inserted once the window's load event has fired (a script inserted before
 * it holds that event until it has run; the file is not critical); a
 * failure to load is logged (debug only), and the queued clicks wait.
 */
export function deferredLoader(services: Pick<TrackingServices, "win" | "loadScript" | "log">, deferred: DeferredFile): DeferredLoader {
  const { win, log } = services;
  const own = win.document.currentScript as HTMLScriptElement | null;
  const base = own && own.src;
  return (arrive) => {
    if (!base) return void log.error(SCRIPT_EMBEDDING_FAILED, { src: deferred.file });
    const src = new URL(deferred.file, base).href;
    const hook = Symbol.for(DEFERRED_HOOK);
    (win as unknown as Record<symbol, unknown>)[hook] = (parts: DeferredParts) => {
      delete (win as unknown as Record<symbol, unknown>)[hook];
      arrive(parts);
    };
    const insert = () =>
      void services
        .loadScript(src, { attributes: { integrity: deferred.integrity, crossorigin: "anonymous" } })
        .catch((e) => log.error(SCRIPT_EMBEDDING_FAILED, { src, error: errorText(e) }));
    if (win.document.readyState === "complete") insert();
    else win.addEventListener("load", insert);
  };
}

/**
 * Page names (the provided "pageName", "conversionPage", on the hub
 * "hubEnvironment"), the analytics guard (at-sign block, redaction, page
 * URLs through xdm, page-view variables), traffic source, SPA page views,
 * link clicks, the link-click, promo-click, search and web-vitals pushes,
 * web vitals.
 */
export function wireTracking(services: TrackingServices, commands: ModuleCommands, loadDeferred?: DeferredLoader): Tracking {
  const { win, bundle: config, log, values, dataLayer, cookies, consent } = services;
  const site = config.site.code;
  const names = config.pageNames;
  const fail = (e: unknown) => log.error(TRACKING_FAILED, errorText(e));
  const guard = (fn: () => void) => () => {
    try {
      fn();
    } catch (e) {
      fail(e);
    }
  };
  const where = (): Where => ({ path: win.location.pathname, search: win.location.search, hash: win.location.hash });
  const key = () => routeKey(where(), names.preventedHashes);

  /* ---- page names ---- */
  let declared: { key: string; page: DeclaredPage | undefined } | undefined;
  // The page maps of the site's modules (the sign-in map, the test-day map).
  const maps: PageMaps = {};
  for (const module of Object.keys(commands))
    for (const name of ["pageCodes", "pathCodes"] as const) if (typeof commands[module][name] === "function") maps[name] = commands[module][name] as never;
  const pageName = (): string => {
    for (const module of Object.keys(commands)) {
      const named = typeof commands[module].pageName === "function" ? commands[module].pageName() : undefined;
      if (typeof named === "string" && named) return named;
    }
    return composePageName(site, names, where(), declared && declared.key === key() ? declared.page : undefined, maps);
  };
  values.provide("pageName", pageName);
  values.provide("conversionPage", () => sitePageFacts(site, where()).conversion);
  if (site === HUB_SITE) values.provide("hubEnvironment", () => sitePageFacts(site, where()).hubEnv);

  /* ---- the analytics guard ---- */
  // The variable numbers (analyticsVariables in sites/_org.yaml).
  const numbers = config.analyticsVariables;
  const shared = services.analytics;
  const inner: Analytics = { pageView: shared.pageView.bind(shared), event: shared.event.bind(shared), setVariables: shared.setVariables.bind(shared) };
  let firstView = true;
  let scheduler: ViewScheduler | undefined;
  const pageViewVariables = (): Record<string, string> => {
    let vars: Record<string, string> = {};
    const first = firstView;
    firstView = false;
    try {
      // The traffic source belongs to the page load's first view; later (SPA) views only keep the visit alive.
      if (first)
        vars = trafficVariables(win.location.href, win.document.referrer, Date.now(), {
          cookies,
          consent,
          rules: config.analyticsRules,
          apexDomain: config.apexDomain,
          names: numbers.traffic,
        });
      else cookies.set(TBM_COOKIE, cookies.get(TBM_COOKIE) || "Direct", { maxAgeSeconds: TBM_SECONDS });
      const facts = sitePageFacts(site, where());
      if (facts.conversion) vars[numbers.conversion] = facts.conversion;
      if (facts.hubEnv) vars[numbers.hubEnvironment] = facts.hubEnv;
      if (scheduler) scheduler.counted();
    } catch (e) {
      fail(e);
    }
    return vars;
  };
  const analytics = guardAnalytics(inner, {
    href: () => win.location.href,
    referrer: () => win.document.referrer,
    pageName,
    onPageView: pageViewVariables,
    onBlocked: () => log.info(TRACKING_NOT_ALLOWED),
  });
  // Loaded once, after a page view was sent with consent: its promise resolves with the edge's status, or without one
  // when it failed or was not sent (it waits while consent is pending). Refused (SDK consent out): the file is not asked
  // for and the queued clicks are dropped (they could not be sent); a page view sent later (consent given, an SPA view) asks for it.
  // Whether a click is queued follows the SDK consent at the click (below), so one flag is the whole state here.
  if (loadDeferred) {
    const pageView = analytics.pageView;
    let asked = false;
    analytics.pageView = (e) => {
      const sent = pageView(e);
      if (!asked)
        void sent.then((status) => {
          const sdk = consent.sdk();
          if (asked) return;
          if (typeof status === "number" || sdk === "in") {
            asked = true;
            guard(() => loadDeferred(arrive))();
          } else if (sdk === "out") queued.length = 0;
        });
      return sent;
    };
  }

  // Every caller holds this one object (rules, modules, boot): guard it in place.
  try {
    Object.assign(shared, analytics);
  } catch (e) {
    // A frozen client: the wiring's own beacons are still guarded; the others are not.
    fail(e);
  }

  /* ---- SPA page views ---- */
  // Not before the page load's first view (boot may still wait for the startup sequence): that one names the route then.
  scheduler = createViewScheduler(
    config.timing.spaPage,
    key,
    guard(() => void (firstView || analytics.pageView({}))),
    {
      setTimeout: (fn, ms) => win.setTimeout(fn, ms),
      clearTimeout: (handle) => win.clearTimeout(handle as number),
    },
  );
  const views = scheduler;
  if (config.site.spa && !hasRoutePageViewRule(config.rules) && win.history)
    watchRoutes(
      win,
      guard(() => views.schedule(false)),
    );

  /* ---- data-layer pushes ---- */
  const batch = createVitalsBatch((event) => void analytics.event(event), numbers.vitals);
  const searchEvent = createSearchEvents(numbers.search, names.siteSearchCode);
  const ruled = rulePushEvents(config.rules);
  dataLayer.on((push, event) => {
    // A push a site rule sends an event for is that rule's (as a link in a click rule's element): counted once.
    if (event !== "page-view" && ruled.indexOf(event as string) >= 0) return;
    if (event === "page-view") {
      declared = { key: key(), page: declaredPage(push) };
      // A push before the first page view names it (boot sends that one); a later push is a new view.
      if (!firstView) views.schedule(true);
    } else if (event === "link-click") {
      const link = pushedLinkEvent(push, config.analyticsRules, win.location.href, numbers.link);
      if (link === "no-event-code") log.warn(NO_EVENT_CODE_IN_LINK_TRACK, { linkType: push.linkType });
      else if (link) void analytics.event(link);
    } else if (event === "promo-click") {
      const promo = pushedPromoEvent(push, config.analyticsRules, win.location.href, numbers.link);
      if (promo) void analytics.event(promo);
    } else if (event === "search" || event === "quick-search") {
      const search = searchEvent(push, event === "quick-search");
      if (search) void analytics.event(search);
    } else if (event === "search-result-click") {
      const click = searchResultClickEvent(push, config.analyticsRules, win.location.href, numbers.search, numbers.link, names.siteSearchCode);
      if (click) void analytics.event(click);
    } else if (event === "web-vitals" && Array.isArray(push.metrics)) {
      batch.add((push.metrics as unknown[]).filter((m): m is VitalMetric => typeof m === "object" && m !== null));
    }
  });

  /* ---- link clicks and web vitals: the deferred file ---- */
  // One capture listener: a click before the deferred file arrives is queued (its target), handled when it does.
  // At most MAX_QUEUED_CLICKS wait: while consent stays pending the file is never asked for, and a long page must not keep every clicked node.
  // None while the SDK consent is out (refused, or a returning visitor's stored refusal): they could not be sent; a click
  // after consent is given again is queued (the file may be on its way).
  const doc = win.document;
  const queued: Array<EventTarget | null> = [];
  let onLink: ((target: EventTarget | null) => void) | undefined;
  if (typeof doc.addEventListener === "function")
    doc.addEventListener(
      "click",
      (e) => (onLink ? onLink(e.target) : consent.sdk() !== "out" && queued.length < MAX_QUEUED_CLICKS && queued.push(e.target)),
      true,
    );
  let arrived = false;
  function arrive(parts: DeferredParts): void {
    if (arrived) return;
    arrived = true;
    try {
      onLink = parts.links({
        analytics,
        names: numbers.link,
        rules: config.analyticsRules,
        apexDomain: config.apexDomain,
        pageHost: () => win.location.hostname,
        ruleSelectors: clickRuleSelectors(config.rules),
        onError: fail,
      });
      for (const target of queued.splice(0)) onLink(target);
      // PerformanceObserver with buffered: true (web-vitals) still sees what happened before it was registered.
      if (typeof (win as unknown as { PerformanceObserver?: unknown }).PerformanceObserver === "function") startVitals(win, parts.vitals, batch);
    } catch (e) {
      fail(e);
    }
  }
  return { analytics, pageName };
}

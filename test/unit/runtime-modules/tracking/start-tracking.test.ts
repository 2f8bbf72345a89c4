/**
 * The wiring over a fake window: the real data layer, logger and provided
 * values; an Analytics recorder as the shared client (guarded in place).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { BundleConfig, Rule } from "../../../../generator/config/bundle-config.js";
import { createLogger } from "../../../../runtime-modules/core/log";
import { createProvidedValues } from "../../../../runtime-modules/core/provided-values";
import type { ModuleServices } from "../../../../runtime-modules/core/types";
import { createDataLayer } from "../../../../runtime-modules/rules/data-layer";
import {
  clickRuleSelectors,
  hasRoutePageViewRule,
  rulePushEvents,
  startTracking,
  wireTracking,
  deferredLoader,
  DEFERRED_HOOK,
  MAX_QUEUED_CLICKS,
  type DeferredParts,
  type ModuleCommands,
} from "../../../../runtime-modules/tracking/start-tracking";
import { linkClickHandler } from "../../../../runtime-modules/tracking/link-clicks";
import { DEFERRED_HOOK as BUILD_DEFERRED_HOOK } from "../../../../generator/bundle/deferred.js";
import { bundleConfig } from "../helpers/config";
import { pageRules } from "../analytics/rules";
import { memoryCookies, recorder } from "./recorder";

function setup(
  url: string,
  options: {
    site?: Partial<BundleConfig["site"]>;
    rules?: Rule[];
    commands?: ModuleCommands;
    preload?: unknown[];
    referrer?: string;
    vitals?: boolean;
    /** The SDK consent (the Edge client sends a page view only on "in"; default in). */
    sdk?: { now: "pending" | "in" | "out" };
    /** The deferred file is asked for but arrives only when the test calls loads[n](parts). */
    held?: boolean;
    /** The page view was sent but not answered (a network failure): no status. */
    unanswered?: boolean;
  } = {},
) {
  const sdk = options.sdk ?? { now: "in" };
  const u = new URL(url);
  const location = { hostname: u.hostname, pathname: u.pathname, search: u.search, hash: u.hash, href: u.href };
  const winListeners: Record<string, Array<() => void>> = {};
  const docListeners: Record<string, Array<(e: unknown) => void>> = {};
  const timers: Array<{ fn: () => void; ms: number; id: number }> = [];
  let nextId = 1;
  const win: Record<string, any> = {
    location,
    document: {
      referrer: options.referrer ?? "",
      visibilityState: "visible",
      addEventListener: (t: string, fn: (e: unknown) => void) => (docListeners[t] ||= []).push(fn),
    },
    history: { pushState: () => undefined, replaceState: () => undefined },
    addEventListener: (t: string, fn: () => void) => (winListeners[t] ||= []).push(fn),
    setTimeout: (fn: () => void, ms: number) => (timers.push({ fn, ms, id: nextId }), nextId++),
    clearTimeout: (id: number) => {
      const i = timers.findIndex((t) => t.id === id);
      if (i >= 0) timers.splice(i, 1);
    },
    kiwiDataLayer: [...(options.preload ?? [])],
  };
  const go = (to: string) => {
    const n = new URL(to, location.href);
    Object.assign(location, { pathname: n.pathname, search: n.search, hash: n.hash, href: n.href });
  };
  const monitor = { emit: () => undefined };
  const log = createLogger(monitor, false);
  const bundle = bundleConfig({
    site: { code: "bigfuture", name: "BigFuture", appId: "23", spa: false, internal: false, ...options.site },
    rules: options.rules ?? [],
    pageNames: pageRules,
  });
  const values = createProvidedValues({ site: bundle.site.code });
  const dataLayer = createDataLayer(win, "kiwiDataLayer", log, monitor);
  // As the Edge client: a page view resolves with the edge's status once sent (SDK consent in), without one when refused;
  // while consent is pending it waits for the visitor's choice (decide()).
  const waiting: Array<() => void> = [];
  const answer = () => (sdk.now === "in" && !options.unanswered ? 200 : undefined);
  const rec = recorder(() => (sdk.now === "pending" ? new Promise((resolve) => waiting.push(() => resolve(answer()))) : answer()));
  const c = memoryCookies();
  const services: Omit<ModuleServices<unknown>, "config"> = {
    sampling: { rate: 100, sampledIn: () => true },
    tagFamilies: {},
    win: win as never,
    bundle,
    log,
    monitor,
    consent: { allows: () => true, whenAllowed: (_c: unknown, cb: () => void) => cb(), sdk: () => sdk.now } as never,
    cookies: c.cookies,
    page: { host: u.hostname, path: u.pathname, query: u.searchParams, hash: u.hash, referrer: "", href: u.href },
    loadScript: () => Promise.resolve(),
    values,
    dataLayer,
    analytics: rec.analytics,
  };
  const reports: Array<(m: unknown) => void> = [];
  if (options.vitals) win.PerformanceObserver = function () {};
  // The deferred file, arriving at once when the first page view has been sent (its loader is called then).
  const loads: Array<(parts: DeferredParts) => void> = [];
  const parts: DeferredParts = { vitals: (report) => void reports.push(report as never), links: linkClickHandler };
  const tracking = wireTracking(services, options.commands ?? {}, (arrive) => {
    loads.push(arrive);
    if (!options.held) arrive(parts);
  });
  return {
    win,
    go,
    services,
    tracking,
    values,
    log,
    cookies: c,
    views: () => rec.of("pageView"),
    events: () => rec.of("event"),
    /** Boot after the wiring: the pushes made before the bundle loaded, then the org page-view rule. */
    boot() {
      dataLayer.start();
      void services.analytics.pageView({});
    },
    push: (item: Record<string, unknown>) => void (win.kiwiDataLayer as unknown[]).push(item),
    /** Runs the timers that are due after ms. */
    runTimers(ms: number) {
      const due = timers.filter((x) => x.ms <= ms);
      for (const t of due) timers.splice(timers.indexOf(t), 1);
      for (const t of due) t.fn();
    },
    click: (target: unknown) => docListeners.click.forEach((fn) => fn({ target })),
    hide() {
      win.document.visibilityState = "hidden";
      docListeners.visibilitychange.forEach((fn) => fn({}));
    },
    routeListeners: () => Object.keys(winListeners),
    /** The visitor's consent choice: the page views waiting for it are sent (in) or dropped (out). */
    decide(now: "in" | "out") {
      sdk.now = now;
      for (const release of waiting.splice(0)) release();
    },
    reports,
    loads,
    parts,
    docListeners,
  };
}

afterEach(() => vi.unstubAllGlobals());

/** Lets the first page view's promise settle (the deferred file is asked for then). */
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("wireTracking", () => {
  it('provides "pageName" for every page, and the org page view (no name) gets it, with the page URLs through xdm', () => {
    const t = setup("https://bigfuture.kiwi.example/college/3f2504e0-4f89-11d3-9a0c-0305e82c3301?tab=Costs&regNo=55", {
      referrer: "https://news.example/?u=x",
    });
    expect(t.values.get("pageName")).toBe("bigfuture/college/uuid/tab=costs");
    t.boot();
    const [view] = t.views();
    expect(view.name).toBe("bigfuture/college/uuid/tab=costs");
    expect(view.xdm.web.webPageDetails.URL).toBe("https://bigfuture.kiwi.example/college/3f2504e0-4f89-11d3-9a0c-0305e82c3301?tab=Costs&regNo=[redacted]");
    expect(view.xdm.web.webReferrer.URL).toBe("https://news.example/?u=[redacted]");
    expect(view.variables).toMatchObject({ eVar81: "Referring Domains", eVar83: "news.example" });
  });
  it("the shared Analytics object is guarded in place (rules and modules hold it)", () => {
    const t = setup("https://bigfuture.kiwi.example/?personId=1");
    void t.services.analytics.event({ name: "rule event", eventType: "x", linkType: "other" });
    expect(t.events()[0].url).toBe("https://bigfuture.kiwi.example/?personId=[redacted]");
  });
  it("a page-view push before the first page view names it (no extra view); a later one is a new view after timing.spaPage", () => {
    const t = setup("https://bigfuture.kiwi.example/x", { preload: [{ event: "page-view", flowCode: "reg", pageCode: "enter-data" }] });
    t.boot();
    t.runTimers(5000);
    expect(t.views().map((v) => v.name)).toEqual(["bigfuture/reg/enter-data"]);
    t.push({ event: "page-view", errorCode: "404" });
    t.runTimers(1499);
    t.runTimers(1500);
    expect(t.views().map((v) => v.name)).toEqual(["bigfuture/reg/enter-data", "bigfuture/404errorpage"]);
  });
  it("codes belong to their route: after an SPA route change the path names the page; one view per route", () => {
    const t = setup("https://bigfuture.kiwi.example/a", { site: { spa: true }, preload: [{ event: "page-view", pageCode: "start" }] });
    t.boot();
    t.go("/b?tab=One");
    t.win.history.pushState({}, "", "/b?tab=One");
    t.runTimers(1500);
    t.go("/b?tab=One#main-content");
    t.win.history.replaceState({}, "", "/b?tab=One#main-content");
    t.runTimers(1500);
    expect(t.views().map((v) => v.name)).toEqual(["bigfuture/start", "bigfuture/b/tab=one"]);
    expect(t.views()[1].xdm.web.webReferrer.URL).toBe("https://bigfuture.kiwi.example/a");
  });
  it("a site with its own routeChange page-view rule keeps it: no route watching; non-SPA sites neither", () => {
    const rule = {
      id: "route",
      name: "r",
      order: 50,
      events: [{ type: "routeChange" }],
      conditions: [],
      actions: [{ type: "sendPageView" }],
    } as unknown as Rule;
    expect(hasRoutePageViewRule([rule])).toBe(true);
    const own = setup("https://bigfuture.kiwi.example/a", { site: { spa: true }, rules: [rule] });
    expect(own.routeListeners()).not.toContain("popstate");
    expect(setup("https://bigfuture.kiwi.example/a").routeListeners()).not.toContain("popstate");
    expect(setup("https://bigfuture.kiwi.example/a", { site: { spa: true } }).routeListeners()).toContain("popstate");
  });
  it("a module's pageName command names its pages first (the SAT funnel)", () => {
    let funnel: string | null = "satreg:newreg:start";
    const t = setup("https://bigfuture.kiwi.example/register", { commands: { satFunnel: { pageName: () => funnel, changeSteps: () => [] } } });
    expect(t.values.get("pageName")).toBe("satreg:newreg:start");
    funnel = null;
    expect(t.values.get("pageName")).toBe("bigfuture/register");
  });
  it("conversion and hub facts are provided and sent as page-view variables", () => {
    const hub = setup("https://kiwihub.kiwi.example/embed-prod/pages", { site: { code: "kiwihub" } });
    expect(hub.values.get("hubEnvironment")).toBe("prod");
    hub.boot();
    expect(hub.views()[0]).toMatchObject({ name: "kiwihub/pages", variables: { prop81: "prod" } });
    const signup = setup("https://signup.kiwi.example/iamweb/secure/thankYou", { site: { code: "signup" } });
    expect(signup.values.get("conversionPage")).toBe("registration");
    signup.boot();
    expect(signup.views()[0].variables).toMatchObject({ eVar92: "registration" });
  });
  it("link clicks through the delegated listener; a link-click push; a promo-click push; web vitals sent when hidden", async () => {
    const t = setup("https://bigfuture.kiwi.example/", { vitals: true });
    t.boot();
    await flush();
    const a = { href: "https://bigfuture.kiwi.example/guide.pdf", textContent: "Guide", dataset: {}, getAttribute: () => null, closest: () => null };
    t.click({ closest: (s: string) => (s === "a[href],area[href]" ? a : null) });
    t.push({ event: "link-click", linkType: "feature", linkName: "Compare", hasData: true });
    t.push({ event: "link-click", linkType: "feature", linkName: "Compare", hasData: true, eventCode: "event7" });
    t.push({ event: "promo-click", name: "tnt:spring-sat-reminder", destination: "https://satsuite.kiwi.example/register" });
    t.push({ event: "web-vitals", metrics: [{ name: "CLS", rating: "good", navigationType: "navigate", delta: 0.02 }] });
    t.reports.forEach((report) => report({ name: "LCP", value: 1200, delta: 1200.2, rating: "good", navigationType: "navigate" }));
    t.hide();
    expect(t.events().map((e) => [e.name, e.linkType, e.eventType])).toEqual([
      ["guide", "download", "web.webinteraction.linkClicks"],
      ["compare", "other", "web.webinteraction.linkClicks"],
      ["tnt-spring-sat-reminder", "other", "web.webinteraction.linkClicks"],
      ["web vitals", "other", "kiwi.webVitals"],
    ]);
    expect(t.events()[2]).toMatchObject({ url: "https://satsuite.kiwi.example/register", variables: { prop82: "promo", prop85: "tnt" } });
    expect(t.events()[3].variables).toEqual({ eVar94: "CLS:good:navigate:20|LCP:good:navigate:1200" });
    expect(t.log.entries.map((e) => e.message)).toContain("no event code found in link track payload");
  });
  it('search pushes: "Duplicate identical searches suppressed"; "Internal search without term: skipped"; a quick search; a search-result click', () => {
    const t = setup("https://bigfuture.kiwi.example/search", { preload: [{ event: "search", term: " SAT  Dates ", type: "site", count: 12 }] });
    t.boot();
    t.push({ event: "search", term: "SAT Dates", type: "site", count: 12 }); // the same search again
    t.push({ event: "search", type: "college" }); // no term field
    t.push({ event: "search", term: "nursing", type: "college", count: 0, facet: "major|location" });
    t.push({ event: "quick-search", term: "UCLA", type: "quick-college" });
    t.push({ event: "quick-search", term: " " });
    t.push({ event: "search-result-click", destination: "/colleges/kiwi", searchData: { term: "Kiwi", type: "college", strFacet: "location" } });
    t.push({ event: "search", term: "SAT Dates", type: "site", count: 12 }); // after another search: counted again
    expect(t.events().map((e) => [e.name, e.eventType, e.variables?.events])).toEqual([
      ["internal search", "kiwi.internalSearch", "event3"],
      ["internal search", "kiwi.internalSearch", "event4"],
      ["quick search", "kiwi.quickSearch", "event4"],
      ["kiwi", "web.webinteraction.linkClicks", undefined],
      ["internal search", "kiwi.internalSearch", "event3"],
    ]);
    expect(t.events()[0].variables).toEqual({ eVar5: "sat dates", eVar6: "site", events: "event3", eVar96: "SAT Dates", prop86: "12" });
    expect(t.events()[1].variables).toEqual({
      eVar5: "null:nursing",
      eVar6: "college",
      events: "event4",
      eVar95: "major|location",
      eVar96: "nursing",
      prop86: "0",
      prop88: "true",
      prop89: "true",
    });
    expect(t.events()[2].variables).toEqual({ eVar5: "ucla", eVar6: "quick-college", events: "event4", prop88: "true" });
    expect(t.events()[3]).toMatchObject({
      url: "https://bigfuture.kiwi.example/colleges/kiwi",
      variables: { prop82: "searchResult", eVar5: "kiwi", eVar6: "college", eVar95: "location", prop88: "true" },
    });
  });
  it("a push a site rule sends an event for is left to that rule (counted once); a rule that only sets variables does not take it", () => {
    const rules = [
      { id: "own-search", events: [{ type: "dataLayerPush", event: "search" }], actions: [{ type: "sendEvent", name: "s", eventType: "x" }] },
      { id: "promo-vars", events: [{ type: "dataLayerPush", event: "promo-click" }], actions: [{ type: "setVariables", variables: { eVar1: "x" } }] },
    ] as unknown as Rule[];
    expect(rulePushEvents(rules)).toEqual(["search"]);
    const t = setup("https://bigfuture.kiwi.example/", { rules });
    t.boot();
    t.push({ event: "search", term: "nursing" });
    t.push({ event: "promo-click", name: "spring" });
    expect(t.events().map((e) => e.name)).toEqual(["spring"]);
  });
  it("an at-sign in the address: nothing is sent, logged once", () => {
    const t = setup("https://bigfuture.kiwi.example/?email=kid@mail.example");
    t.boot();
    void t.services.analytics.event({ name: "e", eventType: "x", linkType: "other" });
    expect(t.views()).toEqual([]);
    expect(t.events()).toEqual([]);
    expect(t.log.entries.filter((e) => e.message === "tracking not allowed: the page address contains an at-sign")).toHaveLength(1);
    expect(t.cookies.writes).toEqual([]);
  });
  it("clickRuleSelectors", () => {
    const rules = [
      { events: [{ type: "click", selector: "a[data-promo]" }, { type: "libraryLoaded" }] },
      { events: [{ type: "click", selector: ".x" }] },
    ] as unknown as Rule[];
    expect(clickRuleSelectors(rules)).toEqual(["a[data-promo]", ".x"]);
  });
});

// Split task (#21): the deferred file carries web vitals and the link-click handler; the first file queues clicks until it arrives.
describe("the deferred file (issue #21: the first page pays only for the first page)", () => {
  const pdf = { href: "https://bigfuture.kiwi.example/guide.pdf", textContent: "Guide", dataset: {}, getAttribute: () => null, closest: () => null };
  const onPdf = { closest: (s: string) => (s === "a[href],area[href]" ? pdf : null) };
  it('"A click before it arrives is queued and not lost": asked for once, after the first page view; the queued click sent on arrival, later clicks at once', async () => {
    const t = setup("https://bigfuture.kiwi.example/", { vitals: true });
    expect(t.loads).toHaveLength(0);
    t.click(onPdf); // before the page view: queued
    expect(t.events()).toHaveLength(0);
    expect(t.docListeners.click).toHaveLength(1);
    t.boot();
    await flush();
    expect(t.loads).toHaveLength(1);
    expect(t.events().map((e) => e.name)).toEqual(["guide"]);
    t.click(onPdf);
    expect(t.events().map((e) => e.name)).toEqual(["guide", "guide"]);
    // Later page views (SPA routes) ask for nothing again; a second arrival changes nothing.
    void t.services.analytics.pageView({});
    await flush();
    t.loads[0](t.parts);
    t.click(onPdf);
    expect(t.loads).toHaveLength(1);
    expect(t.events()).toHaveLength(3);
    expect(t.docListeners.click).toHaveLength(1);
    expect(t.reports).toHaveLength(1);
  });
  it("at most MAX_QUEUED_CLICKS clicks wait for it (consent may stay pending and the file never come): the first ones are sent on arrival", async () => {
    const t = setup("https://bigfuture.kiwi.example/", { vitals: true });
    for (let i = 0; i < MAX_QUEUED_CLICKS + 10; i++) t.click(onPdf);
    t.boot();
    await flush();
    expect(t.events()).toHaveLength(MAX_QUEUED_CLICKS);
    t.click(onPdf);
    expect(t.events()).toHaveLength(MAX_QUEUED_CLICKS + 1);
  });
  it("the loader: relative to the first file's own src, with integrity and crossorigin; a failed load logged, not thrown; no src: logged", async () => {
    const calls: Array<[string, unknown]> = [];
    const logged: unknown[][] = [];
    const log = { error: (...a: unknown[]) => void logged.push(a) } as never;
    const win: Record<string | symbol, any> = {
      document: { readyState: "complete", currentScript: { src: "https://cdn.kiwi.example/prod/bigfuture/sitetags.min.js" } },
    };
    const file = { file: "sitetags.defer.0123456789.min.js", integrity: "sha384-x" };
    const failing = (src: string, o: unknown) => (calls.push([src, o]), Promise.reject(new Error("404")));
    const arrive = vi.fn();
    deferredLoader({ win: win as never, loadScript: failing, log }, file)(arrive);
    expect(calls).toEqual([
      ["https://cdn.kiwi.example/prod/bigfuture/sitetags.defer.0123456789.min.js", { attributes: { integrity: "sha384-x", crossorigin: "anonymous" } }],
    ]);
    await flush();
    expect(logged[0][0]).toBe("script embedding failed");
    // The deferred file calls the hook; the hook is gone after.
    win[Symbol.for(DEFERRED_HOOK)]({ vitals: () => undefined, links: linkClickHandler });
    expect(arrive).toHaveBeenCalledTimes(1);
    expect(win[Symbol.for(DEFERRED_HOOK)]).toBeUndefined();
    expect(BUILD_DEFERRED_HOOK).toBe(DEFERRED_HOOK);
    const inline = { document: { currentScript: null } };
    deferredLoader({ win: inline as never, loadScript: failing, log }, file)(arrive);
    expect(logged).toHaveLength(2);
    expect(calls).toHaveLength(1);
  });
  it("the loader inserts it after the window's load event (a script inserted before it holds that event; the file is not critical): at once once the document is complete", () => {
    const calls: string[] = [];
    const onLoad: Array<() => void> = [];
    const document = { readyState: "interactive", currentScript: { src: "https://cdn.kiwi.example/prod/bigfuture/sitetags.min.js" } };
    const win = { document, addEventListener: (type: string, fn: () => void) => type === "load" && onLoad.push(fn) };
    const loadScript = (src: string) => (calls.push(src), Promise.resolve());
    const log = { error: () => undefined } as never;
    const file = { file: "sitetags.defer.0123456789.min.js", integrity: "sha384-x" };
    deferredLoader({ win: win as never, loadScript, log }, file)(() => undefined);
    expect(calls).toEqual([]);
    expect(onLoad).toHaveLength(1);
    document.readyState = "complete";
    onLoad[0]();
    expect(calls).toEqual(["https://cdn.kiwi.example/prod/bigfuture/sitetags.defer.0123456789.min.js"]);
  });
  it("asked for only once a page view was sent with consent: consent given later in the page asks for it then; a refusal never, and the queued clicks are dropped", async () => {
    // Pending: the Edge client holds the page view (its promise waits); consent given later, it is sent, and the file asked for then.
    const later = setup("https://bigfuture.kiwi.example/", { sdk: { now: "pending" } });
    later.click(onPdf);
    later.boot();
    await flush();
    expect(later.loads).toHaveLength(0);
    later.decide("in");
    await flush();
    expect(later.loads).toHaveLength(1);
    expect(later.events().map((e) => e.name)).toEqual(["guide"]);
    // Pending, then refused: never asked for; the queued click is dropped, later clicks are not kept.
    const denied = setup("https://bigfuture.kiwi.example/", { sdk: { now: "pending" } });
    denied.click(onPdf);
    denied.boot();
    denied.decide("out");
    await flush();
    denied.click(onPdf);
    expect(denied.loads).toHaveLength(0);

    // Refused: the page view resolves without a status; nothing is asked for, the queued click and later ones are dropped.
    const sdk = { now: "out" as "out" | "in" };
    const refused = setup("https://bigfuture.kiwi.example/", { sdk });
    refused.click(onPdf);
    refused.boot();
    await flush();
    refused.click(onPdf);
    expect(refused.loads).toHaveLength(0);
    // A page view sent later in the page (consent given, an SPA view) asks for it: the dropped clicks stay dropped, new ones go.
    sdk.now = "in";
    void refused.services.analytics.pageView({});
    await flush();
    expect(refused.loads).toHaveLength(1);
    expect(refused.events()).toHaveLength(0);
    refused.click(onPdf);
    expect(refused.events().map((e) => e.name)).toEqual(["guide"]);
    // Refused, then given: a click while the file is on its way is queued again (not dropped as under the refusal).
    const late = { now: "out" as "out" | "in" };
    const regiven = setup("https://bigfuture.kiwi.example/", { sdk: late, held: true });
    regiven.boot();
    await flush();
    regiven.click(onPdf);
    late.now = "in";
    void regiven.services.analytics.pageView({});
    await flush();
    expect(regiven.loads).toHaveLength(1);
    regiven.click(onPdf);
    regiven.loads[0](regiven.parts);
    expect(regiven.events().map((e) => e.name)).toEqual(["guide"]);
    // Sent with consent but not answered (a network failure): asked for all the same, the queued click sent on arrival.
    const failed = setup("https://bigfuture.kiwi.example/", { unanswered: true });
    failed.click(onPdf);
    failed.boot();
    await flush();
    expect(failed.loads).toHaveLength(1);
    expect(failed.events().map((e) => e.name)).toEqual(["guide"]);
  });
  it("a returning visitor's stored refusal queues no click: nothing could be sent, and consent given before the page view does not send it", async () => {
    // SDK consent out from the start (the stored refusal): the click is not queued.
    const stored = { now: "out" as "out" | "in" };
    const storedOut = setup("https://bigfuture.kiwi.example/", { sdk: stored });
    storedOut.click(onPdf);
    stored.now = "in";
    storedOut.boot();
    await flush();
    expect(storedOut.loads).toHaveLength(1);
    expect(storedOut.events()).toHaveLength(0);
    storedOut.click(onPdf);
    expect(storedOut.events().map((e) => e.name)).toEqual(["guide"]);
  });
});

describe("startTracking", () => {
  it("never throws: a failure is logged", () => {
    vi.stubGlobal("window", undefined);
    const log = { error: vi.fn() };
    expect(() => startTracking({ log } as never)).not.toThrow();
    expect(log.error).toHaveBeenCalledWith("tracking failed", expect.any(String));
  });
});

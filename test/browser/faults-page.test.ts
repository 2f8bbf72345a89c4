/**
 * The fault matrix, around the bundle (issue #22, the page; docs/runtime.md
 * "Faults"): third parties (the consent banner), storage, the page itself, a
 * throwing module or rule action, a tag waiting for consent. Production
 * bundles of the shipped catalogue (prod/bigfuture, prod/satreg) in
 * Chromium. Records are search pushes with their own terms, counted at the
 * mock edge by requestId. Each fault ends with no uncaught page error from
 * the bundle and each record as docs/runtime.md promises.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  buildBundles,
  CONSENT,
  settle,
  useBrowserHarness,
  type Bundle,
  type PageOptions,
  type TestPage,
  trustTestCertificateForBeacons,
} from "./harness/index.js";

const h = useBrowserHarness();
const PAGE = "https://bigfuture.kiwi.example/colleges";
const EDGE = "edge.kiwi.example";
const BANNER = "https://cdn.consentbanner.example/scripttemplates/otSDKStub.js";

let b: Record<"bigfuture" | "satreg", Bundle>;
beforeAll(async () => {
  await trustTestCertificateForBeacons(h);
  b = await buildBundles({ bigfuture: ["bigfuture", "prod"], satreg: ["satreg", "prod"] });
}, 240_000);

const events = () => h.web.find((r) => r.host === EDGE && r.method === "POST" && /\/v1\/(interact|collect)$/.test(r.path));
const views = () => events().filter((r) => (r.json as any)?.events?.[0]?.xdm?.eventType === "web.webpagedetails.pageViews");
function record(term: string) {
  const requests = events().filter((r) => r.body.includes(`"${term}"`) || r.body.includes(`:${term}"`));
  return { ids: new Set(requests.map((r) => r.query.requestId)).size, accepted: requests.some((r) => (r.status ?? 0) >= 200 && (r.status ?? 0) < 300) };
}
const ONCE = { ids: 1, accepted: true };
/** Uncaught errors thrown by the bundle (a third party's own errors are not the bundle's). */
const bundleErrors = (tab: TestPage) =>
  tab.pageErrors.filter((e) => /sitetags|cdn\.kiwi\.example/.test(String(e.stack)) || !/consentbanner/.test(String(e.stack)));
const logs = async (tab: TestPage, level?: string) => (await tab.logEntries()).filter((e) => !level || e.level === level).map((e) => String(e.message));

async function push(tab: TestPage, terms: string[]): Promise<void> {
  await tab.page.evaluate((ts) => {
    const dl = ((window as any).kiwiDataLayer = (window as any).kiwiDataLayer || []);
    for (const term of ts) dl.push({ event: "search", term, type: "college", count: 3, hasData: true });
  }, terms);
}
/** Opens prod/bigfuture with a fault, pushes records, and expects the page view and each record delivered once. */
async function deliveredOnce(tag: string, options: { initScripts?: string[]; page?: PageOptions; leave?: boolean } = {}): Promise<TestPage> {
  const tab = await h.browser.openPage(h.web.page(PAGE, { bundle: b.bigfuture, ...options.page }), {
    consentGroups: CONSENT.all,
    initScripts: options.initScripts,
  });
  const terms = [`${tag}a`, `${tag}b`];
  await push(tab, terms);
  if (options.leave) await tab.page.goto("about:blank");
  await expect.poll(() => terms.map(record), { timeout: 8000 }).toEqual([ONCE, ONCE]);
  // The page view too, once (on a loaded machine it may still be on its way when the records are in).
  await expect.poll(() => new Set(views().map((r) => r.query.requestId)).size, { timeout: 8000 }).toBe(1);
  await settle(200);
  expect(new Set(views().map((r) => r.query.requestId)).size).toBe(1);
  expect(bundleErrors(tab)).toEqual([]);
  return tab;
}

describe("third parties: the consent banner", () => {
  const noBanner = async (override: Parameters<typeof h.web.script>[1]) => {
    h.web.script(BANNER, override);
    const tab = await h.browser.openPage(h.web.page(PAGE, { bundle: b.bigfuture }), { waitUntil: "domcontentloaded" });
    await push(tab, ["bannera"]);
    return tab;
  };
  for (const [name, override] of [
    ["never loads (no answer)", { delayMs: 60_000 }],
    ["404s", { status: 404 }],
    ["throws", { body: "throw new Error('the banner broke');" }],
  ] as const) {
    it(`${name}: records queue (consent pending), the startup goes on after 4500 ms, nothing is sent without consent`, async () => {
      const tab = await noBanner(override);
      await tab.waitForMonitor({ type: "log", message: "consent banner did not answer in time" }, { timeoutMs: 7000 });
      await settle(300);
      expect(events()).toEqual([]);
      expect(await logs(tab)).toContain("Consent is pending.");
      expect(bundleErrors(tab)).toEqual([]);
    });
  }
  it("loads late (after 10 s) and reports consent: the queued page view and records are delivered once each", async () => {
    h.web.script(BANNER, {
      delayMs: 10_000,
      body: "window.OnetrustActiveGroups = ',C0001,C0002,C0003,C0004,'; window.OptanonWrapper && window.OptanonWrapper();",
    });
    const tab = await h.browser.openPage(h.web.page(PAGE, { bundle: b.bigfuture }), { waitUntil: "domcontentloaded" });
    await push(tab, ["latea", "lateb"]);
    await settle(2000);
    expect(events()).toEqual([]);
    await expect.poll(() => ["latea", "lateb"].map(record), { timeout: 15_000 }).toEqual([ONCE, ONCE]);
    expect(new Set(views().map((r) => r.query.requestId)).size).toBe(1);
    expect(bundleErrors(tab)).toEqual([]);
  }, 30_000);
});

describe("storage", () => {
  it("cookies disabled (document.cookie reads nothing, writes nothing): every record delivered once", async () => {
    await deliveredOnce("nocookie", {
      initScripts: [
        "Object.defineProperty(Document.prototype, 'cookie', { get: function () { return ''; }, set: function () {}, configurable: true }); Object.defineProperty(Navigator.prototype, 'cookieEnabled', { get: function () { return false; } });",
      ],
    });
  });
  const throwing = (store: string, name: string) =>
    `Object.defineProperty(window, '${store}', { get: function () { throw new DOMException('denied', '${name}'); }, configurable: true });`;
  it("localStorage throws SecurityError on access: every record delivered once", async () => {
    await deliveredOnce("nolocal", { initScripts: [throwing("localStorage", "SecurityError")] });
  });
  it("sessionStorage throws SecurityError on access: every record delivered once", async () => {
    await deliveredOnce("nosession", { initScripts: [throwing("sessionStorage", "SecurityError")] });
  });
  it("both storages are full (setItem throws QuotaExceededError): every record delivered once", async () => {
    await deliveredOnce("quota", { initScripts: ["Storage.prototype.setItem = function () { throw new DOMException('full', 'QuotaExceededError'); };"] });
  });
});

describe("the page itself", () => {
  it("replaces fetch with a throwing function: each request is dropped with a log line (Network request failed.), nothing thrown", async () => {
    const tab = await h.browser.openPage(h.web.page(PAGE, { bundle: b.bigfuture }), {
      consentGroups: CONSENT.all,
      initScripts: ["window.fetch = function () { throw new TypeError('fetch blocked by the page'); };"],
    });
    await push(tab, ["nofetcha"]);
    await expect.poll(() => logs(tab, "warn"), { timeout: 5000 }).toContain("Network request failed.");
    expect(events()).toEqual([]);
    expect(bundleErrors(tab)).toEqual([]);
  });
  it("replaces navigator.sendBeacon with a throwing function: at unload the client falls back to fetch (keepalive); every record delivered once", async () => {
    await deliveredOnce("nobeacon", {
      leave: true,
      initScripts: ["navigator.sendBeacon = function () { throw new TypeError('beacon blocked by the page'); };"],
    });
  });
  it("freezes Object.prototype before the bundle: every record delivered once", async () => {
    await deliveredOnce("frozen", { initScripts: ["Object.freeze(Object.prototype);"] });
  });
  it("defines window.define (AMD): the bundle ignores it; every record delivered once", async () => {
    await deliveredOnce("amd", { initScripts: ["window.define = function () { throw new Error('define called'); }; window.define.amd = {};"] });
  });
  it("has a global named like ours (window.sitetags): the bundle still runs and leaves it alone; every record delivered once", async () => {
    const tab = await deliveredOnce("ours", { initScripts: ["window.sitetags = { mine: true };"] });
    expect(await tab.page.evaluate(() => (window as any).sitetags)).toEqual({ mine: true });
  });
  it("loads the bundle twice: the second copy logs already loaded and stops; nothing is sent twice", async () => {
    const src = h.web.serveBundle(b.bigfuture);
    const tab = await deliveredOnce("twice", { page: { body: `<script src="${src}"></script>` } });
    expect(await logs(tab, "warn")).toContain("already loaded on this page");
  });
  it("pushes 100,000 events before the bundle loads (page-view pushes naming the first view, and searches): all processed in order at start, one page view, the records among them delivered once, the array trimmed", async () => {
    const before =
      "var dl = window.kiwiDataLayer = []; for (var i = 0; i < 100000; i++) dl.push(i % 25000 === 0 ? { event: 'search', term: 'pre' + i, type: 'college', count: 1, hasData: true } : { event: 'page-view', pageCode: 'p' + (i % 7) });";
    // The harness's own monitor (a JSON copy of every runtime event) would be most of the cost: off here.
    const tab = await deliveredOnce("hundredk", { page: { before: [before] }, initScripts: ["window.__sitetagsMonitors = [];"] });
    await expect.poll(() => [0, 25000, 50000, 75000].map((i) => record(`pre${i}`)), { timeout: 8000 }).toEqual([ONCE, ONCE, ONCE, ONCE]);
    expect(await tab.page.evaluate(() => (window as any).kiwiDataLayer.length)).toBeLessThanOrEqual(110);
  });
});

describe("a throwing module or rule action (prod/satreg, the payment confirmation)", () => {
  const confirmation = (order: string) =>
    h.web.page("https://satreg.kiwi.example/register/paymentConfirmation", { bundle: b.satreg, dataLayer: [{ order: { id: order } }] });
  it("the pixel action throws (the page broke image src): logged as a failed action, the page view with the purchase delivered once, nothing thrown", async () => {
    const sabotage =
      "var set = Element.prototype.setAttribute; Element.prototype.setAttribute = function (n, v) { if (n === 'src' && String(v).indexOf('adpartner') >= 0) throw new Error('pixel sabotaged'); return set.apply(this, arguments); };";
    const tab = await h.browser.openPage(confirmation("SR9001"), { consentGroups: CONSENT.all, initScripts: [sabotage] });
    await expect.poll(() => views().length, { timeout: 8000 }).toBe(1);
    await expect.poll(() => logs(tab, "error"), { timeout: 5000 }).toContain("rule action failed");
    expect((views()[0].json as any).events[0].data.__adobe.analytics).toMatchObject({ events: "purchase", eVar30: "SR9001" });
    expect(h.web.find({ host: "pixel.adpartner.example" })).toEqual([]);
    expect(bundleErrors(tab)).toEqual([]);
  });
  it("a module throws while it starts (the survey's script loader broken by the page): logged, the others start, records delivered once", async () => {
    const sabotage =
      "document.createElement = (function (create) { return function (t) { if (String(t).toLowerCase() === 'script' && !window.__allowScript) throw new Error('scripts sabotaged'); return create.apply(this, arguments); }; })(document.createElement);";
    const tab = await deliveredOnce("modthrow", { initScripts: [sabotage] });
    expect((await tab.logEntries()).some((e) => e.level === "error" || e.level === "warn")).toBe(true);
  });

  it('"A tag waiting for consent is not an error": the payment pixel without marketing consent logs at debug level, then fires once after a late grant', async () => {
    const tab = await h.browser.openPage(confirmation("SR9002"), { consentGroups: CONSENT.performance });
    await expect.poll(() => views().length, { timeout: 8000 }).toBe(1);
    await tab.waitForMonitor({ type: "log", message: "a tag action is waiting for consent past its limit" }, { timeoutMs: 5000 });
    expect((await tab.logEntries()).filter((e) => e.level === "error")).toEqual([]);
    expect(h.web.find({ host: "pixel.adpartner.example" })).toEqual([]);
    await tab.setConsent(CONSENT.all);
    await h.web.waitForRequest({ host: "pixel.adpartner.example" });
    await settle(500);
    expect(h.web.find({ host: "pixel.adpartner.example" }).map((r) => r.query.order)).toEqual(["SR9002"]);
    expect(bundleErrors(tab)).toEqual([]);
  });
});

/**
 * The declared tags (issue 20) in Chromium, at the network level, against
 * the shipped catalogue's QA bundles (newsroom: monitoring and functional
 * tags; landing: marketing tags; k12admin: an internal site) and one
 * test-made site with a tag of every category and a window-loaded one. Every
 * vendor is a fictional host of the local web; each request is recorded.
 *
 * The consent matrix: every declared tag x its category x the visitor's
 * consent (no answer, pre-opt-in, each category alone, all, GPC, a late
 * grant, a withdrawal, cb-disable-{code}) x its lifecycle point (performance
 * tags inserted while the document is still loading, page top; the others
 * once it is not, DOM ready; window-loaded ones once it is complete).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { ResolvedTag } from "../../generator/config/bundle-config.js";
import { sampledIn } from "../../runtime-modules/identity/sampling";
import {
  buildBundles,
  CONSENT_CATEGORIES,
  groupsFor,
  settle,
  tempCatalogue,
  useBrowserHarness,
  type Bundle,
  type ConsentCategoryName,
  type RecordedRequest,
  type TestPage,
} from "./harness/index.js";

const h = useBrowserHarness();

const CATEGORIES = CONSENT_CATEGORIES;
type Category = ConsentCategoryName;

/** One tag of each category, each kind, a window-loaded one, and one excluded by its own app id list. */
const LAB = `code: taglab
name: Tag lab
appId: "777"
hosts:
  qa: [taglab-qa.kiwi.example]
tags:
  lab-perf: { category: performance, script: { default: https://perf.labvendor.example/p.js } }
  lab-func: { category: functional, iframe: { default: https://func.labvendor.example/f.html } }
  lab-mkt: { category: marketing, pixel: { default: "https://mkt.labvendor.example/m.gif?x=1" }, queue: { global: labQueue } }
  lab-pfunc: { category: programFunctional, script: { default: https://pfunc.labvendor.example/pf.js } }
  lab-pmkt: { category: programMarketing, script: { default: https://pmkt.labvendor.example/pm.js } }
  lab-late: { category: performance, lifecycle: windowLoaded, script: { default: https://late.labvendor.example/l.js } }
  lab-excluded: { category: performance, excludeAppIds: ["777"], script: { default: https://excluded.labvendor.example/x.js } }
`;

/** Records, in the page, each element with a src inserted and the document's readyState then. */
const INSERTIONS = `window.__inserted = [];
new MutationObserver(function (records) {
  records.forEach(function (r) {
    r.addedNodes.forEach(function (n) {
      if (n.nodeType === 1 && n.getAttribute && n.getAttribute("src")) window.__inserted.push({ src: n.getAttribute("src"), readyState: document.readyState });
    });
  });
}).observe(document, { childList: true, subtree: true });`;

/** The catalogue's chat-flow popup with a route pattern and a click trigger (newsroom's QA bundle has the defaults: every path, exit intent). */
const CHAT_LAB = `code: chatlab
name: Chat-flow lab
appId: "778"
hosts:
  qa: [chatlab-qa.kiwi.example]
# A lab with the tags and chat-flow modules and the qa data-layer checks: more than a site carries.
budget:
  gzipBytes: 40000
tags:
  chat-flow: { enabled: true, chatFlow: { flowId: lab-flow, routePattern: "^/scores", trigger: click, selector: "#help" } }
`;

let b: Record<"lab" | "monitoring" | "marketing" | "internal" | "chatLab", Bundle>;
beforeAll(async () => {
  b = await buildBundles(
    { lab: ["taglab", "qa"], monitoring: ["newsroom", "qa"], marketing: ["landing", "qa"], internal: ["k12admin", "qa"], chatLab: ["chatlab", "qa"] },
    {
      sitesDir: tempCatalogue({ "taglab.yaml": LAB, "chatlab.yaml": CHAT_LAB, "newsroom.yaml": true, "landing.yaml": true, "k12admin.yaml": true }),
    },
  );
}, 240_000);

const tagsOf = (bundle: Bundle): ResolvedTag[] => bundle.config.modules.tags?.tags ?? [];
const hostOf = (tag: ResolvedTag) => new URL(tag.src).host;
const pathOf = (tag: ResolvedTag) => new URL(tag.src).pathname;
/** How many times each declared tag's URL was requested. */
function requests(bundle: Bundle): Record<string, number> {
  const out: Record<string, number> = {};
  for (const tag of tagsOf(bundle)) out[tag.code] = h.web.find({ host: hostOf(tag), path: pathOf(tag) }).length;
  return out;
}
const loaded = (bundle: Bundle) =>
  Object.entries(requests(bundle))
    .filter(([, n]) => n > 0)
    .map(([code]) => code)
    .sort();

/** What the spec allows: the category granted (internal: all), marketing not under GPC, not excluded by the tag's own app ids, the beacon only on its hosts. */
function expected(bundle: Bundle, granted: readonly Category[], options: { gpc?: boolean; disabled?: string } = {}): string[] {
  return tagsOf(bundle)
    .filter((t) => bundle.config.site.internal || granted.includes(t.category))
    .filter((t) => !(options.gpc && t.category === "marketing"))
    .filter((t) => !(t.excludeAppIds ?? []).includes(bundle.config.site.appId))
    .filter((t) => t.code !== options.disabled)
    .map((t) => t.code)
    .sort();
}

/**
 * A visitor sampled in at any rate of 1 or more (docs/identity.md, "Sampling"): the sampled monitoring tag (rum, qa rate 1) is then
 * decided by consent alone, as this file's matrix expects. test/browser/sampling.test.ts covers the sampled-out visitor.
 */
const SAMPLED_IN = Array.from({ length: 1000 }, (_, i) => (1e9 + i * 7919).toString(36)).find((id) => sampledIn(id, 1))!;
const SAMPLED_IN_COOKIE = `document.cookie = "kiwi_sampling=${SAMPLED_IN}; path=/; max-age=600";`;

async function open(bundle: Bundle, options: { groups?: string; query?: string; initScripts?: string[]; newVisitor?: boolean } = {}): Promise<TestPage> {
  const url = h.web.page(`https://${bundle.site}-qa.kiwi.example/page`, { bundle }) + (options.query ?? "");
  const visitor = options.newVisitor ? [] : [SAMPLED_IN_COOKIE];
  const tab = await h.browser.openPage(url, { consentGroups: options.groups, initScripts: [INSERTIONS, ...visitor, ...(options.initScripts ?? [])] });
  await tab.waitForMonitor({ type: "boot", site: bundle.site });
  return tab;
}

/** Every tag is decided (allowed, waiting, blocked or skipped), every allowed one requested; then a pause in which a wrong one would have been. */
async function settled(tab: TestPage, bundle: Bundle, allowed: readonly string[]): Promise<void> {
  await tab.page.waitForFunction(() => document.readyState === "complete");
  for (const tag of tagsOf(bundle)) await tab.waitForMonitor({ type: "tag", tag: tag.code });
  for (const tag of tagsOf(bundle)) if (allowed.includes(tag.code)) await h.web.waitForRequest({ host: hostOf(tag), path: pathOf(tag) }, { timeoutMs: 8000 });
  await settle(400);
}

/** "Performance tags ... at page top; functional, program and marketing tags at DOM ready"; window-loaded ones at load. */
async function expectLifecycles(tab: TestPage, bundle: Bundle) {
  const inserted = (await tab.page.evaluate(() => (window as any).__inserted)) as Array<{ src: string; readyState: string }>;
  for (const tag of tagsOf(bundle)) {
    const at = inserted.filter((i) => i.src === tag.src);
    if (!at.length) continue;
    expect(at, `${tag.code} inserted once`).toHaveLength(1);
    if (tag.lifecycle === "pageTop") expect(at[0].readyState, tag.code).toBe("loading");
    if (tag.lifecycle === "domReady") expect(at[0].readyState, tag.code).not.toBe("loading");
    if (tag.lifecycle === "windowLoaded") expect(at[0].readyState, tag.code).toBe("complete");
  }
}

const BUNDLES = ["lab", "monitoring", "marketing"] as const;
const STATES: Array<[string, Category[]]> = [
  ["pre-opt-in (necessary only)", []],
  ...CATEGORIES.map((c): [string, Category[]] => [`${c} alone`, [c]]),
  ["everything", [...CATEGORIES]],
];

describe('"a tag runs only if consent for its category is given", at its lifecycle point, once per page', () => {
  for (const name of BUNDLES) {
    it.each(STATES)(`${name}: consent %s`, async (_, granted) => {
      const bundle = b[name];
      const want = expected(bundle, granted);
      const tab = await open(bundle, { groups: groupsFor(granted) });
      await settled(tab, bundle, want);
      expect(loaded(bundle)).toEqual(want);
      for (const n of Object.values(requests(bundle))) expect(n).toBeLessThanOrEqual(1);
      await expectLifecycles(tab, bundle);
    });

    it(`${name}: no answer from the banner: nothing at all`, async () => {
      const bundle = b[name];
      const tab = await open(bundle);
      await settled(tab, bundle, []);
      expect(loaded(bundle)).toEqual([]);
    });

    it(`${name}: "A browser global-privacy signal blocks marketing tags" (program categories skip the later checks)`, async () => {
      const bundle = b[name];
      const want = expected(bundle, CATEGORIES, { gpc: true });
      const tab = await open(bundle, {
        groups: groupsFor(CATEGORIES),
        initScripts: ["Object.defineProperty(navigator, 'globalPrivacyControl', { get: function () { return true; } })"],
      });
      await settled(tab, bundle, want);
      expect(loaded(bundle)).toEqual(want);
    });

    it(`${name}: a late grant loads each allowed tag then, exactly once; a second report loads nothing more`, async () => {
      const bundle = b[name];
      const tab = await open(bundle);
      await settled(tab, bundle, []);
      expect(loaded(bundle)).toEqual([]);
      const want = expected(bundle, CATEGORIES);
      await tab.setConsent(groupsFor(CATEGORIES), { via: "event" });
      await settled(tab, bundle, want);
      await tab.setConsent(groupsFor(CATEGORIES), { via: "OptanonWrapper" });
      await settle(300);
      expect(requests(bundle)).toEqual(Object.fromEntries(tagsOf(bundle).map((t) => [t.code, want.includes(t.code) ? 1 : 0])));
    });

    it(`${name}: after a withdrawal nothing more loads, and a grant again loads nothing twice`, async () => {
      const bundle = b[name];
      const first = expected(bundle, ["performance"]);
      const tab = await open(bundle, { groups: groupsFor(["performance"]) });
      await settled(tab, bundle, first);
      await tab.setConsent(groupsFor([]), { via: "event" });
      await settle(300);
      expect(loaded(bundle)).toEqual(first);
      await tab.setConsent(groupsFor(["performance", "marketing"]), { via: "event" });
      const second = expected(bundle, ["performance", "marketing"]);
      await settled(tab, bundle, second);
      expect(requests(bundle)).toEqual(Object.fromEntries(tagsOf(bundle).map((t) => [t.code, second.includes(t.code) ? 1 : 0])));
    });

    it(`${name}: "A query parameter cb-disable-{tagcode} disables that tag"`, async () => {
      const bundle = b[name];
      const code = tagsOf(bundle).find((t) => !t.excludeAppIds)!.code;
      const want = expected(bundle, CATEGORIES, { disabled: code });
      const tab = await open(bundle, { groups: groupsFor(CATEGORIES), query: `?cb-disable-${code}` });
      await settled(tab, bundle, want);
      expect(loaded(bundle)).toEqual(want);
      expect(await tab.monitorEvents()).toContainEqual(expect.objectContaining({ type: "tag", tag: code, state: "blocked", reason: "cb-disable" }));
    });
  }

  it('"Internal sites always allow" (k12admin, the shipped catalogue): every declared tag loads without a banner', async () => {
    const bundle = b.internal;
    expect(bundle.config.site.internal).toBe(true);
    const want = expected(bundle, []);
    expect(want).toEqual(
      tagsOf(bundle)
        .map((t) => t.code)
        .sort(),
    );
    const tab = await open(bundle);
    await settled(tab, bundle, want);
    expect(loaded(bundle)).toEqual(want);
    expect(h.web.find({ host: "cdn.consentbanner.example" })).toEqual([]);
    await expectLifecycles(tab, bundle);
  });

  it("the tag's own excludeAppIds stops it for good (lab-excluded on app id 777)", async () => {
    const tab = await open(b.lab, { groups: groupsFor(CATEGORIES) });
    await settled(tab, b.lab, expected(b.lab, CATEGORIES));
    expect(requests(b.lab)["lab-excluded"]).toBe(0);
    expect(await tab.monitorEvents()).toContainEqual(
      expect.objectContaining({ type: "tag", tag: "lab-excluded", state: "blocked", reason: "exclusion-app-id" }),
    );
  });
});

describe("the loaders", () => {
  it("a script carries the page's CSP nonce; a 1x1 image and a hidden iframe; a queue stub before the tag", async () => {
    const tab = await open(b.lab, { groups: groupsFor(CATEGORIES) });
    await settled(tab, b.lab, expected(b.lab, CATEGORIES));
    const seen = await tab.page.evaluate(() => {
      const script = document.getElementById("sitetags-tag-lab-perf") as HTMLScriptElement | null;
      const img = document.querySelector('img[src*="mkt.labvendor.example"]') as HTMLImageElement | null;
      const frame = document.querySelector('iframe[src*="func.labvendor.example"]') as HTMLIFrameElement | null;
      return {
        nonce: !!script && !!script.nonce,
        img: img && [img.getAttribute("width"), img.getAttribute("height"), img.style.visibility],
        frame: frame && [frame.getAttribute("aria-hidden"), frame.style.visibility, frame.getAttribute("tabindex")],
        queue: typeof (window as any).labQueue,
      };
    });
    expect(seen).toEqual({ nonce: true, img: ["1", "1", "hidden"], frame: ["true", "hidden", "-1"], queue: "function" });
    expect(await tab.cspViolations()).toEqual([]);
  });
});

/**
 * A vendor mock's reports in the order the vendor made them: each is its own image request, numbered by the mock
 * (n), and requests made together may reach the mock host in any order.
 */
const inCallOrder = (reports: RecordedRequest[]): unknown[] =>
  [...reports].sort((x, y) => Number(x.query.n) - Number(y.query.n)).map((r) => JSON.parse(r.query.call));

describe("the families in the shipped catalogue", () => {
  it("monitoring (newsroom): the RUM \"sampled-in/out cookie per host\" (a visitor sampled in at the host's rate), the beacon's embed settings (env from the subdomain, lowerYn y outside prod), messaging config per host", async () => {
    const tab = await open(b.monitoring, { groups: groupsFor(["performance", "functional"]) });
    await settled(tab, b.monitoring, expected(b.monitoring, ["performance", "functional"]));
    const page = await tab.page.evaluate(() => ({
      cookie: document.cookie,
      beacon: (window as any).kiwiBeaconSettings,
      messaging: (window as any).kiwiMessagingConfig,
      sampled: (window as any).sitetags.commands.rum.rumSampledIn(),
    }));
    expect(page.cookie).toContain(`kiwi_sampling=${SAMPLED_IN}`);
    expect(page.sampled).toBe(true);
    expect(page.beacon).toEqual({ name: "kiwi", host: "newsroom-qa.kiwi.example", domain: "kiwi.example", env: "qa", lowerYn: "y" });
    expect(page.messaging).toEqual({ appId: "kiwi-messaging-placeholder", channel: "newsroom-qa" });
  });

  it("monitoring: without performance consent no sampling cookie is written (a new visitor)", async () => {
    const tab = await open(b.monitoring, { groups: groupsFor(["functional"]), newVisitor: true });
    await settled(tab, b.monitoring, expected(b.monitoring, ["functional"]));
    expect(await tab.page.evaluate(() => document.cookie)).not.toContain("kiwi_sampling");
    expect(await tab.page.evaluate(() => (window as any).sitetags.commands.rum.rumSampledIn())).toBeUndefined();
  });

  it('marketing (landing): "events pushed to a data layer and forwarded to advertising trackers (tracker, pixel id, event name, data)", recorded by the vendor\'s mock', async () => {
    // The social vendor's mock: replays its queue and reports each call to its own host.
    h.web.script("https://px.socialvendor.example/kiwi/tracker.js", {
      body: `(function () {
  var n = 0, report = function (args) { new Image().src = "https://px.socialvendor.example/record?n=" + n++ + "&call=" + encodeURIComponent(JSON.stringify(Array.prototype.slice.call(args))); };
  var stub = window.kiwiSocialPixel, queued = (stub && stub.q) || [];
  window.kiwiSocialPixel = function () { report(arguments); };
  queued.forEach(report);
})();`,
    });
    const tab = await open(b.marketing, { groups: groupsFor(["marketing"]) });
    await settled(tab, b.marketing, expected(b.marketing, ["marketing"]));
    await tab.page.evaluate(() => (window as any).kiwiDataLayer.push({ event: "purchase", transaction: { id: "W9001", type: "sr" } }));
    await tab.page.evaluate(() => (window as any).kiwiDataLayer.push({ event: "modal", modalName: "not forwarded", modalState: "shown" }));
    await expect
      .poll(() => inCallOrder(h.web.find({ host: "px.socialvendor.example", path: "/record" })), { timeout: 8000 })
      .toEqual([
        ["init", "kiwi-pixel-placeholder"],
        ["track", "kiwi-pixel-placeholder", "PAGE_VIEW", { path: "/page" }],
        ["track", "kiwi-pixel-placeholder", "PURCHASE", { transaction: { id: "W9001", type: "sr" } }],
      ]);
  });

  // Task tagsB (issue 20): the search-ads and push-notification vendors' own calls, recorded by their mocks.
  it("marketing (landing): search ads' array queue (config with the tag id, page view, conversions) and push notifications' init with the app id and settings, then page views", async () => {
    /** An array-queue vendor's mock: replays what was queued, then reports each later push to its own host. */
    const arrayVendor = (url: string, global: string) =>
      h.web.script(url, {
        body: `(function () {
  var n = 0, report = function (entry) { new Image().src = "${new URL(url).origin}/record?n=" + n++ + "&call=" + encodeURIComponent(JSON.stringify(entry)); };
  var queued = window.${global} || [];
  window.${global} = { push: report };
  queued.forEach(report);
})();`,
      });
    arrayVendor("https://ads.searchvendor.example/kiwi/bat.js", "kiwiSearchAds");
    arrayVendor("https://push.pushvendor.example/kiwi/sdk.js", "kiwiPush");
    const calls = (host: string) => inCallOrder(h.web.find({ host, path: "/record" }));
    const tab = await open(b.marketing, { groups: groupsFor(["marketing"]) });
    await settled(tab, b.marketing, expected(b.marketing, ["marketing"]));
    await tab.page.evaluate(() => (window as any).kiwiDataLayer.push({ event: "purchase", transaction: { id: "W9003", type: "sr" } }));
    await tab.page.evaluate(() => (window as any).kiwiDataLayer.push({ event: "page-view", pageName: "landing:next" }));
    await expect
      .poll(() => calls("ads.searchvendor.example"), { timeout: 8000 })
      .toEqual([
        ["config", "kiwi-ads-placeholder"],
        ["event", "kiwi-ads-placeholder", "page_view", { path: "/page" }],
        ["event", "kiwi-ads-placeholder", "purchase", { transaction: { id: "W9003", type: "sr" } }],
      ]);
    await expect
      .poll(() => calls("push.pushvendor.example"), { timeout: 8000 })
      .toEqual([
        ["init", { appId: "kiwi-push-placeholder", serviceWorkerPath: "/kiwi-push-sw.js", promptDelaySeconds: 10 }],
        ["pageView", { path: "/page" }],
        ["pageView", { path: "/page" }],
      ]);
    expect(await tab.page.evaluate(() => (window as any).sitetags.commands.pushNotifications.pushNotificationsCalls())).toEqual({
      "push-notifications": [
        ["init", { appId: "kiwi-push-placeholder", serviceWorkerPath: "/kiwi-push-sw.js", promptDelaySeconds: 10 }],
        ["pageView", { path: "/page" }],
        ["pageView", { path: "/page" }],
      ],
    });
    expect(await tab.cspViolations()).toEqual([]);
  });

  // Task tagsC (issue 20): push notifications' page views pushed before consent wait for it.
  it("marketing (landing): a page view pushed before the visitor's consent reaches the push vendor once marketing is granted (after the load's own), once; none pushed while it is withdrawn", async () => {
    h.web.script("https://push.pushvendor.example/kiwi/sdk.js", {
      body: `(function () {
  // Numbered: the page's list of available images would merge two identical image URLs into one request.
  var n = 0, report = function (entry) { new Image().src = "https://push.pushvendor.example/record?n=" + n++ + "&call=" + encodeURIComponent(JSON.stringify(entry)); };
  var queued = window.kiwiPush || [];
  window.kiwiPush = { push: report };
  queued.forEach(report);
})();`,
    });
    const calls = () =>
      h.web
        .find({ host: "push.pushvendor.example", path: "/record" })
        .sort((x, y) => Number(x.query.n) - Number(y.query.n))
        .map((r) => JSON.parse(r.query.call));
    const tab = await open(b.marketing);
    await settled(tab, b.marketing, []);
    await tab.page.evaluate(() => (window as any).kiwiDataLayer.push({ event: "page-view", pageName: "landing:before-consent" }));
    await settle(300);
    expect(h.web.find({ host: "push.pushvendor.example" })).toEqual([]);
    await tab.setConsent(groupsFor(["marketing"]), { via: "event" });
    const init = ["init", { appId: "kiwi-push-placeholder", serviceWorkerPath: "/kiwi-push-sw.js", promptDelaySeconds: 10 }];
    const view = ["pageView", { path: "/page" }];
    await expect.poll(calls, { timeout: 8000 }).toEqual([init, view, view]);
    await tab.setConsent(groupsFor([]), { via: "event" });
    await tab.page.evaluate(() => (window as any).kiwiDataLayer.push({ event: "page-view", pageName: "landing:withdrawn" }));
    await settle(400);
    expect(calls()).toEqual([init, view, view]);
    expect(await tab.page.evaluate(() => (window as any).sitetags.commands.pushNotifications.pushNotificationsCalls())).toEqual({
      "push-notifications": [init, view, view],
    });
  });

  it("marketing: without marketing consent nothing is forwarded, no vendor queue is installed and no tracker or push vendor loads", async () => {
    const tab = await open(b.marketing, { groups: groupsFor(["performance"]) });
    await settled(tab, b.marketing, []);
    await tab.page.evaluate(() => (window as any).kiwiDataLayer.push({ event: "purchase", transaction: { id: "W9002", type: "sr" } }));
    // A page view pushed while marketing is refused: never delivered.
    await tab.page.evaluate(() => (window as any).kiwiDataLayer.push({ event: "page-view", pageName: "landing:refused" }));
    await settle(400);
    expect(h.web.find({ host: "px.socialvendor.example" })).toEqual([]);
    expect(h.web.find({ host: "ads.searchvendor.example" })).toEqual([]);
    expect(h.web.find({ host: "push.pushvendor.example" })).toEqual([]);
    expect(
      await tab.page.evaluate(() => [typeof (window as any).kiwiSocialPixel, typeof (window as any).kiwiSearchAds, typeof (window as any).kiwiPush]),
    ).toEqual(["undefined", "undefined", "undefined"]);
  });
});

describe("the chat-flow popup (task tags: issue 20, spec sections 5 and 9)", () => {
  const FLOW_HOST = "flow.chatflowvendor.example";
  /** The chat vendor's mock: ready(callback) a little later, showFlow(id); it reports each call to its own host. */
  const mockVendor = () =>
    h.web.script(`https://${FLOW_HOST}/kiwi/popup.js`, {
      body: `(function () {
  var report = function (q) { new Image().src = "https://${FLOW_HOST}/record?" + q; };
  window.kiwiChatFlow = {
    ready: function (cb) { report("ready=1"); setTimeout(cb, 20); },
    showFlow: function (id) { report("flow=" + encodeURIComponent(id)); }
  };
})();`,
    });
  const flows = () => h.web.find({ host: FLOW_HOST, path: "/record" }).filter((r) => r.query.flow);

  it('newsroom (shipped QA bundle): "Exit intent: mouse within 5 px of the top moving upward" with real mouse moves; "Shows once per cookie" widget_shown', async () => {
    mockVendor();
    const tab = await open(b.monitoring, { groups: groupsFor(["functional"]) });
    await tab.waitForMonitor({ type: "tag", tag: "chat-flow", state: "loaded" });
    const mouse = tab.page.mouse;
    await mouse.move(300, 1); // downward from (0, 0): near the top, not moving up
    await mouse.move(300, 400, { steps: 4 });
    await mouse.move(300, 8, { steps: 4 }); // upward, but never within 5 px
    await settle(400);
    expect(flows()).toEqual([]);
    await mouse.move(300, 2, { steps: 2 }); // 5, then 2: within 5 px, moving up
    await tab.waitForMonitor({ type: "chatFlow", tag: "chat-flow", flowId: "kiwi-help-placeholder" });
    await expect.poll(() => flows().map((r) => r.query.flow), { timeout: 8000 }).toEqual(["kiwi-help-placeholder"]);
    expect(await tab.page.evaluate(() => document.cookie)).toContain("widget_shown=1");
    // Another exit, 1.5 s later (past the rate limit): the cookie says it has shown.
    await settle(1500);
    await mouse.move(300, 400, { steps: 4 });
    await mouse.move(300, 0, { steps: 8 });
    await settle(400);
    expect(flows()).toHaveLength(1);
    expect((await tab.logEntries()).map((e) => e.message)).toContain("popup already shown (its cookie is set)");
    // Spec section 8, "need a valid DOM selector" / "selector not valid": the page's own click trigger without a usable selector is not armed.
    const popup = (o: object) => tab.page.evaluate((x) => (window as any).sitetags.commands.chatFlow.chatFlowPopup(x), o);
    expect(await popup({ trigger: "click" })).toBe(false);
    expect(await popup({ trigger: "click", selector: "a[" })).toBe(false);
    const said = (await tab.logEntries()).map((e) => e.message);
    expect(said).toContain("need a valid DOM selector");
    expect(said).toContain("selector not valid");
    expect(await tab.cspViolations()).toEqual([]);
  });

  it("newsroom: without functional consent the chat vendor never loads and no exit shows anything", async () => {
    mockVendor();
    const tab = await open(b.monitoring, { groups: groupsFor(["performance"]) });
    await settled(tab, b.monitoring, expected(b.monitoring, ["performance"]));
    await tab.page.mouse.move(300, 300);
    await tab.page.mouse.move(300, 0, { steps: 6 });
    await settle(400);
    expect(h.web.find({ host: FLOW_HOST })).toEqual([]);
  });

  it('a route pattern: "skipped if path does not match"; on a matching path a real click on the trigger element (inserted late) shows the flow', async () => {
    mockVendor();
    const other = await h.browser.openPage(h.web.page("https://chatlab-qa.kiwi.example/register", { bundle: b.chatLab }), {
      consentGroups: groupsFor(["functional"]),
    });
    await other.waitForMonitor({ type: "tag", tag: "chat-flow", state: "skipped", reason: "current path does not match the route pattern" });
    expect(h.web.find({ host: FLOW_HOST })).toEqual([]);

    const tab = await h.browser.openPage(h.web.page("https://chatlab-qa.kiwi.example/scores/details", { bundle: b.chatLab }), {
      consentGroups: groupsFor(["functional"]),
    });
    await tab.waitForMonitor({ type: "tag", tag: "chat-flow", state: "loaded" });
    await settle(300);
    await tab.page.evaluate(() => {
      const button = document.createElement("button");
      button.id = "help";
      button.textContent = "Help";
      document.body.appendChild(button);
    });
    // The element is polled for every 100 ms: click once the runtime's listener is on it (a pause raced the poll under load).
    const cdp = await tab.context.newCDPSession(tab.page);
    const { result } = await cdp.send("Runtime.evaluate", { expression: "document.getElementById('help')" });
    const listeners = async () => (await cdp.send("DOMDebugger.getEventListeners", { objectId: result.objectId! })).listeners.map((l) => l.type);
    await expect.poll(listeners, { timeout: 8000 }).toContain("click");
    await tab.page.click("#help");
    await tab.waitForMonitor({ type: "chatFlow", tag: "chat-flow", flowId: "lab-flow" });
    // The vendor reports the flow by an image request, which reaches the mock host after the page's monitor event.
    await expect.poll(() => flows().map((r) => r.query.flow), { timeout: 8000 }).toEqual(["lab-flow"]);
    expect(await tab.page.evaluate(() => (window as any).sitetags.commands.chatFlow.chatFlowShown())).toEqual(["lab-flow"]);
    expect(await tab.page.evaluate(() => (window as any).sitetags.commands.chatFlow.chatFlowPopup({ flowId: "", cookieDays: -1 }))).toBe(false);
    expect((await tab.logEntries()).map((e) => e.message)).toContain("popup options not valid; popup skipped");
  });
});

/**
 * The rule engine, data elements and the data layer in real Chromium against
 * built bundles: the real catalogue's rules (sites/_org.yaml, bigfuture,
 * satreg) and a lab site declaring every event, condition and action type.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  buildBundle,
  buildBundles,
  CONSENT,
  settle,
  signInCookies,
  tempCatalogue,
  useBrowserHarness,
  type Bundle,
  type RecordedRequest,
} from "./harness/index.js";

const h = useBrowserHarness();

type Beacon = { events: Array<{ xdm: Record<string, any>; data?: { __adobe: { analytics: Record<string, string> } } }> };
const beacons = (): Beacon[] =>
  h.web.find({ host: "edge.kiwi.example", method: "POST", path: /\/v1\/(interact|collect)$/ }).map((r: RecordedRequest) => r.json as Beacon);
const xdmOf = (b: Beacon) => b.events[0].xdm;
const varsOf = (b: Beacon) => b.events[0].data?.__adobe.analytics ?? {};
/** A signed-in visitor: the org's sign-in session and token cookies. */
const SIGNED_IN = signInCookies({ sessionId: "S-1", accountId: "A-1", profileType: "ECL" }, { typ: "Bearer", namespace: "st", hashedId: "h-1" });
async function beaconCount(n: number, timeoutMs = 8000): Promise<Beacon[]> {
  const until = Date.now() + timeoutMs;
  while (beacons().length < n && Date.now() < until) await settle(25);
  return beacons();
}

const LAB = `# yaml-language-server: $schema=./site.schema.json
code: ruleslab
name: Rules lab
appId: "901"
spa: true
hosts:
  qa: [ruleslab-qa.kiwi.example]
# A lab declaring every kind of rule, with the chat module and the qa data-layer checks: more than a site carries.
budget:
  gzipBytes: 40000
timing:
  routeChange: 500
  elementWait: 3000
  elementPoll: 100
modules:
  chat:
    scriptSrc: https://chat.widgetvendor.example/kiwi/lab/loader.js
    pages: [/chat]
dataElements:
  who: { cookie: kiwi_who, default: anonymous }
  tab: { query: tab, lowercase: true }
  label: { constant: "%site%|%who%|%tab%" }
  visits: { global: labState.visits }
  broken: { global: labState.explodes }
rules:
  - { id: dom-ready, name: DOM ready, events: [{ type: domReady }], actions: [{ type: pushDataLayer, data: { lab: { domReady: true } } }] }
  - { id: window-loaded, name: Window loaded, events: [{ type: windowLoaded }], actions: [{ type: sendEvent, name: "loaded:%label%", eventType: lab.windowLoaded }] }
  - id: data-only
    name: Data-only push
    events: [{ type: dataOnly }]
    conditions: [{ type: dataElement, name: visits, gt: 2 }]
    actions: [{ type: sendEvent, name: "visits:%visits%", eventType: lab.dataOnly }]
  - { id: route, name: Route change, events: [{ type: routeChange }], actions: [{ type: sendPageView, name: "lab:%pagePath%" }] }
  - { id: appears, name: Element appears, events: [{ type: elementExists, selector: "#late-banner" }], actions: [{ type: sendEvent, name: appeared, eventType: lab.elementExists }] }
  - { id: direct, name: Direct call, events: [{ type: directCall, name: scoreShown }], actions: [{ type: sendEvent, name: direct, eventType: lab.directCall }] }
  - { id: timer, name: Timer, events: [{ type: timer, delay: 300 }], actions: [{ type: sendEvent, name: timer, eventType: lab.timer }] }
  - id: click
    name: Delegated click
    events: [{ type: click, selector: ".track-me" }]
    conditions:
      - type: anyOf
        conditions: [{ type: cookie, name: kiwi_who, exists: true }, { type: query, name: tab, equals: scores }]
      - type: not
        condition: { type: env, in: [prod] }
    actions: [{ type: sendEvent, name: "clicked:%tab%", eventType: lab.click }]
  - id: marketing
    name: Marketing tags behind consent
    events: [{ type: dataLayerPush, event: convert }]
    conditions: [{ type: consent, category: performance }]
    actions:
      - { type: loadScript, src: "https://tags.adpartner.example/lab.js", consent: marketing }
      - { type: pixel, src: "https://pixel.adpartner.example/p?who=%who%", kind: iframe, consent: marketing }
  - id: chain
    name: A push from an action runs other rules
    events: [{ type: dataLayerPush, event: chain-start }]
    actions: [{ type: pushDataLayer, data: { event: chain-next } }]
  - { id: chain-next, name: Chained, events: [{ type: dataLayerPush, event: chain-next }], actions: [{ type: sendEvent, name: chained, eventType: lab.chain }] }
  - id: hangs
    name: Hanging wait-before-next action (marketing never granted)
    order: 0
    events: [{ type: dataLayerPush, event: contain }]
    actions:
      - { type: loadScript, src: "https://tags.adpartner.example/never.js", consent: marketing, waitBeforeNext: true, timeout: 300 }
      - { type: sendEvent, name: never, eventType: lab.never }
  - id: throws
    name: Throwing action
    order: 1
    events: [{ type: dataLayerPush, event: contain }]
    actions:
      - { type: pushDataLayer, data: { event: boom } }
      - { type: sendEvent, name: "after-throw", eventType: lab.afterThrow }
  - id: throwing-element
    name: A data element whose source throws
    order: 2
    events: [{ type: dataLayerPush, event: contain }]
    conditions: [{ type: dataElement, name: broken, exists: false }]
    actions: [{ type: sendEvent, name: "element-survived", eventType: lab.elementSurvived }]
  - { id: later, name: A later rule, order: 50, events: [{ type: dataLayerPush, event: contain }], actions: [{ type: sendEvent, name: later, eventType: lab.later }] }
`;

let real: Record<"bigfuture" | "satregProd" | "satregQa", Bundle>;
let lab: Bundle;

beforeAll(async () => {
  real = await buildBundles({ bigfuture: ["bigfuture", "qa"], satregProd: ["satreg", "prod"], satregQa: ["satreg", "qa"] });
  lab = await buildBundle("ruleslab", "qa", { sitesDir: tempCatalogue({ "ruleslab.yaml": LAB }) });
}, 240_000);

describe("the catalogue's rules (sites/_org.yaml, bigfuture.yaml, satreg.yaml)", () => {
  it("org rule page-view: a page view reaches the edge when the library loads", async () => {
    const url = h.web.page("https://bigfuture-qa.kiwi.example/college-search", { bundle: real.bigfuture });
    await h.browser.openPage(url, { consentGroups: CONSENT.performance });
    const [b] = await beaconCount(1);
    expect(xdmOf(b).eventType).toBe("web.webpagedetails.pageViews");
    expect(xdmOf(b).web.webPageDetails.URL).toBe("https://bigfuture-qa.kiwi.example/college-search");
    expect(h.web.find({ host: "edge.kiwi.example", path: /\/v1\/interact$/ })[0].url).toMatch(
      /^https:\/\/edge\.kiwi\.example\/ee\/v1\/interact\?configId=[^&]+&requestId=[0-9a-f-]{36}$/,
    );
  });

  it("bigfuture rules: a share click; \"list adds and removes\", the list-milestone's event riding on the list add's beacon", async () => {
    const url = h.web.page("https://bigfuture-qa.kiwi.example/", {
      bundle: real.bigfuture,
      body: '<a id="promo" data-share="page" href="#x">Share</a>',
      cookies: SIGNED_IN,
    });
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.performance });
    await beaconCount(1);
    await tab.page.click("#promo");
    await beaconCount(2);
    const list = (changeType: string, newTotalItemsInList: unknown) =>
      tab.page.evaluate((p) => (window as any).kiwiDataLayer.push(p), {
        event: "list-change",
        changeType,
        itemType: "college",
        itemName: "  Kiwi   College ",
        itemId: 1234,
        sourceUi: "college-profile",
        newTotalItemsInList,
      });
    await list("added-list-item", 6);
    await list("removed-list-item", 5);
    await list("added-list-item", 2);
    const all = await beaconCount(5);
    expect(all.map((b) => xdmOf(b).eventType)).toEqual([
      "web.webpagedetails.pageViews",
      "web.webinteraction.linkClicks",
      "kiwi.listChange",
      "kiwi.listChange",
      "kiwi.listChange",
    ]);
    expect(xdmOf(all[1]).web.webInteraction).toMatchObject({ name: "share click", type: "other", URL: "https://bigfuture-qa.kiwi.example/#x" });
    expect(xdmOf(all[2]).web.webInteraction.name).toBe("list:add:college");
    expect(varsOf(all[2])).toMatchObject({
      events: "event61,event53",
      eVar101: "college",
      eVar102: "Kiwi College",
      eVar103: "1234",
      prop94: "college-profile",
      prop95: "6",
    });
    expect(xdmOf(all[3]).web.webInteraction.name).toBe("list:remove:college");
    expect(varsOf(all[3])).toMatchObject({ events: "event54", prop95: "5" });
    // "List milestones: first, third and sixth item added": a second item is none.
    expect(varsOf(all[4])).toMatchObject({ events: "event53", prop95: "2" });
  });

  it('"List change needs itemType and itemName and an integer newTotalItemsInList (else warning, no record)"; milestones only for a known user', async () => {
    const pushes = [
      { event: "list-change", changeType: "added-list-item", itemType: "college", itemName: "Kiwi College", newTotalItemsInList: "3" },
      { event: "list-change", changeType: "added-list-item", itemType: "college", newTotalItemsInList: 3 },
      { event: "list-change", changeType: "added-list-item", itemName: "Kiwi College", newTotalItemsInList: 3 },
      { event: "list-change", changeType: "added-list-item", itemType: "career", itemName: "Nurse", newTotalItemsInList: 1 },
    ];
    // Not signed in: the first item is recorded without the milestone.
    await h.browser.openPage(h.web.page("https://bigfuture-qa.kiwi.example/", { bundle: real.bigfuture, dataLayer: pushes }), {
      consentGroups: CONSENT.performance,
    });
    await beaconCount(2);
    await settle(300);
    // Pushes made before the bundle loads are processed before its page view.
    expect(beacons().map((b) => xdmOf(b).eventType)).toEqual(["kiwi.listChange", "web.webpagedetails.pageViews"]);
    const [added] = beacons();
    expect(xdmOf(added).web.webInteraction.name).toBe("list:add:career");
    expect(varsOf(added)).toMatchObject({ events: "event53", eVar101: "career", eVar102: "Nurse", prop95: "1" });
    // The page view carries no milestone either: no event61 anywhere.
    expect(beacons().some((b) => String(varsOf(b).events).includes("event61"))).toBe(false);
  });

  it('bigfuture major list: "Major add: primary interest, add method, added item name, list size"; "size 1 fires the new-list event; size 5 fires list-full (logged-in only)"', async () => {
    const major = (itemName: string | undefined, listSize: unknown) => ({
      event: "major-add",
      itemName,
      listSize,
      primaryInterest: "life-sciences",
      addMethod: "search",
    });
    const pushes = [major("Biology", 1), major("Chemistry", "2"), major(undefined, 2), major("Physics", 5), major("Ecology", 3)];
    for (const [cookies, full] of [
      [SIGNED_IN, "event56,event57"],
      [[], "event57"],
    ] as const) {
      await h.browser.closePages();
      h.web.reset();
      await h.browser.openPage(h.web.page("https://bigfuture-qa.kiwi.example/", { bundle: real.bigfuture, dataLayer: pushes, cookies: [...cookies] }), {
        consentGroups: CONSENT.performance,
      });
      await beaconCount(4);
      await settle(300);
      const adds = beacons().filter((b) => xdmOf(b).eventType === "kiwi.majorAdd");
      expect(adds.map((b) => varsOf(b).eVar104)).toEqual(["Biology", "Physics", "Ecology"]);
      expect(xdmOf(adds[0]).web.webInteraction.name).toBe("major:add");
      expect(varsOf(adds[0])).toMatchObject({ events: "event55,event57", eVar105: "life-sciences", prop96: "search", prop95: "1" });
      expect(varsOf(adds[1])).toMatchObject({ events: full, prop95: "5" });
      expect(varsOf(adds[2])).toMatchObject({ events: "event57", prop95: "3" });
    }
  });

  it('bigfuture list views: "List view needs integer itemListSize" (itemType, itemListSize, pageState)', async () => {
    const pushes = [
      { event: "list-view", itemType: "career", itemListSize: 0, pageState: "no-careers" },
      { event: "list-view", itemType: "college", itemListSize: "4", pageState: "colleges" },
      { event: "list-view", itemType: "college", pageState: "colleges" },
    ];
    await h.browser.openPage(h.web.page("https://bigfuture-qa.kiwi.example/", { bundle: real.bigfuture, dataLayer: pushes }), {
      consentGroups: CONSENT.performance,
    });
    await beaconCount(2);
    await settle(300);
    const views = beacons().filter((b) => xdmOf(b).eventType === "kiwi.listView");
    expect(views).toHaveLength(1);
    expect(xdmOf(views[0]).web.webInteraction.name).toBe("list:view");
    expect(varsOf(views[0])).toMatchObject({ events: "event58", eVar101: "career", prop95: "0", prop97: "no-careers" });
  });

  it('org rules form-submit and opt-in-change ("Tracked events: ... form submits ... opt-in changes"; "Opt-in change without change type: skipped")', async () => {
    const pushes = [
      { event: "form-submit", formName: " Newsletter  signup ", formStep: "confirm" },
      { event: "form-submit", formStep: "confirm" },
      { event: "opt-in-change", action: "student-search", actionSource: "profile" },
      { event: "opt-in-change", changeType: "sometimes", action: "student-search" },
      { event: "opt-in-change", changeType: "reoptin", action: "student-search", actionSource: "profile" },
    ];
    await h.browser.openPage(h.web.page("https://satreg.kiwi.example/", { bundle: real.satregProd, dataLayer: pushes }), {
      consentGroups: CONSENT.performance,
    });
    await beaconCount(3);
    await settle(300);
    // Pushes made before the bundle loads are processed before its page view.
    expect(beacons().map((b) => xdmOf(b).eventType)).toEqual(["kiwi.formSubmit", "kiwi.optInChange", "web.webpagedetails.pageViews"]);
    const [form, optIn] = beacons();
    expect(xdmOf(form).web.webInteraction.name).toBe("form:Newsletter signup");
    expect(varsOf(form)).toMatchObject({ events: "event51", eVar99: "Newsletter signup", prop91: "confirm" });
    expect(xdmOf(optIn).web.webInteraction.name).toBe("opt-in:reoptin");
    expect(varsOf(optIn)).toMatchObject({ events: "event52", eVar100: "reoptin", prop92: "student-search", prop93: "profile" });
  });

  it("satreg payment-confirmation (order 5 runs before page-view, order 10): the page view carries the purchase; the pixel waits for marketing consent", async () => {
    const url = h.web.page("https://satreg.kiwi.example/register/paymentConfirmation", { bundle: real.satregProd, dataLayer: [{ order: { id: "SR12345" } }] });
    await h.browser.openPage(url, { consentGroups: CONSENT.all });
    const pixel = await h.web.waitForRequest({ host: "pixel.adpartner.example" });
    expect(pixel.url).toBe("https://pixel.adpartner.example/conv?id=kiwi-satreg&order=SR12345");
    const [view] = await beaconCount(1);
    expect(varsOf(view)).toMatchObject({ events: "purchase", eVar30: "SR12345" });

    h.web.reset();
    await h.browser.openPage(url, { consentGroups: CONSENT.performance });
    await beaconCount(1);
    await settle(300);
    expect(h.web.find({ host: "pixel.adpartner.example" })).toEqual([]);
  });

  it('"confirmation-step cookie": reloading the payment confirmation page counts the order once (no second purchase, no second pixel); a new order counts', async () => {
    const url = h.web.page("https://satreg.kiwi.example/register/paymentConfirmation", { bundle: real.satregProd, dataLayer: [{ order: { id: "SR777" } }] });
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.all });
    await h.web.waitForRequest({ host: "pixel.adpartner.example" });
    const [first] = await beaconCount(1);
    expect(varsOf(first)).toMatchObject({ events: "purchase", eVar30: "SR777" });
    const cookie = (await tab.context.cookies()).find((c) => c.name === "kiwi_confirmation");
    expect(cookie).toMatchObject({ value: "sr%7CSR777", domain: ".kiwi.example", path: "/", secure: true, sameSite: "Lax", expires: -1 }); // a session cookie

    // Only page views count here: leaving a page also sends its web vitals.
    const views = () => beacons().filter((b) => xdmOf(b).eventType === "web.webpagedetails.pageViews");
    const viewCount = async (n: number) => {
      await expect.poll(() => views().length, { timeout: 5000 }).toBeGreaterThanOrEqual(n);
      return views();
    };
    await tab.page.reload();
    const again = (await viewCount(2))[1];
    expect(varsOf(again).events).toBeUndefined();
    await settle(300);
    expect(h.web.find({ host: "pixel.adpartner.example" })).toHaveLength(1);

    h.web.page("https://satreg.kiwi.example/register/paymentConfirmation", { bundle: real.satregProd, dataLayer: [{ order: { id: "SR778" } }] });
    await tab.page.reload();
    const next = (await viewCount(3))[2];
    expect(varsOf(next)).toMatchObject({ events: "purchase", eVar30: "SR778" });
    await expect.poll(() => h.web.find({ host: "pixel.adpartner.example" }).map((r) => r.query.order)).toEqual(["SR777", "SR778"]);
  });

  it("disabledRules: satreg's qa environment turns the payment-confirmation rule off", async () => {
    const url = h.web.page("https://satreg-qa.kiwi.example/register/paymentConfirmation", { bundle: real.satregQa, dataLayer: [{ order: { id: "SR1" } }] });
    await h.browser.openPage(url, { consentGroups: CONSENT.all });
    const [view] = await beaconCount(1);
    await settle(200);
    expect(varsOf(view).events).toBeUndefined();
    expect(h.web.find({ host: "pixel.adpartner.example" })).toEqual([]);
  });

  it('"In non-production bundles, a push that does not match its type logs a clear warning naming the field; production bundles skip that check"', async () => {
    const push = { event: "list-change", changeType: "added-list-item", itemType: "college", itemName: "Kiwi College", newTotalItemsInList: "3" };
    const qa = await h.browser.openPage(h.web.page("https://bigfuture-qa.kiwi.example/", { bundle: real.bigfuture, dataLayer: [push] }), {
      consentGroups: CONSENT.performance,
    });
    await beaconCount(1);
    expect(await qa.logEntries()).toContainEqual(
      expect.objectContaining({ level: "warn", message: 'data layer push "list-change": field "newTotalItemsInList" must be an integer, got "3"' }),
    );
    const prod = await h.browser.openPage(h.web.page("https://satreg.kiwi.example/", { bundle: real.satregProd, dataLayer: [push] }), {
      consentGroups: CONSENT.performance,
    });
    await settle(300);
    expect((await prod.logEntries()).filter((e) => String((e as { message?: unknown }).message).startsWith("data layer push"))).toEqual([]);
  });

  it("no consent for analytics yet: nothing is sent; consent given later releases the queued page view", async () => {
    const url = h.web.page("https://bigfuture-qa.kiwi.example/", { bundle: real.bigfuture });
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.necessary });
    await settle(400);
    expect(beacons()).toEqual([]);
    await tab.setConsent(CONSENT.performance, { via: "event" });
    // Both wait for the consent request's answer, then go together: they may reach the edge in either order.
    const sent = await beaconCount(2);
    expect(sent.map((b) => xdmOf(b).eventType).sort()).toEqual(["kiwi.privacyConsentChange", "web.webpagedetails.pageViews"]);
    // "consent changes are tracked as privacy consent change events (status, region, type, action source)"
    const change = sent.find((b) => xdmOf(b).eventType === "kiwi.privacyConsentChange")!;
    expect(varsOf(change)).toMatchObject({ eVar71: "in", eVar72: "performance", eVar73: "No Data", eVar74: "banner" });
  });
});

describe("every event type, condition and action (a lab site)", () => {
  const labUrl = (path = "/", opts: Parameters<typeof h.web.page>[1] = {}) => h.web.page(`https://ruleslab-qa.kiwi.example${path}`, { bundle: lab, ...opts });
  const types = () => beacons().map((b) => xdmOf(b).eventType as string);

  it("library loaded, DOM ready (a push from an action), window loaded (tokens from cookie, query and provided values)", async () => {
    const tab = await h.browser.openPage(labUrl("/?tab=Scores", { cookies: ["kiwi_who=student; Path=/"] }), { consentGroups: CONSENT.performance });
    const until = Date.now() + 8000;
    while (!beacons().some((b) => xdmOf(b).eventType === "lab.windowLoaded") && Date.now() < until) await settle(25);
    const loaded = beacons().find((b) => xdmOf(b).eventType === "lab.windowLoaded")!;
    expect(xdmOf(loaded).web.webInteraction.name).toBe("loaded:ruleslab|student|scores");
    expect(await tab.page.evaluate(() => (window as any).sitetags && (window as any).kiwiDataLayer.length)).toBeGreaterThan(0);
    const state = await tab.page.evaluate(() => (window as any).__sitetagsEvents.filter((e: any) => e.type === "dataLayer").map((e: any) => e.push));
    expect(state).toContainEqual({ lab: { domReady: true } });
  });

  it("data-only pushes fire only data-only rules; a data-element condition compares numbers", async () => {
    const tab = await h.browser.openPage(labUrl(), { consentGroups: CONSENT.performance, initScripts: ["window.labState = { visits: 1 }"] });
    await beaconCount(2);
    await tab.page.evaluate(() => {
      (window as any).labState.visits = 3;
      (window as any).kiwiDataLayer.push({ something: 1 });
      (window as any).kiwiDataLayer.push({ event: "unrelated", other: 2 });
    });
    await expect.poll(types, { timeout: 8000 }).toContain("lab.dataOnly");
    await settle(300);
    expect(types().filter((t) => t === "lab.dataOnly")).toHaveLength(1);
  });

  it('SPA route change (history API and hash) "debounced by the site\'s route timeout"', async () => {
    const tab = await h.browser.openPage(labUrl("/start"), { consentGroups: CONSENT.performance });
    await beaconCount(2);
    await tab.page.evaluate(() => {
      history.pushState({}, "", "/step-1");
      history.pushState({}, "", "/step-2");
      location.hash = "#tab";
    });
    const until = Date.now() + 5000;
    while (types().filter((t) => t === "web.webpagedetails.pageViews").length < 2 && Date.now() < until) await settle(25);
    // Past the debounce (500 ms): three changes made one page view, for the last address.
    await settle(800);
    const views = beacons().filter((b) => xdmOf(b).eventType === "web.webpagedetails.pageViews");
    expect(views.map((b) => xdmOf(b).web.webPageDetails.name)).toEqual(["ruleslab/start", "lab:/step-2"]);
  });

  it('element appears ("polling per the spec\'s element wait"), direct call, timer', async () => {
    const tab = await h.browser.openPage(labUrl(), {
      consentGroups: CONSENT.performance,
      initScripts: [
        "document.addEventListener('DOMContentLoaded', function(){ setTimeout(function(){ var d=document.createElement('div'); d.id='late-banner'; document.body.appendChild(d); }, 400); })",
      ],
    });
    await tab.page.evaluate(() => (window as any).sitetags.track("scoreShown", { id: 1 }));
    const until = Date.now() + 8000;
    while (!["lab.directCall", "lab.timer", "lab.elementExists"].every((t) => types().includes(t)) && Date.now() < until) await settle(50);
    expect(types()).toEqual(expect.arrayContaining(["lab.directCall", "lab.timer", "lab.elementExists"]));
    expect(types().filter((t) => t === "lab.elementExists")).toHaveLength(1);
  });

  it("click on a CSS selector: one delegated listener (even when the page stops propagation); anyOf/not conditions", async () => {
    const body =
      '<div id="wrap"><button class="track-me"><span id="inner">Go</span></button></div><script>document.getElementById("wrap").addEventListener("click", function (e) { e.stopPropagation(); });</script>';
    const tab = await h.browser.openPage(labUrl("/?tab=scores", { body }), { consentGroups: CONSENT.performance });
    await beaconCount(2);
    await tab.page.click("#inner");
    // Waits for the click's own beacon: the lab's 300 ms timer rule sends one too, and on a busy machine it can come first.
    await expect.poll(types, { timeout: 8000 }).toContain("lab.click");
    expect(xdmOf(beacons().find((b) => xdmOf(b).eventType === "lab.click")!).web.webInteraction.name).toBe("clicked:scores");
    h.web.reset();
    const other = await h.browser.openPage(labUrl("/?tab=other", { body }), { consentGroups: CONSENT.performance });
    await beaconCount(2);
    await other.page.click("#inner");
    await settle(300);
    expect(types()).not.toContain("lab.click");
  });

  it("load a script and fire a hidden-iframe pixel, each behind its consent category; a pushDataLayer action runs other rules", async () => {
    const tab = await h.browser.openPage(labUrl("/", { cookies: ["kiwi_who=parent; Path=/"] }), { consentGroups: CONSENT.performance });
    await beaconCount(2);
    await tab.page.evaluate(() => (window as any).kiwiDataLayer.push({ event: "convert" }, { event: "chain-start" }));
    await expect.poll(types, { timeout: 8000 }).toContain("lab.chain");
    await settle(300);
    expect(h.web.find({ host: "tags.adpartner.example" })).toEqual([]);
    expect(h.web.find({ host: "pixel.adpartner.example" })).toEqual([]);
    await tab.setConsent(CONSENT.all, { via: "event" });
    const script = await h.web.waitForRequest({ host: "tags.adpartner.example", path: "/lab.js" });
    const pixel = await h.web.waitForRequest({ host: "pixel.adpartner.example" });
    expect(pixel.url).toBe("https://pixel.adpartner.example/p?who=parent");
    expect(script.headers["sec-fetch-dest"]).toBe("script");
    expect(pixel.headers["sec-fetch-dest"]).toBe("iframe");
  });

  it('containment: "an exception in any condition or action is caught and logged; other rules and the page carry on" — throwing and hanging actions', async () => {
    const tab = await h.browser.openPage(labUrl("/", { after: ["window.pageScriptRan = true"] }), {
      consentGroups: CONSENT.performance,
      initScripts: ["window.labState = {}; Object.defineProperty(window.labState, 'explodes', { get: function () { throw new Error('hostile getter'); } })"],
    });
    await beaconCount(2);
    // Make the page's data layer throw on the next push, as a broken application might.
    await tab.page.evaluate(() => {
      const dl = (window as any).kiwiDataLayer;
      const ours = dl.push;
      dl.push = function (...items: any[]) {
        if (items[0] && items[0].event === "boom") throw new Error("page push exploded");
        return ours.apply(dl, items);
      };
      dl.push({ event: "contain" });
    });
    await expect.poll(types, { timeout: 8000 }).toEqual(expect.arrayContaining(["lab.afterThrow", "lab.elementSurvived", "lab.later"]));
    await settle(600);
    const t = types();
    expect(t).not.toContain("lab.never");
    const logs = await tab.logEntries();
    expect(logs).toContainEqual(expect.objectContaining({ level: "error", message: "rule action failed" }));
    // "A tag waiting for consent is not an error": the hanging action waits for marketing consent, logged at debug level.
    expect(logs).toContainEqual(expect.objectContaining({ level: "debug", message: "a tag action is waiting for consent past its limit" }));
    expect(logs.filter((l) => l.message === "timeout error: a condition or action exceeded its limit")).toEqual([]);
    expect(await tab.page.evaluate(() => (window as any).pageScriptRan)).toBe(true);
    expect(tab.pageErrors).toEqual([]);
  });

  it("the monitor reports each rule's conditions and each action's outcome (for the preview)", async () => {
    const tab = await h.browser.openPage(labUrl("/?tab=x"), { consentGroups: CONSENT.performance });
    await tab.waitForMonitor({ type: "rule", rule: "page-view", outcome: "done" });
    const events = await tab.page.evaluate(() => (window as any).__sitetagsEvents.filter((e: any) => e.type === "rule"));
    expect(events).toContainEqual(expect.objectContaining({ type: "rule", rule: "page-view", state: "fired", event: "libraryLoaded" }));
    expect(events).toContainEqual(expect.objectContaining({ type: "rule", rule: "page-view", action: 0, actionType: "sendPageView", outcome: "done" }));
  });
});

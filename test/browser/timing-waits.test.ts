/**
 * The rest of the timing values in YAML drive the runtime's waits (issue
 * #19; spec section 9 "Timeouts": "failover 1500-9000 ms (default 5000)",
 * "route/hash 500-4000", "SPA page 500-2500", "track stage 1000, loading
 * 4000, failover 4000, widget link 1200", "Retry defaults 10 attempts, 100
 * ms; element wait 5000 ms, 100 ms poll"). docs/runtime.md, "Timing values",
 * says which wait each names. test/browser/timing.test.ts has pageLoad and
 * elementWait.
 *
 * One build (beforeAll): a lab site whose qa, uat and perf environments set
 * different values, and the shipped k12reports with its qa environment's
 * loading shortened. One page per bundle, every value seen on it: the order
 * of the records at the mock edge against a timer rule at 2000 ms (2500 on
 * k12reports), or which outcome came (the chat launcher clicked or not, the
 * popup shown or not); no wall-clock assertion.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { buildBundles, CONSENT, tempCatalogue, useBrowserHarness, type Bundle, type RecordedRequest } from "./harness/index.js";

const h = useBrowserHarness();

const SHORT = "failover: 1500, failoverTrack: 1000, trackStage: 500, routeChange: 500, spaPage: 500, elementPoll: 100, widgetLink: 500, retryAttempts: 3";
const send = (id: string, events: string, type = id) =>
  `  - { id: ${id}, name: ${id}, events: [${events}], actions: [{ type: sendEvent, name: ${id}, eventType: lab.${type} }] }`;

const LAB = `# yaml-language-server: $schema=./site.schema.json
code: timingwaits
name: Timing waits lab
appId: "904"
spa: true
budget: { gzipBytes: 45000 } # a lab: the chat, chat-flow and dev-check modules at once
hosts:
  qa: [timingwaits-qa.kiwi.example]
  uat: [timingwaits-uat.kiwi.example]
  perf: [timingwaits-perf.kiwi.example]
modules:
  chat: { scriptSrc: "https://chat.widgetvendor.example/kiwi/lab/loader.js", pages: [/], launcherSelector: "#launcher" }
tags:
  chat-flow: { enabled: true, script: { default: "https://flow.chatflowvendor.example/kiwi/lab-popup.js" }, chatFlow: { flowId: lab-flow, trigger: load } }
envs:
  qa: { timing: { ${SHORT}, retryInterval: 100 } }
  uat: { timing: { failover: 5000, failoverTrack: 4000, trackStage: 4000, routeChange: 4000, spaPage: 2500, elementPoll: 4000, widgetLink: 4000, retryAttempts: 30, retryInterval: 100 } }
  perf: { timing: { ${SHORT}, retryInterval: 1100 } }
rules:
  - { id: started, name: Rules started, events: [{ type: libraryLoaded }], actions: [{ type: pushDataLayer, data: { event: lab-started } }] }
  - { id: chat-link, name: The page's chat link at once, events: [{ type: libraryLoaded }], actions: [{ type: command, module: chat, name: open }] }
${send("mark", "{ type: timer, delay: 2000 }")}
${send("failover", "{ type: noPush, event: app-ready, wait: failover }")}
${send("failover-track", "{ type: noPush, event: order-result, after: order-submit, wait: failoverTrack }", "failoverTrack")}
${send("stage", "{ type: noPush, event: stage-next, after: stage, wait: trackStage }")}
${send("route", "{ type: routeChange }")}
${send("appeared", '{ type: elementExists, selector: "#late" }')}
${send("launched", "{ type: dataLayerPush, event: lab-launched }")}
${send("popup", "{ type: dataLayerPush, event: lab-popup }")}
`;

/** The shipped k12reports, its qa environment with loading 1000 (uat keeps the org's 4000), and a yardstick at 2500 ms. */
const K12 =
  readFileSync(new URL("../../sites/k12reports.yaml", import.meta.url), "utf8") +
  `${send("mark", "{ type: timer, delay: 2500 }")}
envs:
  qa: { timing: { loading: 1000 } }
`;

/**
 * The page: pushes before the bundle (an order submitted, a funnel stage);
 * 300 ms after the rules start a route change and the element #late; the
 * chat launcher pushes lab-launched when clicked.
 */
const LAB_PAGE = {
  dataLayer: [{ event: "order-submit" }, { event: "stage" }],
  before: [
    `(window.__sitetagsMonitors = window.__sitetagsMonitors || []).push(function (e) {
  if (e.type !== "dataLayer" || e.event !== "lab-started") return;
  setTimeout(function () {
    history.pushState({}, "", "/route-2");
    var d = document.createElement("div"); d.id = "late"; document.body.appendChild(d);
  }, 300);
});`,
  ],
  body: `<button id="launcher" onclick="kiwiDataLayer.push({ event: 'lab-launched' })">Chat</button>`,
};

let b: Record<"qa" | "uat" | "perf" | "k12qa" | "k12uat", Bundle>;
beforeAll(async () => {
  b = await buildBundles(
    { qa: ["timingwaits", "qa"], uat: ["timingwaits", "uat"], perf: ["timingwaits", "perf"], k12qa: ["k12reports", "qa"], k12uat: ["k12reports", "uat"] },
    { sitesDir: tempCatalogue({ "timingwaits.yaml": LAB, "k12reports.yaml": K12 }) },
  );
}, 240_000);

type Beacon = {
  events: Array<{ xdm: { eventType: string; web?: { webPageDetails?: { name?: string } } }; data?: { __adobe: { analytics: Record<string, string> } } }>;
};
const beacons = () =>
  h.web.find({ host: "edge.kiwi.example", method: "POST", path: /\/v1\/(interact|collect)$/ }).map((r: RecordedRequest) => (r.json as Beacon).events[0]);

/** The lab's records in the order the edge received them: lab.x as x, page views as "view". */
const labEvents = () =>
  beacons()
    .map((e) => e.xdm.eventType)
    .filter((t) => t.startsWith("lab.") || t === "web.webpagedetails.pageViews")
    .map((t) => (t.startsWith("lab.") ? t.slice(4) : "view"));

/** The records before and after the yardstick. */
function aroundMark(events: string[]): { before: string[]; after: string[] } {
  const at = events.indexOf("mark");
  return { before: events.slice(0, at), after: events.slice(at + 1) };
}

function mockVendors() {
  // The chat widget arrives 1.5 s after it is asked for.
  h.web.script("https://chat.widgetvendor.example/kiwi/lab/loader.js", { delayMs: 1500, body: "window.__chatWidget = 1;" });
  // The chat-flow vendor's object appears 2 s after its script ran.
  h.web.script("https://flow.chatflowvendor.example/kiwi/lab-popup.js", {
    body: `setTimeout(function () {
  window.kiwiChatFlow = { ready: function (cb) { cb(); }, showFlow: function (id) { kiwiDataLayer.push({ event: "lab-popup", flowId: id }); } };
}, 2000);`,
  });
}

async function openLab(bundle: Bundle, host: string) {
  mockVendors();
  return h.browser.openPage(h.web.page(`https://${host}/`, { bundle, ...LAB_PAGE }), { consentGroups: CONSENT.performanceAndFunctional });
}

const logMessages = async (tab: Awaited<ReturnType<typeof openLab>>) =>
  (await tab.page.evaluate(() => (window as any).sitetags.log.map((e: { message: string }) => e.message))) as string[];

describe('timing values from YAML, the rest (spec section 9 "Timeouts", issue #19)', () => {
  it('qa, the short values: failover 1500, failoverTrack 1000, trackStage 500 (the awaited pushes), routeChange 500, spaPage 500, elementPoll 100 all come before the 2 s yardstick; "widget link" 500: the chat link is given up before the widget comes; retryAttempts 3 x retryInterval 100: the popup vendor is not found', async () => {
    const tab = await openLab(b.qa, "timingwaits-qa.kiwi.example");
    await expect.poll(labEvents, { timeout: 12000 }).toContain("mark");
    // The chat-flow vendor comes 2 s after its script: give the popup time to have shown, were it still looked for.
    await tab.waitForMonitor({ type: "tag", tag: "chat-flow", state: "loaded" });
    await tab.page.waitForFunction(() => !!(window as any).kiwiChatFlow, undefined, { timeout: 10000 });
    await tab.page.evaluate(() => new Promise((done) => setTimeout(done, 300)));
    const { before, after } = aroundMark(labEvents());
    expect(before.filter((e) => e !== "view").sort()).toEqual(["appeared", "failover", "failoverTrack", "route", "stage"]);
    expect(before.filter((e) => e === "view")).toHaveLength(2); // the page load's, and the SPA view of /route-2
    expect(after).toEqual([]);
    const messages = await logMessages(tab);
    expect(messages).toContain("widget not loaded");
    expect(messages).toContain("timed out after 3 attempts");
  });

  it("uat, the long values, the same page: the yardstick first, then each wait; the chat link kept 4000 ms opens the widget that came at 1.5 s; 30 attempts find the popup vendor", async () => {
    const tab = await openLab(b.uat, "timingwaits-uat.kiwi.example");
    const expected = ["appeared", "failover", "failoverTrack", "launched", "popup", "route", "stage"];
    await expect.poll(() => labEvents().filter((e) => expected.includes(e)).length, { timeout: 15000 }).toBe(expected.length);
    const { before, after } = aroundMark(labEvents());
    // Only the page load's view before the yardstick (the launcher and popup records may come either side of it).
    expect(before.filter((e) => e !== "launched" && e !== "popup")).toEqual(["view"]);
    expect(after.filter((e) => e !== "launched" && e !== "popup").sort()).toEqual(["appeared", "failover", "failoverTrack", "route", "stage", "view"]);
    const messages = await logMessages(tab);
    expect(messages).not.toContain("widget not loaded");
    expect(messages.filter((m) => /^timed out after/.test(m))).toEqual([]);
  });

  it("perf: qa's values but retryInterval 1100: three attempts now span 2.2 s and find the popup vendor that qa's gave up on", async () => {
    const tab = await openLab(b.perf, "timingwaits-perf.kiwi.example");
    await expect.poll(labEvents, { timeout: 12000 }).toContain("popup");
    expect(labEvents().filter((e) => e === "popup")).toHaveLength(1);
    expect((await logMessages(tab)).filter((m) => /^timed out after/.test(m))).toEqual([]);
  });
});

describe('k12reports (shipped rules): "loading 4000" on the BI report view ("states loading, shown, no-data, error")', () => {
  const started = {
    event: "k12-bi-report",
    biReport: { name: "score-summary", status: "started", tab: "overview", orgLevel: "district", adminAcademicYear: "2024-25" },
  };
  const biRecords = () =>
    beacons()
      .filter((e) => e.xdm.eventType === "kiwi.biReport" || e.xdm.eventType === "lab.mark")
      .map((e) => (e.xdm.eventType === "lab.mark" ? "mark" : e.data!.__adobe.analytics.eVar112));
  const open = (bundle: Bundle, host: string) =>
    h.browser.openPage(h.web.page(`https://${host}/reports`, { bundle, dataLayer: [started] }), { consentGroups: CONSENT.performance });

  it("qa, loading 1000: a report started and not finished is recorded as still loading before the 2.5 s yardstick, with the report's variables", async () => {
    await open(b.k12qa, "k12reports-qa.kiwi.example");
    await expect.poll(biRecords, { timeout: 12000 }).toContain("mark");
    expect(biRecords()).toEqual(["started", "still-loading", "mark"]);
    const record = beacons().find((e) => e.data?.__adobe.analytics.eVar112 === "still-loading")!;
    expect(record.data!.__adobe.analytics).toMatchObject({
      events: "event65",
      eVar111: "score-summary",
      eVar113: "overview",
      eVar114: "district",
      eVar115: "2024-25",
    });
  });

  it("uat, the org's loading 4000: the same page records it after the yardstick, once", async () => {
    const tab = await open(b.k12uat, "k12reports-uat.kiwi.example");
    await expect.poll(biRecords, { timeout: 15000 }).toContain("still-loading");
    await tab.page.evaluate(() => new Promise((done) => setTimeout(done, 300)));
    expect(biRecords()).toEqual(["started", "mark", "still-loading"]);
  });
});

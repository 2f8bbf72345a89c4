/**
 * Task "tagsA" (issue 20): the guided-help vendor family and personalisation
 * in Chromium, on the shipped catalogue's bundles, at the network level.
 * Every vendor is a local mock under a fictional host that records what the
 * page asked of it; the mock edge records every request.
 *
 * - Guided help (apclassroom QA): the consent matrix of the tag (functional:
 *   every consent state, GPC, a late grant, a withdrawal, cb-disable), the
 *   vendor's flow and survey events turned into the pushes apclassroom's YAML
 *   records consume (records at the mock edge: the flow, its flags, the step
 *   time in tenths of a second, the error with type AppCues), and "guidance
 *   widget not available" when the vendor never arrives.
 * - Personalisation (apclassroom QA): a page view carries the query for
 *   capture_ddl, the mock edge answers with a proposition, the decision is
 *   applied (a personalization-decision push) and its display notified at the
 *   mock edge; without performance consent (or with
 *   cb-disable-personalization) nothing of it happens; a late grant.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  buildBundles,
  CONSENT_CATEGORIES,
  groupsFor,
  settle,
  signInCookies,
  useBrowserHarness,
  type Bundle,
  type ConsentCategoryName,
  type RecordedRequest,
  type TestPage,
} from "./harness/index.js";

const h = useBrowserHarness();
/** A signed-in student, and what the guided-help vendor is told of them. */
const SIGNED_IN = signInCookies({ sessionId: "S-1", accountId: "A-1", profileType: "ECL" }, { typ: "Bearer", namespace: "st", hashedId: "h-1" });
const IDENTIFIED = { namespace: "st", accountType: "ECL", gradeLevel: "", jobTitle: "Student" };

let b: Record<"guide" | "go", Bundle>;
beforeAll(async () => {
  b = await buildBundles({ guide: ["apclassroom", "qa"], go: ["go", "prod"] });
}, 240_000);

type Beacon = { events: Array<{ xdm: Record<string, any>; data?: { __adobe: { analytics: Record<string, string> } } }> };
const beacons = (): Beacon[] =>
  h.web.find({ host: "edge.kiwi.example", method: "POST", path: /\/v1\/(interact|collect)$/ }).map((r: RecordedRequest) => r.json as Beacon);
const records = (eventType: string) =>
  beacons()
    .map((x) => x.events[0])
    .filter((e) => e.xdm.eventType === eventType)
    .map((e) => ({ name: e.xdm.web?.webInteraction?.name, variables: e.data?.__adobe.analytics ?? {} }));

describe("guided help (apclassroom QA, the shipped catalogue)", () => {
  const GUIDE = "guide.guidedhelpvendor.example";
  const SCRIPT = `https://${GUIDE}/kiwi/guide.js`;
  const scriptRequests = () => h.web.find({ host: GUIDE, path: "/kiwi/guide.js" }).length;
  /** The vendor's mock (AppCues-like): on(name, handler); it reports what the page asked of it to its own host; the test plays flow events through __guide.emit. */
  const mockVendor = (identify = true) =>
    h.web.script(SCRIPT, {
      body: `(function () {
  var report = function (q) { new Image().src = "https://${GUIDE}/record?" + q; };
  var handlers = [];
  window.kiwiGuide = { on: function (name, fn) { report("on=" + encodeURIComponent(name)); handlers.push(fn); } };
  if (${identify}) window.kiwiGuide.identify = function (id, props) { report("identify=" + encodeURIComponent(id) + "&props=" + encodeURIComponent(JSON.stringify(props))); };
  window.__guide = { emit: function (name, e) { handlers.forEach(function (fn) { fn(name, e); }); } };
})();`,
    });

  async function open(groups?: string, query = "", cookies?: string[]): Promise<TestPage> {
    const url = h.web.page("https://apclassroom-qa.kiwi.example/page", { bundle: b.guide, cookies }) + query;
    const tab = await h.browser.openPage(url, { consentGroups: groups });
    await tab.waitForMonitor({ type: "boot", site: "apclassroom" });
    return tab;
  }
  /** The tag decided (and loaded if allowed), then a pause in which a wrong load would have come. */
  async function decided(tab: TestPage, allowed: boolean): Promise<void> {
    await tab.page.waitForFunction(() => document.readyState === "complete");
    await tab.waitForMonitor({ type: "tag", tag: "guided-help" });
    if (allowed) await h.web.waitForRequest({ host: GUIDE, path: "/kiwi/guide.js" }, { timeoutMs: 8000 });
    await settle(400);
  }

  const STATES: Array<[string, ConsentCategoryName[]]> = [
    ["pre-opt-in (necessary only)", []],
    ...CONSENT_CATEGORIES.map((c): [string, ConsentCategoryName[]] => [`${c} alone`, [c]]),
    ["everything", [...CONSENT_CATEGORIES]],
  ];
  it.each(STATES)('consent matrix: %s: "a tag runs only if consent for its category is given" (functional), once, at DOM ready', async (_, granted) => {
    const allowed = granted.includes("functional");
    const tab = await open(groupsFor(granted));
    await decided(tab, allowed);
    expect(scriptRequests()).toBe(allowed ? 1 : 0);
  });

  it("consent matrix: no answer from the banner, nothing; a late grant loads it once; a withdrawal and a grant again load nothing twice; GPC does not block a functional tag", async () => {
    const tab = await open();
    await decided(tab, false);
    expect(scriptRequests()).toBe(0);
    await tab.setConsent(groupsFor(["functional"]));
    await h.web.waitForRequest({ host: GUIDE, path: "/kiwi/guide.js" });
    await tab.setConsent(groupsFor([]));
    await tab.setConsent(groupsFor(["functional"]));
    await settle(400);
    expect(scriptRequests()).toBe(1);

    const gpc = await h.browser.openPage(h.web.page("https://apclassroom-qa.kiwi.example/gpc", { bundle: b.guide }), {
      consentGroups: groupsFor([...CONSENT_CATEGORIES]),
      initScripts: ["Object.defineProperty(navigator, 'globalPrivacyControl', { get: () => true })"],
    });
    await gpc.waitForMonitor({ type: "tag", tag: "guided-help", state: "loaded" });
    expect(scriptRequests()).toBe(2);
  });

  it('consent matrix: "A query parameter cb-disable-{tagcode} disables that tag"', async () => {
    const tab = await open(groupsFor([...CONSENT_CATEGORIES]), "?cb-disable-guided-help=1");
    await decided(tab, false);
    expect(scriptRequests()).toBe(0);
  });

  it("the vendor's flow and survey events become the records of apclassroom's YAML rules (flags, step time in tenths of a second, the error with type AppCues)", async () => {
    mockVendor();
    const tab = await open(groupsFor([...CONSENT_CATEGORIES]));
    await tab.waitForMonitor({ type: "guidedHelp", tag: "guided-help", state: "listening" });
    await expect.poll(() => h.web.find({ host: GUIDE, path: "/record" }).map((r) => r.query.on)).toEqual(["all"]);
    await tab.page.evaluate(() => {
      const g = (window as any).__guide;
      const flow = { flowId: "f-9", flowName: "Assign a quiz" };
      g.emit("flow_started", { ...flow, timestamp: 1_000_000 });
      g.emit("step_started", { ...flow, stepId: "s1", stepNumber: 1, timestamp: 1_000_100 });
      g.emit("step_interacted", {
        ...flow,
        stepId: "s1",
        stepNumber: 1,
        stepChildNumber: 2,
        interaction: { element: "Next", destination: "https://apclassroom-qa.kiwi.example/quiz" },
      });
      g.emit("step_completed", { ...flow, stepId: "s1", stepNumber: 1, timestamp: 1_012_449 });
      g.emit("flow_error", { ...flow, stepId: "s2", stepNumber: 2 });
      g.emit("nps_score", { flowId: "s-77", flowName: "Was this helpful?", score: 9 });
      g.emit("checklist_shown", { flowId: "c-1" }); // a vendor event the settings do not name: nothing
    });
    await expect.poll(() => records("kiwi.guidedHelp").length, { timeout: 8000 }).toBe(5);
    await expect.poll(() => records("kiwi.guidedHelpSurvey").length, { timeout: 8000 }).toBe(1);
    await expect.poll(() => records("kiwi.applicationError").length, { timeout: 8000 }).toBe(1);
    await settle(300);
    const flow = records("kiwi.guidedHelp");
    expect(flow.map((r) => r.name)).toEqual(Array(5).fill("guided help:f-9"));
    expect(flow.map((r) => r.variables.events)).toEqual([
      "event171,event170",
      "event172,event170",
      "event173,event170",
      "event174,event170",
      "event177,event170",
    ]);
    for (const r of flow) expect(r.variables).toMatchObject({ eVar230: "f-9", eVar231: "Assign a quiz" });
    // The flow's start has no step: its variable is left out, not sent empty (as AppMeasurement leaves it out).
    expect(flow.map((r) => r.variables.eVar232)).toEqual([undefined, "1", "1", "1", "2"]);
    expect(flow[0].variables).not.toHaveProperty("eVar232");
    expect(flow[2].variables).toMatchObject({ eVar233: "2", eVar234: "Next", eVar236: "https://apclassroom-qa.kiwi.example/quiz" });
    // 12.349 s from the step's start to its time spent: 123 tenths of a second.
    expect(flow[3].variables.eVar237).toBe("123");
    const errors = records("kiwi.applicationError");
    expect(errors[0]).toEqual({ name: "error:f-9", variables: expect.objectContaining({ events: "event50", eVar98: "AppCues" }) });
    expect(records("kiwi.guidedHelpSurvey")[0].variables).toMatchObject({ events: "event178", eVar230: "s-77", eVar238: "9" });
    expect(await tab.page.evaluate(() => (window as any).sitetags.commands.guidedHelp.guidedHelpPushes().length)).toBe(6);
    expect(await tab.cspViolations()).toEqual([]);
  });

  it('"no appcues object or identified variables": a signed-in visitor is identified to the vendor (apclassroom\'s YAML rule guided-help-identify: the hashed id and the facts its flows target); an anonymous one is not; a vendor without identify gets the message', async () => {
    const identified = () =>
      h.web
        .find({ host: GUIDE, path: "/record" })
        .filter((r) => r.query.identify)
        .map((r) => [r.query.identify, JSON.parse(r.query.props!)]);
    mockVendor();
    const signedIn = await open(groupsFor([...CONSENT_CATEGORIES]), "", SIGNED_IN);
    await signedIn.waitForMonitor({ type: "guidedHelp", state: "identified" });
    await expect.poll(identified).toEqual([["h-1", IDENTIFIED]]);

    const anonymous = await open(groupsFor([...CONSENT_CATEGORIES]), "?anonymous");
    await anonymous.waitForMonitor({ type: "guidedHelp", tag: "guided-help", state: "listening" });
    await settle(400);
    expect(identified()).toHaveLength(1);
    expect((await anonymous.logEntries()).map((e) => e.message)).not.toContain("no appcues object or identified variables");

    mockVendor(false);
    const noIdentify = await open(groupsFor([...CONSENT_CATEGORIES]), "?no-identify", SIGNED_IN);
    await noIdentify.waitForMonitor({ type: "guidedHelp", tag: "guided-help", state: "listening" });
    await expect.poll(async () => (await noIdentify.logEntries()).map((e) => e.message)).toContain("no appcues object or identified variables");
    expect(identified()).toHaveLength(1);
  });

  it('"guidance widget not available" when the vendor never arrives (its script loads without it; 5000 ms from the config)', async () => {
    const tab = await open(groupsFor(["functional"]));
    await tab.waitForMonitor({ type: "tag", tag: "guided-help", state: "loaded" });
    await tab.waitForMonitor({ type: "guidedHelp", tag: "guided-help", state: "unavailable" }, { timeoutMs: 9000 });
    expect((await tab.logEntries()).map((e) => e.message)).toContain("guidance widget not available");
  });
});

describe("personalisation (apclassroom QA, the shipped catalogue): the proposition fetch, the decision applied, its display notified", () => {
  const PROPOSITION = {
    id: "prop-1",
    scope: "capture_ddl",
    scopeDetails: { decisionProvider: "TGT", activity: { id: "act-1" } },
    items: [
      {
        id: "item-1",
        schema: "https://ns.adobe.com/personalization/json-content-item",
        data: { id: "item-1", format: "application/json", content: { segment: "returning-student" } },
      },
    ],
  };
  /** The mock edge: every page view is answered with a capture_ddl proposition, whether it asked or not. */
  const answerPropositions = () =>
    (h.web.edge.handler = (r) => {
      const event = (r.json as Beacon | undefined)?.events?.[0];
      const handle = event?.xdm.eventType === "web.webpagedetails.pageViews" ? [{ type: "personalization:decisions", payload: [PROPOSITION] }] : [];
      return { status: 200, body: { requestId: r.query.requestId, handle } };
    });
  const edgeEvents = () =>
    h.web
      .find({ host: "edge.kiwi.example", method: "POST", path: /\/v1\/(interact|collect)$/ })
      .map((r) => (r.json as Beacon & { events: Array<{ query?: any }> }).events[0]);
  const pageViews = () => edgeEvents().filter((e) => e.xdm.eventType === "web.webpagedetails.pageViews");
  const displays = () => edgeEvents().filter((e) => e.xdm.eventType === "decisioning.propositionDisplay");

  async function open(groups: string, options: { query?: string; gpc?: boolean } = {}): Promise<TestPage> {
    const url = h.web.page("https://apclassroom-qa.kiwi.example/classes", { bundle: b.guide }) + (options.query ?? "");
    const tab = await h.browser.openPage(url, {
      consentGroups: groups,
      initScripts: options.gpc ? ["Object.defineProperty(navigator, 'globalPrivacyControl', { get: () => true })"] : [],
    });
    await tab.waitForMonitor({ type: "boot", site: "apclassroom" });
    return tab;
  }

  it('with performance consent: "a page view carries the query for capture_ddl, the mock edge answers with a proposition, and the display notification follows"; the decision is applied as a data-layer push; storage counts it', async () => {
    answerPropositions();
    const tab = await open(groupsFor(["performance"]));
    await expect.poll(() => displays().length, { timeout: 8000 }).toBe(1);
    const view = pageViews()[0];
    expect(view.query.personalization.decisionScopes).toEqual(["capture_ddl"]);
    expect(view.query.personalization.schemas).toContain("https://ns.adobe.com/personalization/json-content-item");
    const display = displays()[0];
    expect(display.xdm._experience).toEqual({
      decisioning: { propositions: [{ id: "prop-1", scope: "capture_ddl", scopeDetails: PROPOSITION.scopeDetails }], propositionEventType: { display: 1 } },
    });
    expect(display.xdm.web.webPageDetails.URL).toBe("https://apclassroom-qa.kiwi.example/classes");
    const applied = await tab.page.evaluate(() => (window as any).kiwiDataLayer.filter((p: any) => p && p.event === "personalization-decision"));
    expect(applied).toEqual([
      { event: "personalization-decision", scope: "capture_ddl", propositionId: "prop-1", content: [{ segment: "returning-student" }] },
    ]);
    const stored = await tab.page.evaluate(() =>
      Object.keys(localStorage)
        .filter((k) => k.startsWith("sitetags.personalization."))
        .map((k) => JSON.parse(localStorage[k])),
    );
    expect(stored).toEqual([{ "prop-1": { count: 1, last: expect.any(Number) } }]);
    await settle(400);
    expect(displays()).toHaveLength(1);
    // No data-layer check complains about the bundle's own push (QA carries them).
    expect((await tab.logEntries()).filter((e) => /personalization-decision/.test(JSON.stringify(e)))).toEqual([]);
  });

  it('a production bundle (prod/go, one of the production sites with "page-view personalization enabled"): the page view asks for capture_ddl, the proposition is applied and its display notified once', async () => {
    answerPropositions();
    const url = h.web.page("https://go.kiwi.example/", { bundle: b.go });
    const tab = await h.browser.openPage(url, { consentGroups: groupsFor(["performance"]) });
    await tab.waitForMonitor({ type: "boot", site: "go" });
    await expect.poll(() => displays().length, { timeout: 8000 }).toBe(1);
    expect(pageViews()).toHaveLength(1);
    expect(pageViews()[0].query.personalization.decisionScopes).toEqual(["capture_ddl"]);
    expect(displays()[0].xdm._experience.decisioning.propositions).toEqual([{ id: "prop-1", scope: "capture_ddl", scopeDetails: PROPOSITION.scopeDetails }]);
    const applied = await tab.page.evaluate(() => (window as any).kiwiDataLayer.filter((p: any) => p && p.event === "personalization-decision"));
    expect(applied).toEqual([
      { event: "personalization-decision", scope: "capture_ddl", propositionId: "prop-1", content: [{ segment: "returning-student" }] },
    ]);
    await settle(400);
    expect(displays()).toHaveLength(1);
  });

  const WITHOUT: Array<[string, string, { query?: string; gpc?: boolean }]> = [
    ["pre-opt-in (necessary only)", groupsFor([]), {}],
    ["functional, marketing and the program categories, not performance", groupsFor(["functional", "marketing", "programFunctional", "programMarketing"]), {}],
    ["everything but ?cb-disable-personalization", groupsFor([...CONSENT_CATEGORIES]), { query: "?cb-disable-personalization=1" }],
  ];
  it.each(WITHOUT)("without performance consent (%s) nothing of it happens, even when the edge answers a proposition", async (_, groups, options) => {
    answerPropositions();
    const tab = await open(groups, options);
    // Decided: the gate blocked the tag on a page view sent, or no page view goes at all (the SDK consent is not in).
    await tab.page.waitForFunction(
      () =>
        ((window as any).__sitetagsEvents ?? []).some(
          (e: any) =>
            (e.type === "tag" && e.tag === "personalization" && e.state === "blocked") ||
            (e.type === "log" && ["Consent is pending.", "The user declined consent."].includes(e.message)),
        ),
      undefined,
      { timeout: 8000 },
    );
    await settle(600);
    for (const view of pageViews()) expect(view.query).toBeUndefined();
    expect(displays()).toEqual([]);
    expect(await tab.page.evaluate(() => (window as any).kiwiDataLayer.filter((p: any) => p && p.event === "personalization-decision").length)).toBe(0);
  });

  it("a late grant of performance: the queued page view goes with the query, and one display notification follows", async () => {
    answerPropositions();
    const tab = await open(groupsFor([]));
    await tab.waitForMonitor({ type: "log", message: "Consent is pending." }, { timeoutMs: 8000 });
    expect(pageViews()).toEqual([]);
    await tab.setConsent(groupsFor(["performance"]));
    await expect.poll(() => displays().length, { timeout: 8000 }).toBe(1);
    expect(pageViews().map((v) => v.query.personalization.decisionScopes)).toEqual([["capture_ddl"]]);
    await settle(400);
    expect(displays()).toHaveLength(1);
  });

  it("everything and GPC (a performance tag is not a marketing one): the fetch happens", async () => {
    answerPropositions();
    await open(groupsFor([...CONSENT_CATEGORIES]), { gpc: true });
    await expect.poll(() => displays().length, { timeout: 8000 }).toBe(1);
    expect(pageViews()[0].query.personalization.decisionScopes).toEqual(["capture_ddl"]);
  });
});

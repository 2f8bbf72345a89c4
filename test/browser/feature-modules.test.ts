/**
 * The score-view, SAT-funnel and test-order modules in real Chromium, on the
 * catalogue's production bundles of the sites that enable them (satreg,
 * scores, schoolday; sites/*.yaml `modules:`), reading what reaches the
 * mock edge. docs/modules.md documents the pushes and what is sent.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildBundles, CONSENT, settle, SITES_DIR, useBrowserHarness, type Bundle, type RecordedRequest, type TestPage } from "./harness/index.js";

const h = useBrowserHarness();

type Beacon = { events: Array<{ xdm: Record<string, any>; data?: { __adobe: { analytics: Record<string, string> } } }> };
/** Analytics beacons (interact and collect; the edge's identity and consent calls are not beacons). */
const beacons = (): Beacon[] =>
  h.web
    .find((r: RecordedRequest) => r.host === "edge.kiwi.example" && r.method === "POST" && /\/v1\/(interact|collect)$/.test(r.path))
    .map((r: RecordedRequest) => r.json as Beacon)
    .filter((x) => x && Array.isArray(x.events) && x.events.length > 0);
const xdmOf = (b: Beacon) => b.events[0].xdm;
const varsOf = (b: Beacon) => b.events[0].data?.__adobe.analytics ?? {};
/** A beacon as "eventType name" (the page name of a page view, the interaction name otherwise). */
const label = (b: Beacon) => {
  const x = xdmOf(b);
  return x.eventType + " " + (x.eventType === "web.webpagedetails.pageViews" ? x.web.webPageDetails.name : x.web.webInteraction.name);
};
/** The beacons this file is about: page views and the modules' own (the runtime's other tracking, web vitals and the like, is left out). */
const OURS = /^(web\.webpagedetails\.pageViews|commerce\.purchases|kiwi\.(scoreView|satFunnel|testOrder|applicationError))$/;
const ours = (): Beacon[] => beacons().filter((x) => OURS.test(xdmOf(x).eventType));
const pageViewNames = () =>
  ours()
    .filter((x) => xdmOf(x).eventType === "web.webpagedetails.pageViews")
    .map((x) => xdmOf(x).web.webPageDetails.name as string);
async function beaconCount(n: number, timeoutMs = 10_000): Promise<Beacon[]> {
  const until = Date.now() + timeoutMs;
  while (ours().length < n && Date.now() < until) await settle(25);
  return ours();
}
async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check() && Date.now() < end) await settle(25);
}
const logOf = (tab: TestPage): Promise<Array<[string, string]>> => tab.page.evaluate(() => (window as any).sitetags.log.map((e: any) => [e.level, e.message]));

let b: Record<"satreg" | "scores" | "schoolday" | "go", Bundle>;
/** satreg, whose errorCode data element reads the funnel's funnelErrorCode (sites/satreg.yaml; docs/modules.md, "Application errors"). */
let satregErrors: Bundle;
beforeAll(async () => {
  b = await buildBundles({ satreg: ["satreg", "prod"], scores: ["scores", "prod"], schoolday: ["schoolday", "prod"], go: ["go", "prod"] });
  expect(readFileSync(join(SITES_DIR, "satreg.yaml"), "utf8")).toContain("errorCode: { provided: funnelErrorCode }");
  satregErrors = b.satreg;
}, 240_000);

describe("bundles", () => {
  it("each site carries exactly the modules its YAML enables, and no other feature module's code", () => {
    expect(b.satreg.modules.sort()).toEqual(["satFunnel", "scoreViews"]);
    expect(b.scores.modules).toEqual(["scoreViews"]);
    expect(b.schoolday.modules).toEqual(["testOrders"]);
    expect(b.go.modules).toEqual([]);
    const markers = { scoreViews: "kiwi.scoreView", satFunnel: "kiwi.satFunnel", testOrders: "kiwi.testOrder" } as const;
    for (const bundle of Object.values(b))
      for (const [name, marker] of Object.entries(markers)) expect(bundle.code.includes(marker), `${bundle.site} ${name}`).toBe(bundle.modules.includes(name));
    for (const text of ["Latest score not available", "changereg-steps", "administration name must be"]) expect(b.go.code).not.toContain(text);
    expect(b.satreg.report.moduleBytes.satFunnel).toBeGreaterThan(0);
  });
});

// A registration page by page is a dozen page loads in one test: 23 s beside other browser tests, over the 30 s default under more load.
describe("SAT funnel (satreg)", { timeout: 90_000 }, () => {
  const NEWREG = [
    "start",
    "profile-start",
    "profile-personalinfo",
    "profile-demographics",
    "profile-sdq",
    "datetc-start",
    "terms",
    "datetc-chooseregion",
    "datetc-choosetest",
    "datetc-choosedate",
    "datetc-choosecenter",
    "datetc-accept",
    "datetc-complete",
    "photo-start",
    "photo-review",
    "photo-instructions",
    "photo-upload",
    "photo-uploadadjust",
    "photo-checklist",
    "photo-accept",
    "photo-complete",
    "order-crosssell",
    "order-review",
    "order-accept",
    "order-complete",
  ];
  /** /register/ + the page with its first hyphen as a slash: datetc-choosecenter -> /register/datetc/choosecenter. */
  const pathOf = (page: string) => "/register/" + page.replace("-", "/");

  it("a full new registration, page by page: flow:page page names for every page, registration data, the order-complete purchase", async () => {
    const data = { satRegNo: "R5550001", adminDate: "2030/10/05", adminCode: "OCT30", registrantType: "repeat", deviceChoice: "N/A" };
    for (const page of NEWREG) {
      const pushes: unknown[] = [];
      if (page === "datetc-choosedate") pushes.push({ event: "registration-step", ...data });
      if (page === "order-complete") pushes.push({ event: "registration-step", ...data, orderId: "W9001", features: ["late", "xsell"] });
      h.web.page("https://satreg.kiwi.example" + pathOf(page), { bundle: b.satreg, dataLayer: pushes });
    }
    const tab = await h.browser.openPage("https://satreg.kiwi.example" + pathOf(NEWREG[0]), { consentGroups: CONSENT.performance });
    await beaconCount(1);
    for (const page of NEWREG.slice(1)) {
      await tab.goto("https://satreg.kiwi.example" + pathOf(page));
      await until(() => pageViewNames().includes("satreg:newreg:" + page));
    }
    await until(() => ours().some((x) => xdmOf(x).eventType === "commerce.purchases"));
    await settle(300);
    const all = ours();
    const expected = [...NEWREG.map((p) => "web.webpagedetails.pageViews satreg:newreg:" + p), "commerce.purchases satreg:newreg:order-complete:purchase"];
    expect(all.map(label).sort()).toEqual([...expected].sort());
    expect(pageViewNames()).toEqual(NEWREG.map((p) => "satreg:newreg:" + p));
    const purchase = all.find((x) => xdmOf(x).eventType === "commerce.purchases")!;
    expect(varsOf(purchase)).toMatchObject({
      events: "purchase",
      purchaseID: "srW9001",
      eVar30: "W9001",
      eVar43: "SAT Registration",
      eVar44: "core|late|xsell",
    });
    expect(varsOf(purchase)).toMatchObject({ eVar31: "R5550001", eVar34: "OCT30", eVar35: "20301005", eVar36: "repeat", eVar37: "none" });
    expect(varsOf(purchase).eVar38).toBeUndefined(); // deviceChoice N/A blanks it
    const chooseDate = all.find((x) => xdmOf(x).web.webPageDetails?.name === "satreg:newreg:datetc-choosedate")!;
    expect(varsOf(chooseDate)).toMatchObject({ eVar31: "R5550001", eVar35: "20301005" });
    expect(tab.pageErrors).toEqual([]);
  });

  it("in the SPA: each registration-step for another page is one page view named flow:page (the runtime's SPA view, after timing.spaPage)", async () => {
    const url = h.web.page("https://satreg.kiwi.example/register*", {
      bundle: b.satreg,
      dataLayer: [{ event: "registration-step", flow: "newreg", page: "start" }],
    });
    const tab = await h.browser.openPage(url.replace("*", ""), { consentGroups: CONSENT.performance });
    await beaconCount(1);
    // A route change announced by the app; then an app that keeps one URL and announces the view with flow and page.
    await tab.page.evaluate(() => {
      history.pushState({}, "", "/register/profile/start");
      (window as any).kiwiDataLayer.push({ event: "registration-step" });
    });
    await beaconCount(2);
    await tab.page.evaluate(() => (window as any).kiwiDataLayer.push({ event: "registration-step", flow: "newreg", page: "profile-personalinfo" }));
    await beaconCount(3);
    await settle(1800); // past timing.spaPage: no further view
    expect(ours().map(label)).toEqual([
      "web.webpagedetails.pageViews satreg:newreg:start",
      "web.webpagedetails.pageViews satreg:newreg:profile-start",
      "web.webpagedetails.pageViews satreg:newreg:profile-personalinfo",
    ]);
    expect(tab.pageErrors).toEqual([]);
  });

  it("a change registration over full page loads: the steps kept in session storage, sent with the purchase (prefix sc), then cleared", async () => {
    const pages: Array<[string, string | null]> = [
      ["/register/manage", null],
      ["/register/change/terms", null],
      ["/register/change/profile/start", "profile"],
      ["/register/change/profile/personalinfo", "profile"],
      ["/register/change/datetc/choosecenter", "profile,test-center"],
      ["/register/change/datetc/accept", "profile,test-center"],
      ["/register/change/order/review", "profile,test-center"],
    ];
    for (const [path] of pages) h.web.page("https://satreg.kiwi.example" + path, { bundle: b.satreg });
    h.web.page("https://satreg.kiwi.example/register/change/order/complete", {
      bundle: b.satreg,
      dataLayer: [{ event: "registration-step", orderId: "C4242" }],
    });
    const tab = await h.browser.openPage("https://satreg.kiwi.example/register/manage", { consentGroups: CONSENT.performance });
    await tab.page.evaluate(() => sessionStorage.setItem("sitetags:changereg-steps", "photo")); // left over from an earlier, abandoned change
    const stored: Array<string | null> = [];
    for (const [path] of pages) {
      await tab.goto("https://satreg.kiwi.example" + path);
      stored.push(await tab.page.evaluate(() => sessionStorage.getItem("sitetags:changereg-steps")));
    }
    expect(stored).toEqual(pages.map(([, steps]) => steps).map((s, i) => (i === 0 ? "photo" : s)));
    await tab.goto("https://satreg.kiwi.example/register/change/order/complete");
    await until(() => pageViewNames().includes("satreg:changereg:order-complete") && ours().some((x) => xdmOf(x).eventType === "commerce.purchases"));
    await settle(200);
    const all = ours();
    const names = pageViewNames();
    expect(names).toContain("satreg:changereg:dashboard");
    expect(names).toContain("satreg:changereg:datetc-choosecenter");
    expect(names).toContain("satreg:changereg:order-complete");
    const purchases = all.filter((x) => xdmOf(x).eventType === "commerce.purchases");
    expect(purchases).toHaveLength(1);
    expect(varsOf(purchases[0])).toMatchObject({
      events: "purchase",
      purchaseID: "scC4242",
      eVar30: "C4242",
      eVar43: "SAT Registration Change",
      eVar45: "profile,test-center",
    });
    expect(await tab.page.evaluate(() => sessionStorage.getItem("sitetags:changereg-steps"))).toBeNull();
    expect(await tab.page.evaluate(() => (window as any).sitetags.commands.satFunnel.changeSteps())).toEqual([]);
  });

  it("a payment-page error: the org rule sends it with the application id and flow code appended (errorCode reads funnelErrorCode); widget and seat-hold pushes", async () => {
    const url = h.web.page("https://satreg.kiwi.example/register/payment", { bundle: satregErrors });
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.performance });
    await beaconCount(1);
    await tab.page.evaluate(() => {
      const dl = (window as any).kiwiDataLayer;
      dl.push({ event: "application-error", code: "card-declined", message: "Card declined" });
      dl.push({ event: "funnel-widget", action: "tos-accept" });
      dl.push({ event: "seat-hold", minutesLeft: 4 });
      dl.push({ event: "application-error", code: "svc-timeout", type: "session-timeout" });
    });
    await beaconCount(5);
    await settle(300);
    expect(ours().map(label).sort()).toEqual(
      [
        "web.webpagedetails.pageViews satreg:register:payment",
        "kiwi.applicationError error:card-declined:33:satreg",
        "kiwi.satFunnel satreg:widget:tos-accept",
        "kiwi.satFunnel satreg:seat-hold:5",
        "kiwi.applicationError error:svc-timeout:33:satreg",
      ].sort(),
    );
    // "Application-error event carries code, message, type, count 1": each push's own message and type (push: data elements), never the previous error's.
    expect(varsOf(ours().find((x) => label(x).includes("card-declined"))!)).toMatchObject({ events: "event50", eVar97: "Card declined" });
    const timeout = varsOf(ours().find((x) => label(x).includes("svc-timeout"))!);
    expect(timeout).toMatchObject({ events: "event50", eVar98: "session-timeout" });
    expect(timeout.eVar97 ?? "").toBe("");
  });
});

describe("score views", () => {
  const sat = {
    admin_event: { asmt_event_id: "5501", event_start_dt: "2024-10-05", asmt_family_cd: 1, event_title: "SAT", admin_yyyymm: "202410", asmt_id: "99" },
    assessmentIndicators: { scoreAvailableInd: "Y" },
  };
  const psat = {
    admin_event: { asmt_event_id: 7001, event_start_dt: "2022-10-12", asmt_family_cd: 3, event_title: "PSAT/NMSQT", admin_yyyymm: "202210", asmt_id: 12 },
    assessmentIndicators: { scoreAvailableInd: "Y" },
  };
  const scores = [
    sat,
    { admin_event: { asmt_event_id: "8100", asmt_family_cd: 3, event_title: "PSAT Practice Round" }, assessmentIndicators: { scoreAvailableInd: "Y" } },
    { admin_event: { asmt_event_id: "8200", asmt_family_cd: 1, event_title: "SAT" }, assessmentIndicators: { scoreAvailableInd: "N" } },
    { admin_event: { asmt_family_cd: 1, event_title: "SAT" }, assessmentIndicators: { scoreAvailableInd: "Y" } },
    psat,
    sat,
  ];

  it("a score report page with a mixed list: exactly the SAT and PSAT views, the catalogue's logs, and a reset data layer", async () => {
    const url = h.web.page("https://scores.kiwi.example/scores/details", { bundle: b.scores, dataLayer: [{ event: "score-view", scores }] });
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.performance });
    await beaconCount(3);
    await settle(300);
    const views = ours().filter((x) => xdmOf(x).eventType === "kiwi.scoreView");
    expect(ours()).toHaveLength(3);
    expect(views.map((x) => [xdmOf(x).web.webInteraction.name, varsOf(x).events]).sort()).toEqual([
      ["score view:psat:psat-nmsqt-t-202210-12", "event88,event119:psat-nmsqt-2022f"],
      ["score view:sat:sat-202410-99", "event24,event118:5501"],
    ]);
    expect(views.map((x) => varsOf(x)).find((v) => v.eVar61 === "5501")).toMatchObject({
      eVar60: "sat-202410-99",
      eVar62: "sat",
      eVar63: "20241005",
      eVar64: "not-avail",
      eVar65: "not-avail",
      eVar66: "not-avail",
      prop60: "score-details",
    });
    const log = (await logOf(tab)).filter(([, m]) => /score/i.test(m));
    expect(log).toEqual([
      ["warn", "Unrecognized Score View found (not tracked)"],
      ["info", "Latest score not available"],
      ["warn", "admin_event.asmt_event_id not found for this score"],
    ]);
    // The score data was reset: the last push is the reset, and tracking what the data layer holds now finds nothing.
    expect(await tab.page.evaluate(() => (window as any).kiwiDataLayer.slice(-1))).toEqual([{ scores: null }]);
    expect(await tab.page.evaluate(() => (window as any).sitetags.commands.scoreViews.track())).toBe(0);
    expect((await logOf(tab)).slice(-1)).toEqual([["info", "No scores found to process/track"]]);
    expect(tab.pageErrors).toEqual([]);
  });

  it("elsewhere on the site: the warning, and nothing sent", async () => {
    const url = h.web.page("https://scores.kiwi.example/account", { bundle: b.scores, dataLayer: [{ event: "score-view", scores }] });
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.performance });
    await beaconCount(1);
    await settle(300);
    expect(ours().map((x) => xdmOf(x).eventType)).toEqual(["web.webpagedetails.pageViews"]);
    expect((await logOf(tab)).filter(([, m]) => /score/i.test(m))).toEqual([["warn", "Not on a page where we expect to track SAT/PSAT Score Views"]]);
  });

  it("the registration site tracks them on its dashboard", async () => {
    const url = h.web.page("https://satreg.kiwi.example/dashboard", { bundle: b.satreg });
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.performance });
    await beaconCount(1);
    await tab.page.evaluate((list) => (window as any).kiwiDataLayer.push({ event: "score-view", scores: list }), [sat]);
    const all = await beaconCount(2);
    expect(varsOf(all.find((x) => xdmOf(x).eventType === "kiwi.scoreView")!)).toMatchObject({ events: "event24,event118:5501", prop60: "dashboard" });
  });
});

describe("test orders (schoolday)", () => {
  it("a test-order edit: quantities increased and decreased with the amount, grades added and removed, allocated schools scale, coverage", async () => {
    const url = h.web.page("https://schoolday.kiwi.example/orders/TO-2024-0042/edit", { bundle: b.schoolday });
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.performance });
    await beaconCount(1);
    await tab.page.evaluate(() =>
      (window as any).kiwiDataLayer.push({
        event: "test-order",
        orderId: "TO-2024-0042",
        tests: [
          {
            name: "PSAT/NMSQT",
            previousOrderQty: 120,
            updatedOrderQty: 150,
            adminYear: "2024",
            semester: "fall",
            grades: ["10", "11"],
            previousGrades: ["10"],
            allocatedSchools: 12,
          },
          { name: "PSAT 8/9", previousOrderQty: 60, updatedOrderQty: 45, grades: ["8"], previousGrades: ["8", "9"], allocatedSchools: 4 },
        ],
        billing: true,
        contractCells: ["-", "C-1102"],
      }),
    );
    const all = await beaconCount(2);
    const order = all.find((x) => xdmOf(x).eventType === "kiwi.testOrder")!;
    expect(xdmOf(order).web.webInteraction.name).toBe("test order edit:TO-2024-0042");
    expect(varsOf(order)).toMatchObject({
      events: "event251",
      eVar51: "TO-2024-0042",
      eVar52: "contract",
      eVar54: "PSAT/NMSQT:increased:30:+11:-:2|PSAT 8/9:decreased:15:+:-9:1",
      eVar55: "billing:y|po:n|contract:y",
    });
    expect(tab.pageErrors).toEqual([]);
  });
});

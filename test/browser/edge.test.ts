/**
 * The Edge client in Chromium against the mock edge (edge.kiwi.example):
 * page view on load, delivery by sendBeacon when the page goes away, retries
 * (503 then 200, Retry-After, at most 4 attempts), SDK consent pending / in
 * / out, one request in flight before identity, cookies from state:store on
 * the apex domain. shared/edge-protocol.md is the spec; docs/edge.md the
 * client's description.
 */
import { beforeAll, describe, expect, it } from "vitest";
import alloyAppendIdentity from "@adobe/alloy-core/components/Identity/appendIdentityToUrl/injectAppendIdentityToUrl.js";
import {
  buildBundle,
  CONSENT,
  settle,
  tempCatalogue,
  useBrowserHarness,
  type Bundle,
  type EdgeResponse,
  type RecordedRequest,
  type TestPage,
  trustTestCertificateForBeacons,
} from "./harness/index.js";

const h = useBrowserHarness();

const SITE = `# yaml-language-server: $schema=./site.schema.json
code: edgelab
name: Edge lab
appId: "902"
hosts:
  qa: [edgelab-qa.kiwi.example]
budget: { gzipBytes: 60000 } # the lab measures behaviour, not size (the bench does)
rules:
  - { id: lab-event, name: Lab event, events: [{ type: directCall, name: labEvent }], actions: [{ type: sendEvent, name: "lab event", eventType: lab.event, variables: { eVar9: lab } }] }
  - { id: lab-view, name: Lab page view, events: [{ type: directCall, name: labView }], actions: [{ type: sendPageView, name: "lab:view" }] }
`;

let lab: Bundle;
let org: string;
let ID: string;
let CONSENT_COOKIE: string;
let CLUSTER: string;

beforeAll(async () => {
  await trustTestCertificateForBeacons(h);
  lab = await buildBundle("edgelab", "qa", { sitesDir: tempCatalogue({ "edgelab.yaml": SITE }) });
  org = lab.config.analytics.orgId.replace("@", "_");
  ID = `kndctr_${org}_identity`;
  CONSENT_COOKIE = `kndctr_${org}_consent`;
  CLUSTER = `kndctr_${org}_cluster`;
}, 240_000);

const EDGE = "edge.kiwi.example";
/**
 * The running test's marker cookie: a page an earlier test closed may still send its beacons, so requests
 * count only when they carry this test's marker (the Referer is the origin only).
 */
let marker = "";
const ofCurrentTest = (r: RecordedRequest) => String(r.headers.cookie).includes(`edgetest=${marker}`);
const edgePosts = () => h.web.find((r) => r.host === EDGE && r.method === "POST" && ofCurrentTest(r));
const actionOf = (r: RecordedRequest) => r.path.replace(/^.*\/v1\//, "");
const events = () => edgePosts().filter((r) => /\/v1\/(interact|collect)$/.test(r.path));
const views = () => events().filter((r) => (r.json as any).events[0].xdm.eventType === "web.webpagedetails.pageViews");
const eventTypes = () => events().map((r) => (r.json as any).events[0].xdm.eventType as string);

async function until<T>(read: () => T, ok: (v: T) => boolean, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let v = read();
  while (!ok(v) && Date.now() < end) {
    await settle(25);
    v = read();
  }
  if (!ok(v)) throw new Error(`timed out; edge requests: ${JSON.stringify(edgePosts().map((r) => [actionOf(r), r.status]))}`);
  return v;
}

/** Answers events of one type from a script, by attempt (the rest as Konductor does). */
function scripted(eventType: string, script: EdgeResponse[], rest = konductor()) {
  const attempts = new Map<string, number>();
  return (r: RecordedRequest): EdgeResponse => {
    if ((r.json as any)?.events?.[0]?.xdm?.eventType !== eventType) return rest(r);
    const n = attempts.get(r.query.requestId) ?? 0;
    attempts.set(r.query.requestId, n + 1);
    return script[n] ?? rest(r);
  };
}

/** What Konductor answers: state:store for the identity (when the request has none), the cluster and, on set-consent, the consent; identity:result. */
function konductor(delays: Record<string, number> = {}) {
  return (r: RecordedRequest): EdgeResponse => {
    const action = actionOf(r);
    const cookie = String(r.headers.cookie ?? "");
    const store: unknown[] = [];
    if (!cookie.includes(`${ID}=`))
      store.push({ key: ID, value: "CiYxMjM0NTY3ODkwMTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3OA", maxAge: 34128000, attrs: { SameSite: "None" } });
    store.push({ key: CLUSTER, value: "or2", maxAge: 1800, attrs: { SameSite: "None" } });
    if (action === "privacy/set-consent")
      store.push({ key: CONSENT_COOKIE, value: `general=${(r.json as any).consent[0].value.general}`, maxAge: 15552000, attrs: { SameSite: "None" } });
    return {
      status: 200,
      delayMs: delays[action],
      body: {
        requestId: r.query.requestId,
        handle: [
          { type: "state:store", payload: store },
          { type: "identity:result", payload: [{ id: "12345678901234567890123456789012345678", namespace: { code: "ECID" } }] },
        ],
      },
    };
  };
}

const labUrl = (path: string, options: Parameters<typeof h.web.page>[1] = {}) => {
  marker = Math.random().toString(36).slice(2);
  const cookies = [`edgetest=${marker}; Domain=kiwi.example; Path=/; Secure; SameSite=None`, ...(options.cookies ?? [])];
  return h.web.page(`https://edgelab-qa.kiwi.example${path}`, { bundle: lab, ...options, cookies });
};
const messages = async (tab: TestPage) => (await tab.logEntries()).map((e) => String(e.message));

describe("the page view", () => {
  it("on load: privacy/set-consent (new visitor), then the page view to interact with the protocol's transport and body", async () => {
    h.web.edge.handler = konductor();
    const tab = await h.browser.openPage(labUrl("/scores?x=1"), { consentGroups: CONSENT.performance });
    const [view] = await until(events, (e) => e.length >= 1);
    expect(edgePosts().map(actionOf)[0]).toBe("privacy/set-consent");
    expect(view.url).toMatch(
      new RegExp(`^https://edge\\.kiwi\\.example/ee(/or2)?/v1/interact\\?configId=${lab.config.analytics.datastreamId}&requestId=[0-9a-f-]{36}$`),
    );
    expect(view.headers["content-type"]).toBe("text/plain; charset=UTF-8");
    expect(view.headers["sec-fetch-mode"]).toBe("cors");
    expect(view.headers.referer).toBe("https://edgelab-qa.kiwi.example/"); // the origin only: the address may carry personal data
    expect(view.headers.cookie).toContain(`${ID}=`);
    const body = view.json as any;
    expect(Object.keys(body)).toEqual(["events", "query", "meta"]);
    expect(body.events[0].xdm).toMatchObject({
      eventType: "web.webpagedetails.pageViews",
      web: { webPageDetails: { URL: "https://edgelab-qa.kiwi.example/scores?x=1" }, webReferrer: { URL: "" } },
      device: { screenHeight: expect.any(Number), screenWidth: expect.any(Number), screenOrientation: "landscape" },
      environment: { type: "browser", browserDetails: { viewportWidth: expect.any(Number), viewportHeight: expect.any(Number) } },
      placeContext: { localTimezoneOffset: expect.any(Number), localTime: expect.any(String), ianaTimezone: expect.any(String) },
      implementationDetails: { name: "sitetags", environment: "browser" },
    });
    // The viewport as alloy reports it (the root's clientWidth/clientHeight), though read from visualViewport.
    const { viewportWidth, viewportHeight } = body.events[0].xdm.environment.browserDetails;
    expect([viewportWidth, viewportHeight]).toEqual(
      await tab.page.evaluate(() => [document.documentElement.clientWidth, document.documentElement.clientHeight]),
    );
    expect(body.query).toEqual({ identity: { fetch: ["ECID"] } });
    expect(body.meta).toMatchObject({
      state: { domain: "kiwi.example", cookiesEnabled: true },
      configOverrides: { com_adobe_analytics: { reportSuites: [lab.config.analytics.reportSuite] } },
    });
    expect(body.meta.queueTimeMillis).toBeGreaterThanOrEqual(0);
  });

  it("placeContext carries the visitor's IANA time zone and offset (Temporal.Now.timeZoneId() in Chromium: no Intl start-up on the main thread)", async () => {
    h.web.edge.handler = konductor();
    const tab = await h.browser.openPage(labUrl("/zone"), { consentGroups: CONSENT.performance, timezoneId: "America/Denver" });
    const [view] = await until(events, (e) => e.length >= 1);
    const offset = await tab.page.evaluate(() => new Date().getTimezoneOffset());
    expect((view.json as any).events[0].xdm.placeContext).toMatchObject({ ianaTimezone: "America/Denver", localTimezoneOffset: offset });
    expect([360, 420]).toContain(offset); // MDT or MST
    expect(await tab.page.evaluate(() => typeof (globalThis as any).Temporal?.Now?.timeZoneId)).toBe("function");
  });

  it("cookies from state:store land on the apex domain (path /, SameSite None, Secure); the cluster cookie becomes the location hint", async () => {
    h.web.edge.handler = konductor();
    const tab = await h.browser.openPage(labUrl("/cookies"), { consentGroups: CONSENT.performance });
    await until(events, (e) => e.length >= 1);
    await tab.page.evaluate(() => (window as any).sitetags.track("labEvent"));
    const event = await h.web.waitForRequest((r) => (r.json as any)?.events?.[0]?.xdm?.eventType === "lab.event");
    expect(event.url).toMatch(/^https:\/\/edge\.kiwi\.example\/ee\/or2\/v1\/interact\?/);
    const cookies = (await tab.context.cookies()).filter((c) => c.name.startsWith("kndctr_") || c.name.startsWith("AMCV_"));
    const byName = Object.fromEntries(cookies.map((c) => [c.name, c]));
    for (const name of [ID, CLUSTER, CONSENT_COOKIE])
      expect(byName[name]).toMatchObject({ domain: ".kiwi.example", path: "/", sameSite: "None", secure: true });
    expect(byName[CONSENT_COOKIE].value).toBe("general=in");
    const now = Date.now() / 1000;
    expect(byName[ID].expires).toBeGreaterThan(now + 34128000 - 120);
    expect(byName[CLUSTER].expires).toBeLessThan(now + 1800 + 120);
    expect(byName[`AMCV_${lab.config.analytics.orgId.replace("@", "%40")}`]).toMatchObject({
      value: "MCMID|12345678901234567890123456789012345678",
      domain: ".kiwi.example",
      path: "/",
    });
  });
});

describe("identity from a decorated link", () => {
  it('"identity query parameter valid 300 s": an adobe_mc link of our org carries its ECID into set-consent and the page view; an older one does not', async () => {
    h.web.edge.handler = konductor();
    // Decorated as alloy's appendIdentityToUrl does it (the org id encoded twice, so no at-sign reaches the address).
    const link = (ageSeconds: number) => {
      const url = new URL(
        alloyAppendIdentity({ dateProvider: () => new Date(Date.now() - ageSeconds * 1000), orgId: lab.config.analytics.orgId })(
          "55555555555555555555",
          "https://edgelab-qa.kiwi.example/linked",
        ),
      );
      return url.pathname + url.search;
    };
    await h.browser.openPage(labUrl(link(5)), { consentGroups: CONSENT.performance });
    const [view] = await until(events, (e) => e.length >= 1);
    const consent = edgePosts().find((r) => actionOf(r) === "privacy/set-consent")!;
    expect((consent.json as any).identityMap).toEqual({ ECID: [{ id: "55555555555555555555" }] });
    expect((view.json as any).xdm).toEqual({ identityMap: { ECID: [{ id: "55555555555555555555" }] } });
    h.web.reset();
    h.web.edge.handler = konductor();
    await h.browser.openPage(labUrl(link(400)), { consentGroups: CONSENT.performance });
    const [old] = await until(events, (e) => e.length >= 1);
    expect((old.json as any).xdm).toBeUndefined();
  });
});

describe("destination cookies", () => {
  /** Konductor's answer plus an activation:push handle with cookie destinations (alloy's shape) on the page view. */
  const withDestinations = (destinations: unknown[]) => {
    const base = konductor();
    return (r: RecordedRequest): EdgeResponse => {
      const answer = base(r);
      if ((r.json as any)?.events?.[0]?.xdm?.eventType !== "web.webpagedetails.pageViews") return answer;
      (answer.body as any).handle.push({ type: "activation:push", payload: destinations });
      return answer;
    };
  };
  const DESTINATIONS = [
    { type: "cookie", destinationId: "d1", alias: "segments", spec: { name: "kiwi_seg", value: "s1,s2", domain: "elsewhere.example", ttlDays: 30 } },
    { type: "cookie", destinationId: "d2", alias: "plain", spec: { name: "kiwi_dst", value: "x" } },
    { type: "url", destinationId: "d3", alias: "pixel", spec: { url: "https://pixel.adpartner.example/sync", hideReferrer: true } },
  ];

  it('"destination cookies default 10 days": written from activation:push on the parent domain, Secure, SameSite=Lax, with marketing consent', async () => {
    h.web.edge.handler = withDestinations(DESTINATIONS);
    const tab = await h.browser.openPage(labUrl("/segments"), { consentGroups: CONSENT.all });
    await until(views, (e) => e.length >= 1);
    await expect.poll(async () => (await tab.context.cookies()).some((c) => c.name === "kiwi_dst"), { timeout: 5000 }).toBe(true);
    const cookies = Object.fromEntries((await tab.context.cookies()).map((c) => [c.name, c]));
    const now = Date.now() / 1000;
    for (const name of ["kiwi_seg", "kiwi_dst"]) expect(cookies[name]).toMatchObject({ domain: ".kiwi.example", path: "/", secure: true, sameSite: "Lax" });
    expect(cookies.kiwi_seg.value).toBe(encodeURIComponent("s1,s2"));
    expect(cookies.kiwi_seg.expires).toBeGreaterThan(now + 30 * 86400 - 120);
    expect(cookies.kiwi_seg.expires).toBeLessThan(now + 30 * 86400 + 120);
    expect(cookies.kiwi_dst.expires).toBeGreaterThan(now + 10 * 86400 - 120);
    expect(cookies.kiwi_dst.expires).toBeLessThan(now + 10 * 86400 + 120);
    expect(h.web.find({ host: "pixel.adpartner.example" })).toEqual([]); // URL destinations are not fired
  });

  it("without marketing consent (performance only) no destination cookie is written, and the gate records why", async () => {
    h.web.edge.handler = withDestinations(DESTINATIONS);
    const tab = await h.browser.openPage(labUrl("/segments-no"), { consentGroups: CONSENT.performance, debug: true });
    await until(views, (e) => e.length >= 1);
    // The gate's decision comes with the response that writes the identity cookie (and would have written the destination cookies).
    await tab.waitForMonitor({ type: "tag", tag: "destination-cookies", state: "blocked", reason: "consent-category" });
    await expect.poll(async () => (await tab.context.cookies()).map((c) => c.name), { timeout: 5000 }).toContain(ID);
    await settle(300);
    const names = (await tab.context.cookies()).map((c) => c.name);
    expect(names).not.toContain("kiwi_seg");
    expect(names).not.toContain("kiwi_dst");
  });
});

describe("delivery on the way out", () => {
  it("navigating away right after a page view: it still arrives, by sendBeacon to collect", async () => {
    // A returning visitor (identity cookie); set-consent answers slowly, so the page view is still queued behind it when the page goes.
    h.web.edge.handler = konductor({ "privacy/set-consent": 8000 });
    const url = labUrl("/leaving", { cookies: [`${ID}=CiYxMjM0; Domain=kiwi.example; Path=/; Secure; SameSite=None`] });
    h.web.page("https://edgelab-qa.kiwi.example/next", {});
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.performance });
    await h.web.waitForRequest((r) => r.host === EDGE && r.path.endsWith("/privacy/set-consent"));
    await tab.waitForMonitor({ type: "rule", rule: "page-view", state: "fired" });
    await tab.page.evaluate(() => (window as any).sitetags.track("labView"));
    await tab.waitForMonitor({ type: "rule", rule: "lab-view", state: "fired" });
    expect(events()).toEqual([]);
    await tab.goto("https://edgelab-qa.kiwi.example/next");
    const views = () => events().filter((r) => (r.json as any).events[0].xdm.eventType === "web.webpagedetails.pageViews");
    const beacons = await until(views, (e) => e.length >= 2);
    for (const beacon of events()) {
      expect(beacon.path).toBe("/ee/v1/collect");
      expect(beacon.headers["sec-fetch-mode"]).toBe("no-cors"); // sendBeacon
      expect(beacon.headers["content-type"]).toBe("text/plain; charset=utf-8"); // the Blob type, lower-cased
    }
    expect(beacons.map((r) => (r.json as any).events[0].xdm.web.webPageDetails.name).sort()).toEqual(["edgelab/leaving", "lab:view"]);
  });

  it("merely hidden (another tab), a new visitor keeps the identity rule: events wait for set-consent's answer, then go by sendBeacon to collect with the identity it set", async () => {
    h.web.edge.handler = konductor({ "privacy/set-consent": 800 });
    const tab = await h.browser.openPage(labUrl("/hidden-tab"), { consentGroups: CONSENT.performance });
    const [setConsent] = await until(edgePosts, (e) => e.length >= 1);
    expect(actionOf(setConsent)).toBe("privacy/set-consent");
    // Chromium's headless tabs stay visible: the page is told it is hidden, as the browser tells a background tab (no pagehide).
    await tab.page.evaluate(() => {
      Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
      Object.defineProperty(document, "hidden", { value: true, configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
      (window as any).sitetags.track("labEvent");
    });
    await until(eventTypes, (t) => t.includes("lab.event") && t.includes("web.webpagedetails.pageViews"), 8000);
    await settle(300);
    // The web-vitals batch goes when the page turns hidden: it keeps the rule too.
    expect(
      eventTypes()
        .filter((t) => t !== "kiwi.webVitals")
        .sort(),
    ).toEqual(["lab.event", "web.webpagedetails.pageViews"]);
    for (const r of events()) {
      expect(r.time).toBeGreaterThanOrEqual(setConsent.time + 790); // not before the answer that set the identity
      expect(String(r.headers.cookie)).toContain(`${ID}=`); // so no event gets an ECID of its own
      expect(r.path).toMatch(/^\/ee(\/or2)?\/v1\/collect$/); // with the location hint the answer set
      expect(r.headers["sec-fetch-mode"]).toBe("no-cors"); // sendBeacon
    }
  });

  it("an event sent by fetch just before the page navigates still arrives (keepalive), exactly once", async () => {
    h.web.edge.handler = konductor({ interact: 1500 });
    h.web.page("https://edgelab-qa.kiwi.example/after", {});
    const tab = await h.browser.openPage(labUrl("/before"), { consentGroups: CONSENT.performance });
    await until(events, (e) => e.length >= 1, 8000);
    await tab.page.evaluate(() => {
      (window as any).sitetags.track("labEvent");
      location.href = "/after";
    });
    await tab.page.waitForURL("https://edgelab-qa.kiwi.example/after");
    const labEvents = () => events().filter((r) => (r.json as any).events[0].xdm.eventType === "lab.event");
    await until(labEvents, (e) => e.length >= 1);
    await settle(2000);
    expect(labEvents()).toHaveLength(1);
    expect(labEvents()[0].path).toMatch(/\/v1\/(interact|collect)$/);
  });
  it("the browsers' 64 KB keepalive budget counts UTF-8 bytes: two 36 KB bodies of 12,000 three-byte characters in flight together both arrive", async () => {
    // A returning visitor (identity and stored consent), so both go at once; the edge answers slowly, so both are in flight together.
    h.web.edge.handler = konductor({ interact: 1500 });
    const cookies = [
      `${ID}=CiYxMjM0; Domain=kiwi.example; Path=/; Secure; SameSite=None`,
      `${CONSENT_COOKIE}=general=in; Domain=kiwi.example; Path=/; Secure; SameSite=None`,
    ];
    const tab = await h.browser.openPage(labUrl("/budget", { cookies }), { consentGroups: CONSENT.performance });
    await until(views, (v) => v.length >= 1, 8000);
    await tab.page.evaluate(() => {
      const dl = (window as any).kiwiDataLayer;
      dl.push({ event: "search", term: "\u20ac".repeat(12000), type: "career" });
      dl.push({ event: "search", term: "\u20b9".repeat(12000), type: "majors" });
    });
    const searches = () => events().filter((r) => (r.json as any).events[0].xdm.eventType === "kiwi.internalSearch");
    await until(searches, (e) => e.length >= 2, 8000);
    expect(
      searches()
        .map((r) => Buffer.byteLength(r.body))
        .every((n) => n > 36000),
    ).toBe(true); // together over 64 KB: not both keepalive
    expect(await messages(tab)).not.toContain("Network request failed.");
  });
});

describe("retries", () => {
  it("503 then 200: a second attempt about 1 s later with the same requestId and body; delivered exactly once", async () => {
    h.web.edge.handler = scripted("lab.event", [{ status: 503, body: "busy" }]);
    const tab = await h.browser.openPage(labUrl("/retry-503"), { consentGroups: CONSENT.performance });
    await until(events, (e) => e.length >= 1);
    await tab.page.evaluate(() => (window as any).sitetags.track("labEvent"));
    const labEvents = () => events().filter((r) => (r.json as any).events[0].xdm.eventType === "lab.event");
    await until(labEvents, (e) => e.length >= 2);
    await settle(2500);
    const attempts = labEvents();
    expect(attempts.map((r) => r.status)).toEqual([503, 200]);
    expect(new Set(attempts.map((r) => r.query.requestId)).size).toBe(1);
    expect(attempts[0].body).toBe(attempts[1].body);
    const gap = attempts[1].time - attempts[0].time;
    expect(gap).toBeGreaterThanOrEqual(690);
    expect(gap).toBeLessThan(1300 + 400);
    expect(await messages(tab)).not.toContain("Network request failed.");
  });

  it("Retry-After is honoured (seconds), and there are 4 attempts at most, then the failure is logged", async () => {
    const exposed = { "Access-Control-Expose-Headers": "Retry-After" };
    h.web.edge.handler = scripted("lab.event", [
      { status: 429, headers: { "Retry-After": "2", ...exposed } },
      ...[1, 2, 3, 4].map(() => ({ status: 503, headers: { "Retry-After": "0", ...exposed }, body: "overloaded" })),
    ]);
    const tab = await h.browser.openPage(labUrl("/retry-after"), { consentGroups: CONSENT.performance });
    await until(events, (e) => e.length >= 1);
    await tab.page.evaluate(() => (window as any).sitetags.track("labEvent"));
    const labEvents = () => events().filter((r) => (r.json as any).events[0].xdm.eventType === "lab.event");
    await until(labEvents, (e) => e.length >= 4, 8000);
    await settle(1000);
    const attempts = labEvents();
    expect(attempts.map((r) => r.status)).toEqual([429, 503, 503, 503]);
    expect(new Set(attempts.map((r) => r.query.requestId)).size).toBe(1);
    expect(attempts[1].time - attempts[0].time).toBeGreaterThanOrEqual(1990);
    expect(attempts[3].time - attempts[1].time).toBeLessThan(1000);
    expect(await messages(tab)).toContain("The server responded with a status code 503 and response body: overloaded");
  });
});

describe("SDK consent", () => {
  it("pending: nothing is sent; in: privacy/set-consent, then the queued page view", async () => {
    h.web.edge.handler = konductor({ "privacy/set-consent": 300 });
    const tab = await h.browser.openPage(labUrl("/pending"));
    await settle(800);
    expect(edgePosts().map((r) => [r.url, r.body])).toEqual([]);
    expect(await messages(tab)).toContain("Consent is pending.");
    await tab.setConsent(CONSENT.performance);
    await until(events, (e) => e.length >= 2);
    const [setConsent, ...rest] = edgePosts();
    expect(actionOf(setConsent)).toBe("privacy/set-consent");
    expect(setConsent.json).toMatchObject({
      consent: [{ standard: "Adobe", version: "1.0", value: { general: "in" } }],
      query: { identity: { fetch: ["ECID"] } },
      meta: { state: { domain: "kiwi.example", cookiesEnabled: true } },
    });
    expect(eventTypes().sort()).toEqual(["kiwi.privacyConsentChange", "web.webpagedetails.pageViews"]);
    for (const r of rest) expect(r.time).toBeGreaterThanOrEqual(setConsent.time + 290);
    // The same consent on the next page: no set-consent (hash in localStorage, consent cookie set).
    h.web.reset();
    h.web.edge.handler = konductor();
    await tab.goto(labUrl("/pending-again"));
    await until(events, (e) => e.length >= 1);
    await settle(200);
    expect(edgePosts().map(actionOf)).not.toContain("privacy/set-consent");
  });

  it("out: set-consent out, the queued page view dropped with 'The user declined consent.'", async () => {
    h.web.edge.handler = konductor();
    const tab = await h.browser.openPage(labUrl("/out"));
    await settle(300);
    await tab.setConsent(CONSENT.necessary);
    await h.web.waitForRequest((r) => r.host === EDGE && r.path.endsWith("/privacy/set-consent"));
    await tab.page.evaluate(() => (window as any).sitetags.track("labEvent"));
    await settle(500);
    expect(edgePosts().map(actionOf)).toEqual(["privacy/set-consent"]);
    expect((edgePosts()[0].json as any).consent[0].value).toEqual({ general: "out" });
    expect(await messages(tab)).toContain("The user declined consent.");
  });
});

describe("consent changes and stale consent", () => {
  it("one set-consent at a time: a change while one is out goes after its answer; the queued page view waits for the last answer (out: dropped)", async () => {
    h.web.edge.handler = konductor({ "privacy/set-consent": 700 });
    // A returning visitor (identity cookie): without one, the identity rule alone would hold the second request back.
    const tab = await h.browser.openPage(labUrl("/consent-twice", { cookies: [`${ID}=CiYxMjM0; Domain=kiwi.example; Path=/; Secure; SameSite=None`] }));
    await settle(300);
    await tab.setConsent(CONSENT.performance);
    await h.web.waitForRequest((r) => r.host === EDGE && r.path.endsWith("/privacy/set-consent"));
    await tab.setConsent(CONSENT.necessary);
    const consents = () => edgePosts().filter((r) => actionOf(r) === "privacy/set-consent");
    await until(consents, (c) => c.length >= 2, 5000);
    await settle(1000);
    const [first, second] = consents();
    expect([first, second].map((r) => (r.json as any).consent[0].value.general)).toEqual(["in", "out"]);
    expect(second.time).toBeGreaterThanOrEqual(first.time + 690);
    expect(views()).toEqual([]);
    expect(await messages(tab)).toContain("The user declined consent.");
  });

  it("a stale 'general=in' consent cookie does not send while the banner's groups deny performance (a re-consent): no page view", async () => {
    h.web.edge.handler = konductor();
    const cookies = [
      `${ID}=CiYxMjM0; Domain=kiwi.example; Path=/; Secure; SameSite=None`,
      `${CONSENT_COOKIE}=general=in; Domain=kiwi.example; Path=/; Secure; SameSite=None`,
    ];
    const tab = await h.browser.openPage(labUrl("/reconsent", { cookies }), { consentGroups: CONSENT.necessary });
    await tab.waitForMonitor({ type: "rule", rule: "page-view", state: "fired" });
    await settle(1000);
    expect(events()).toEqual([]);
    expect(edgePosts().map((r) => (r.json as any).consent?.[0].value.general)).toEqual(edgePosts().length ? ["out"] : []);
    expect(tab.pageErrors).toEqual([]);
  });
});

describe("identity", () => {
  it("before an identity cookie exists one request is in flight: the first goes alone, the rest wait for its answer, then go together", async () => {
    h.web.edge.handler = konductor({ "privacy/set-consent": 600 });
    const tab = await h.browser.openPage(labUrl("/identity"), { consentGroups: CONSENT.performance });
    await h.web.waitForRequest((r) => r.host === EDGE && r.path.endsWith("/privacy/set-consent"));
    await tab.page.evaluate(() => {
      (window as any).sitetags.track("labEvent");
      (window as any).sitetags.track("labView");
    });
    const all = await until(edgePosts, (e) => e.length >= 4);
    const [first, ...rest] = all;
    expect(actionOf(first)).toBe("privacy/set-consent");
    const answeredAt = first.time + 600;
    for (const r of rest) expect(r.time).toBeGreaterThanOrEqual(answeredAt - 10);
    const spread = Math.max(...rest.map((r) => r.time)) - Math.min(...rest.map((r) => r.time));
    expect(spread).toBeLessThan(300);
    expect(rest.every((r) => String(r.headers.cookie).includes(`${ID}=`))).toBe(true);
  });

  it("without a state:store identity the warning 'Identity cookie not found.' is logged and events keep flowing one at a time", async () => {
    const tab = await h.browser.openPage(labUrl("/no-identity"), { consentGroups: CONSENT.performance });
    await tab.page.evaluate(() => (window as any).sitetags.track("labEvent"));
    await until(events, (e) => e.length >= 2);
    expect(await messages(tab)).toContain("Identity cookie not found.");
    expect(tab.pageErrors).toEqual([]);
  });
});

/**
 * The Edge client (runtime-modules/edge/create-analytics.ts) over a fake
 * browser: URL and body, transport, identity gating, cookies from
 * state:store, consent queue and set-consent, retries, beacons on unload,
 * onBeforeEventSend. shared/edge-protocol.md is the spec quoted below.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CHROME_UA, CLUSTER, CONSENT_COOKIE, HASH_KEY, IDENTITY, fakeEdge, settle } from "./fake-edge";
import { fnv1a32Hex } from "../../../../runtime-modules/edge/protocol";

const URL_SHAPE = /^https:\/\/edge\.kiwi\.example\/ee\/v1\/interact\?configId=ds-1&requestId=[0-9a-f-]{36}$/;
const returning = { [IDENTITY]: "CiYxMjM0", [CONSENT_COOKIE]: "general=in" };

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 4, 2, 10, 0, 0), toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("building and starting (issue #17: side effects start in start())", () => {
  it("building the client sends no request and listens to nothing; start() sends the set-consent and listens to the page lifecycle", async () => {
    const f = fakeEdge({ sdk: "in" });
    const client = f.build();
    await settle();
    expect(f.sent).toHaveLength(0);
    expect(f.listenerCount()).toBe(0);
    expect(f.consentListenerCount()).toBe(0);
    client.start();
    await settle();
    expect(f.sent.map((r) => r.action)).toEqual(["privacy/set-consent"]);
    expect(f.listenerCount()).toBe(3);
    expect(f.consentListenerCount()).toBe(1);
  });
});

describe("URL, transport and body", () => {
  it("a page view: POST to interact with the protocol's fetch options and body", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    const analytics = f.start();
    const done = analytics.pageView({ name: "scores:home", variables: { eVar1: "a", prop2: "b" } });
    await settle();
    expect(f.sent).toHaveLength(1);
    const [r] = f.sent;
    expect(r.url).toMatch(URL_SHAPE);
    expect(r.init).toMatchObject({
      method: "POST",
      credentials: "include",
      cache: "no-cache",
      referrerPolicy: "strict-origin-when-cross-origin",
      headers: { "Content-Type": "text/plain; charset=UTF-8" },
      keepalive: true,
    });
    expect(Object.keys(r.json)).toEqual(["events", "query", "meta"]);
    const [event] = r.json.events;
    expect(event.xdm).toMatchObject({
      eventType: "web.webpagedetails.pageViews",
      web: { webPageDetails: { URL: "https://www.kiwi.example/scores?x=1", name: "scores:home" }, webReferrer: { URL: "https://search.example/" } },
      device: { screenHeight: 900, screenWidth: 1440, screenOrientation: "landscape" },
      environment: { type: "browser", browserDetails: { viewportWidth: 1200, viewportHeight: 700 } },
      placeContext: { localTimezoneOffset: expect.any(Number), localTime: expect.any(String), ianaTimezone: expect.any(String) },
      timestamp: "2026-05-02T10:00:00.000Z",
      implementationDetails: { name: "sitetags", environment: "browser" },
    });
    expect(event.data).toEqual({ __adobe: { analytics: { eVar1: "a", prop2: "b" } } });
    expect(r.json.query).toEqual({ identity: { fetch: ["ECID"] } });
    expect(r.json.meta).toEqual({
      state: { domain: "kiwi.example", cookiesEnabled: true },
      queueTimeMillis: 0,
      configOverrides: { com_adobe_analytics: { reportSuites: ["kiwiprod"] } },
    });
    await expect(done).resolves.toBe(200);
  });

  it("a click's Activity Map data rides where alloy's click collection puts it: data.__adobe.analytics.contextData.a.activitymap, and the region in xdm", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    const analytics = f.start();
    void analytics.event({
      name: "apply",
      eventType: "web.webinteraction.linkClicks",
      linkType: "other",
      variables: { prop82: "feature" },
      activityMap: { link: "Apply now", region: "hero", page: "bigfuture/home" },
    });
    void analytics.event({ name: "x", eventType: "web.webinteraction.linkClicks", linkType: "other", activityMap: { link: "X", region: "BODY" } });
    await settle();
    const [click, unnamed] = f.sent.map((r) => r.json.events[0]);
    expect(click.data.__adobe.analytics).toEqual({
      prop82: "feature",
      contextData: { a: { activitymap: { page: "bigfuture/home", link: "Apply now", region: "hero", pageIDType: 1 } } },
    });
    expect(click.xdm.web.webInteraction).toEqual({
      name: "apply",
      type: "other",
      URL: "https://www.kiwi.example/scores?x=1",
      linkClicks: { value: 1 },
      region: "hero",
    });
    expect(unnamed.data.__adobe.analytics.contextData.a.activitymap.page).toBe("scores:home");
  });

  it("setVariables' events and products go on the next beacon only (a purchase counts once); its eVars stay for later beacons; events add up", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    const analytics = f.start();
    analytics.setVariables({ events: "purchase", products: ";SAT;1;60", eVar30: "W9001" });
    void analytics.pageView({});
    void analytics.event({ name: "web vitals", eventType: "kiwi.webVitals", linkType: "other", variables: { eVar94: "LCP:good:navigate:900" } });
    analytics.setVariables({ events: "event61" });
    void analytics.event({ name: "milestone", eventType: "kiwi.listMilestone", linkType: "other", variables: { events: "event7" } });
    await settle();
    const vars = f.sent.map((r) => r.json.events[0].data.__adobe.analytics);
    expect(vars).toEqual([
      { events: "purchase", products: ";SAT;1;60", eVar30: "W9001" },
      { eVar30: "W9001", eVar94: "LCP:good:navigate:900" },
      { eVar30: "W9001", events: "event61,event7" },
    ]);
  });

  it("events set by several setVariables before one beacon add up (each flag of a push its own success event), then go with the beacon's own", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    const analytics = f.start();
    analytics.setVariables({ events: "event171" });
    analytics.setVariables({ events: "event174" });
    void analytics.event({ name: "guided help", eventType: "kiwi.guidedHelp", linkType: "other", variables: { events: "event170" } });
    void analytics.event({ name: "next", eventType: "kiwi.guidedHelp", linkType: "other", variables: { events: "event170" } });
    await settle();
    expect(f.sent.map((r) => r.json.events[0].data.__adobe.analytics.events)).toEqual(["event171,event174,event170", "event170"]);
  });

  it("one canonical record: our fields and the caller's xdm on top of the defaults; setVariables feed later events; empty data dropped", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    const analytics = f.start();
    void analytics.event({
      name: "promo click",
      eventType: "web.webinteraction.linkClicks",
      linkType: "exit",
      url: "https://out.example/",
      xdm: {
        web: { webPageDetails: { URL: "https://override.example/" } },
        identityMap: { EMAIL: [{ id: "h", authenticatedState: "authenticated", primary: false }] },
      },
    });
    analytics.setVariables({ eVar9: "x" });
    void analytics.pageView({});
    await settle();
    const [click, view] = f.sent.map((r) => r.json.events[0]);
    expect(click.xdm.web).toEqual({
      webPageDetails: { URL: "https://override.example/" },
      webReferrer: { URL: "https://search.example/" },
      webInteraction: { name: "promo click", type: "exit", URL: "https://out.example/", linkClicks: { value: 1 } },
    });
    expect(click.xdm.identityMap.EMAIL[0].id).toBe("h");
    expect(click.data).toBeUndefined();
    expect(view.xdm.web.webPageDetails.name).toBe("scores:home");
    expect(view.data.__adobe.analytics).toEqual({ eVar9: "x" });
  });

  it("setVariables' xdm goes on every later record (the visitor's identity map, issue #19); an empty variable or field is removed, not sent empty", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    const analytics = f.start();
    const people = { CBPEOPLEID: [{ id: "1000234", authenticatedState: "authenticated", primary: true }] };
    analytics.setVariables({ eVar200: "Logged In", eVar202: "1000234", eVar203: "" }, { identityMap: people, _x: { a: "", b: undefined, c: {} } });
    void analytics.pageView({});
    void analytics.event({ name: "modal", eventType: "kiwi.modal", linkType: "other" });
    analytics.setVariables({ eVar202: "" }, { identityMap: undefined });
    void analytics.pageView({});
    await settle();
    const [view, modal, after] = f.sent.map((r) => r.json.events[0]);
    expect(view.xdm.identityMap).toEqual(people);
    expect(view.xdm._x).toBeUndefined();
    expect(view.data.__adobe.analytics).toEqual({ eVar200: "Logged In", eVar202: "1000234" });
    expect(modal.xdm.identityMap).toEqual(people);
    expect(modal.data.__adobe.analytics).toEqual({ eVar200: "Logged In", eVar202: "1000234" });
    expect(after.xdm.identityMap).toBeUndefined();
    expect(after.data.__adobe.analytics).toEqual({ eVar200: "Logged In" });
  });

  // Task "preview": a sendEvent or page view variable without a value (a data element that has none) is left out, as alloy and AppMeasurement leave it out.
  it("an empty variable of an event or page view is absent from data.__adobe.analytics, never sent as \"\" nor as the page's older value; the hit's events stay; empty `data` objects are dropped", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    const analytics = f.start();
    analytics.setVariables({ eVar1: "page value", events: "purchase", products: ";SAT;1;60" });
    const empty = { eVar1: "", eVar2: undefined as unknown as string, prop3: "", events: "", products: "" };
    void analytics.event({ name: "apply", eventType: "web.webinteraction.linkClicks", linkType: "other", variables: { ...empty, eVar4: "x" } });
    void analytics.event({ name: "apply", eventType: "web.webinteraction.linkClicks", linkType: "other", variables: { eVar1: "", events: "event7" } });
    analytics.setVariables({ eVar1: undefined as unknown as string });
    void analytics.pageView({ variables: { eVar5: "", prop6: undefined as unknown as string } });
    await settle();
    const [first, second, view] = f.sent.map((r) => r.json.events[0]);
    expect(first.data.__adobe.analytics).toEqual({ events: "purchase", products: ";SAT;1;60", eVar4: "x" });
    expect(second.data.__adobe.analytics).toEqual({ events: "event7" });
    expect(view.data).toBeUndefined();
    for (const r of f.sent) expect(r.body).not.toMatch(/"(eVar|prop)\d+":""/);
  });

  it("keepalive only while the bodies in flight stay under the browsers' 64 KB budget", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    const analytics = f.start();
    f.hold();
    const big = { eVar1: "x".repeat(25_000) };
    for (let i = 0; i < 3; i++) void analytics.pageView({ variables: big });
    await settle();
    expect(f.sent.map((r) => r.init?.keepalive)).toEqual([true, true, false]);
    f.stopHolding();
    await settle();
    void analytics.pageView({ variables: big });
    await settle();
    expect(f.sent[3].init?.keepalive).toBe(true);
  });

  it("the keepalive budget counts UTF-8 bytes, not characters (two 17,000-character bodies of 3-byte text do not both fit)", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    const analytics = f.start();
    f.hold();
    const wide = { eVar1: "é✓".repeat(8_500) };
    for (let i = 0; i < 2; i++) void analytics.pageView({ variables: wide });
    await settle();
    expect(f.sent.map((r) => r.init?.keepalive)).toEqual([true, false]);
  });

  it("meta.queueTimeMillis is the time the event waited, clamped to 300000", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" }, sdk: "pending" });
    const analytics = f.start();
    void analytics.pageView({});
    await vi.advanceTimersByTimeAsync(1234);
    void analytics.pageView({});
    await vi.advanceTimersByTimeAsync(400_000);
    f.setConsent("in");
    await settle();
    expect(f.sent.map((r) => [r.action, r.json.meta.queueTimeMillis])).toEqual([
      ["privacy/set-consent", undefined],
      ["interact", 300000],
      ["interact", 300000],
    ]);
    const g = fakeEdge({ cookies: { [IDENTITY]: "id" }, sdk: "pending" });
    void g.start().pageView({});
    await vi.advanceTimersByTimeAsync(1234);
    g.setConsent("in");
    await settle();
    expect(g.sent.map((r) => r.json.meta.queueTimeMillis)).toEqual([undefined, 1234]);
  });

  it("per-environment datastream override: configId changes and meta.sdkConfig.datastream.original names the configured one; overrides lose null/empty values", async () => {
    const f = fakeEdge({
      cookies: { [IDENTITY]: "id" },
      analytics: {
        datastreamOverride: "ds-qa",
        configOverrides: { com_adobe_target: { propertyToken: "" }, com_adobe_identity: { idSyncContainerId: 7 }, com_adobe_analytics: { enabled: true } },
      },
    });
    void f.start().pageView({});
    await settle();
    const [r] = f.sent;
    expect(r.url).toContain("?configId=ds-qa&requestId=");
    expect(r.json.meta.sdkConfig).toEqual({ datastream: { original: "ds-1" } });
    expect(r.json.meta.configOverrides).toEqual({ com_adobe_analytics: { reportSuites: ["kiwiprod"] }, com_adobe_identity: { idSyncContainerId: 7 } });
  });

  it("locationHint from kndctr_{org}_cluster, else t + mboxEdgeCluster", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id", [CLUSTER]: "or2" } });
    void f.start().pageView({});
    const g = fakeEdge({ cookies: { [IDENTITY]: "id", mboxEdgeCluster: "35" } });
    void g.start().pageView({});
    await settle();
    expect(f.sent[0].url).toMatch(/^https:\/\/edge\.kiwi\.example\/ee\/or2\/v1\/interact\?/);
    expect(g.sent[0].url).toMatch(/^https:\/\/edge\.kiwi\.example\/ee\/t35\/v1\/interact\?/);
  });

  it("meta.state: domain is the apex ('' on localhost); entries (the kndctr cookies) only when the edge host is not under it", async () => {
    const first = fakeEdge({ cookies: { [IDENTITY]: "id", other: "1" } });
    void first.start().pageView({});
    const local = fakeEdge({ url: "http://localhost:8080/", cookies: { [IDENTITY]: "id", [CLUSTER]: "or2", other: "1" } });
    void local.start().pageView({});
    const third = fakeEdge({ cookies: { [IDENTITY]: "id" }, analytics: { edgeDomain: "edge.adobedc.net" } });
    void third.start().pageView({});
    await settle();
    expect(first.sent[0].json.meta.state).toEqual({ domain: "kiwi.example", cookiesEnabled: true });
    const consent = { key: CONSENT_COOKIE, value: "general=in" };
    expect(local.sent[0].json.meta.state).toEqual({
      domain: "",
      cookiesEnabled: true,
      entries: [{ key: IDENTITY, value: "id" }, { key: CLUSTER, value: "or2" }, consent],
    });
    expect(third.sent[0].json.meta.state).toEqual({ domain: "kiwi.example", cookiesEnabled: true, entries: [{ key: IDENTITY, value: "id" }, consent] });
  });

  it("the monitor sees each request once: url, requestId, eventType, body", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    void f.start().pageView({});
    await settle();
    expect(f.monitorEvents).toEqual([
      { type: "beacon", url: f.sent[0].url, requestId: f.sent[0].requestId, eventType: "web.webpagedetails.pageViews", body: f.sent[0].body },
    ]);
  });
});

describe("identity", () => {
  it("until an identity cookie exists only one request is in flight: the first goes alone, the rest wait for its answer, then go together", async () => {
    // A new visitor whose consent is known: set-consent is the first request, the events wait for its answer.
    const f = fakeEdge({ konductor: true, sdk: "in" });
    f.hold();
    const analytics = f.start();
    void analytics.pageView({});
    void analytics.event({ name: "a", eventType: "x.a", linkType: "other" });
    await settle();
    expect(f.sent.map((r) => r.action)).toEqual(["privacy/set-consent"]);
    f.release();
    await settle();
    expect(f.sent.map((r) => r.action)).toEqual(["privacy/set-consent", "interact", "interact"]);
    expect(f.cookieWrites[0]).toBe(
      `${IDENTITY}=CiYxMjM0; path=/; domain=kiwi.example; expires=${new Date(Date.now() + 34128000000).toUTCString()}; samesite=None; secure`,
    );
    // Events alone: a returning visitor whose identity cookie expired (consent still stored in the machine).
    const g = fakeEdge({ konductor: true, sdk: "in", storage: {} });
    g.answer({ status: 200, body: { handle: [] } });
    const b = g.start();
    await settle();
    g.hold();
    g.jar.delete(IDENTITY);
    void b.pageView({});
    void b.event({ name: "a", eventType: "x.a", linkType: "other" });
    void b.event({ name: "b", eventType: "x.b", linkType: "other" });
    await settle();
    expect(g.sent.map((r) => r.action)).toEqual(["privacy/set-consent", "interact"]);
    g.release();
    await settle();
    expect(g.sent.slice(1).map((r) => r.json.events[0].xdm.eventType)).toEqual(["web.webpagedetails.pageViews", "x.a", "x.b"]);
  });

  it("no identity cookie after the answer: 'Identity cookie not found.' and the next request goes alone again", async () => {
    const f = fakeEdge({ sdk: "in" });
    f.hold();
    const analytics = f.start();
    void analytics.pageView({});
    void analytics.event({ name: "a", eventType: "x.a", linkType: "other" });
    await settle();
    expect(f.sent.map((r) => r.action)).toEqual(["privacy/set-consent"]);
    f.release();
    await settle();
    expect(f.messages()).toContain("Identity cookie not found.");
    expect(f.sent.map((r) => r.action)).toEqual(["privacy/set-consent", "interact"]);
    f.release();
    await settle();
    expect(f.sent.map((r) => r.action)).toEqual(["privacy/set-consent", "interact", "interact"]);
  });

  it("'Identity cookie not found.' only after a successful answer: a failed first request logs its own failure alone", async () => {
    const f = fakeEdge({ sdk: "in" });
    f.answer(new TypeError("Failed to fetch"));
    f.answer({ status: 500, body: { type: "x", status: 500, title: "boom" } });
    const analytics = f.start();
    void analytics.pageView({});
    await settle();
    expect(f.messages()).toContain("Network request failed.");
    expect(f.messages()).not.toContain("Identity cookie not found.");
  });

  it("state:store handles become cookies on the apex domain, path /, expiry now + maxAge, Secure with SameSite None; identity:result keeps AMCV_ up to date", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    f.answer({
      status: 200,
      body: {
        handle: [
          {
            type: "state:store",
            payload: [
              { key: CLUSTER, value: "or2", maxAge: 1800, attrs: { SameSite: "None" } },
              { key: CONSENT_COOKIE, value: "general=in", maxAge: 15552000 },
            ],
          },
          { type: "identity:result", payload: [{ id: "98765432109876543210", namespace: { code: "ECID" } }] },
        ],
      },
    });
    void f.start().pageView({});
    await settle();
    const now = Date.now();
    expect(f.cookieWrites).toEqual([
      `${CLUSTER}=or2; path=/; domain=kiwi.example; expires=${new Date(now + 1800000).toUTCString()}; samesite=None; secure`,
      `${CONSENT_COOKIE}=general=in; path=/; domain=kiwi.example; expires=${new Date(now + 15552000000).toUTCString()}`,
      `AMCV_ABC123%40AdobeOrg=MCMID|98765432109876543210; path=/; domain=kiwi.example; expires=${new Date(now + 390 * 86400000).toUTCString()}; samesite=None; secure`,
    ]);
  });

  it('"Legacy-id cookie 390 days": AMCV_ lives identity.cookies.legacyIdDays (default 390)', async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" }, identityCookies: { legacyIdDays: 30 } });
    f.answer({ status: 200, body: { handle: [{ type: "identity:result", payload: [{ id: "98765432109876543210", namespace: { code: "ECID" } }] }] } });
    void f.start().pageView({});
    await settle();
    expect(f.cookieWrites).toEqual([
      `AMCV_ABC123%40AdobeOrg=MCMID|98765432109876543210; path=/; domain=kiwi.example; expires=${new Date(Date.now() + 30 * 86400000).toUTCString()}; samesite=None; secure`,
    ]);
  });

  it("the legacy AMCV_ ECID rides along (request-level xdm.identityMap) while the visitor has no identity cookie", async () => {
    const f = fakeEdge({ cookies: { "AMCV_ABC123%40AdobeOrg": "MCMID%7C111" } });
    void f.start().pageView({});
    await settle();
    const [consent, view] = f.sent;
    expect(consent.json.identityMap).toEqual({ ECID: [{ id: "111" }] });
    expect(view.json.xdm).toEqual({ identityMap: { ECID: [{ id: "111" }] } });
    expect(Object.keys(view.json)).toEqual(["events", "xdm", "query", "meta"]);
    const off = fakeEdge({ cookies: { "AMCV_ABC123%40AdobeOrg": "MCMID%7C111" }, analytics: { idMigration: false } });
    void off.start().pageView({});
    await settle();
    expect(off.sent.map((r) => r.json.xdm ?? r.json.identityMap)).toEqual([undefined, undefined]);
  });

  it("an adobe_mc link (at most 300 s old, our org) carries the visitor's ECID into every request, before the legacy cookie's", async () => {
    const link = (ageSeconds: number) =>
      `https://www.kiwi.example/scores?adobe_mc=${encodeURIComponent(`TS=${Math.floor(Date.now() / 1000) - ageSeconds}|MCMID=222|MCORGID=ABC123@AdobeOrg`)}`;
    const f = fakeEdge({ url: link(10), cookies: { "AMCV_ABC123%40AdobeOrg": "MCMID%7C111" } });
    void f.start().pageView({});
    await settle();
    const [consent, view] = f.sent;
    expect(consent.json.identityMap).toEqual({ ECID: [{ id: "222" }] });
    expect(view.json.xdm).toEqual({ identityMap: { ECID: [{ id: "222" }] } });
    const old = fakeEdge({ url: link(301) });
    void old.start().pageView({});
    await settle();
    expect(old.sent.map((r) => r.json.xdm ?? r.json.identityMap)).toEqual([undefined, undefined]);
  });

  it("third-party cookies (config): the first request of a new visitor goes to adobedc.demdex.net with CORE; a network failure there switches to the edge domain for good, sent once more", async () => {
    const f = fakeEdge({
      userAgent: CHROME_UA,
      analytics: { thirdPartyCookies: true },
      konductor: true,
      sdk: "in",
      cookies: { [CONSENT_COOKIE]: "general=in" },
    });
    f.answer(new TypeError("Failed to fetch"));
    const analytics = f.start();
    void analytics.pageView({});
    await settle();
    expect(f.sent.map((r) => [r.action, r.host])).toEqual([
      ["privacy/set-consent", "adobedc.demdex.net"],
      ["privacy/set-consent", "edge.kiwi.example"],
      ["interact", "edge.kiwi.example"],
    ]);
    f.sent.splice(2);
    expect(f.sent[0].requestId).toBe(f.sent[1].requestId);
    expect(f.sent[0].body).toBe(f.sent[1].body);
    expect(f.sent[0].json.query.identity.fetch).toEqual(["ECID", "CORE"]);
    f.jar.delete(IDENTITY);
    void analytics.pageView({});
    await settle();
    expect(f.sent[2].host).toBe("edge.kiwi.example");
    expect(f.messages()).toEqual([]);
    const firefox = fakeEdge({ userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", analytics: { thirdPartyCookies: true } });
    void firefox.start().pageView({});
    const ours = fakeEdge({ userAgent: CHROME_UA });
    void ours.start().pageView({});
    await settle();
    expect(firefox.sent[0].host).toBe("edge.kiwi.example");
    expect(firefox.sent[0].json.query.identity.fetch).toEqual(["ECID"]);
    expect(ours.sent[0].host).toBe("edge.kiwi.example");
    expect(ours.sent[0].json.query.identity.fetch).toEqual(["ECID"]);
  });
});

describe("consent", () => {
  it("a stored 'in' consent cookie stands in only until the banner reports: groups without performance stop it (no page view sent)", async () => {
    const cookies = { [IDENTITY]: "id", [CONSENT_COOKIE]: "general=in" };
    // The banner already reported groups without performance (reconsent; not closed yet): nothing goes out.
    const denied = fakeEdge({ cookies, sdk: "pending", reported: true });
    void denied.start().pageView({});
    await settle();
    expect(denied.sent).toEqual([]);
    // Before the banner reports, the returning visitor's page view goes on the stored consent...
    const early = fakeEdge({ cookies, sdk: "pending" });
    const analytics = early.start();
    void analytics.pageView({});
    await settle();
    expect(early.sent.map((r) => r.action)).toEqual(["interact"]);
    // ...and once the banner reports groups without performance, later events wait.
    early.setConsent("pending");
    void analytics.event({ name: "a", eventType: "x.a", linkType: "other" });
    await settle();
    expect(early.sent.map((r) => r.action)).toEqual(["interact"]);
  });

  it("one set-consent at a time: a change while one is out goes after its answer, and queued events wait for the last answer", async () => {
    const general = (r: { action: string; json: { consent?: Array<{ value: { general: string } }> } }) => [r.action, r.json.consent?.[0].value.general];
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" }, sdk: "pending" });
    void f.start().pageView({});
    f.hold();
    f.setConsent("in");
    await settle();
    f.setConsent("out");
    await settle();
    expect(f.sent.map(general)).toEqual([["privacy/set-consent", "in"]]);
    f.release();
    await settle();
    expect(f.sent.map(general)).toEqual([
      ["privacy/set-consent", "in"],
      ["privacy/set-consent", "out"],
    ]);
    f.stopHolding();
    await settle();
    // Out at last: the page view queued since pending is dropped, never sent.
    expect(f.sent.map((r) => r.action)).toEqual(["privacy/set-consent", "privacy/set-consent"]);
    // in → out → in while the first is out: nothing more to send, the queue goes on the first answer.
    const g = fakeEdge({ cookies: { [IDENTITY]: "id" }, sdk: "pending" });
    void g.start().pageView({});
    g.hold();
    g.setConsent("in");
    await settle();
    g.setConsent("out");
    g.setConsent("in");
    await settle();
    g.stopHolding();
    await settle();
    expect(g.sent.map(general)).toEqual([
      ["privacy/set-consent", "in"],
      ["interact", undefined],
    ]);
  });

  it("pending: events queue and nothing is sent; in: privacy/set-consent first, then the queued events; the hash is kept in localStorage once the page is hidden", async () => {
    const f = fakeEdge({ sdk: "pending", konductor: true });
    const analytics = f.start();
    const view = analytics.pageView({});
    await vi.advanceTimersByTimeAsync(5000);
    expect(f.sent).toEqual([]);
    expect(f.messages()).toContain("Consent is pending.");
    f.setConsent("in");
    await settle();
    expect(f.sent.map((r) => r.action)).toEqual(["privacy/set-consent", "interact"]);
    expect(f.sent[0].json).toEqual({
      consent: [{ standard: "Adobe", version: "1.0", value: { general: "in" } }],
      query: { identity: { fetch: ["ECID"] } },
      meta: { state: { domain: "kiwi.example", cookiesEnabled: true }, configOverrides: { com_adobe_analytics: { reportSuites: ["kiwiprod"] } } },
    });
    await expect(view).resolves.toBe(200);
    expect(f.store[HASH_KEY]).toBeUndefined();
    f.lifecycle("hidden");
    expect(f.store[HASH_KEY]).toBe(fnv1a32Hex('{"value":{"general":"in"}}'));
  });

  it("a first visit touches no storage while the page is shown: the answered consent's hash is stored when it is hidden or left, once (its first storage access blocks: edge-profile, #21)", async () => {
    const f = fakeEdge({ sdk: "in", storage: {} });
    const analytics = f.start();
    const order: string[] = [];
    const sentBefore = () => f.sent.map((r) => r.action).join(",");
    const setItem = f.win.localStorage.setItem;
    f.win.localStorage.setItem = (k: string, v: string) => (k === HASH_KEY && order.push(`hash after ${sentBefore()}`), setItem(k, v));
    void analytics.pageView({});
    await settle();
    await vi.advanceTimersByTimeAsync(5000);
    expect(f.sent.map((r) => r.action)).toEqual(["privacy/set-consent", "interact"]);
    expect(order).toEqual([]);
    f.lifecycle("hidden");
    expect(order).toEqual(["hash after privacy/set-consent,interact"]);
    expect(f.store[HASH_KEY]).toBe(fnv1a32Hex('{"value":{"general":"in"}}'));
    // Stored once: hidden again or left, nothing more to write.
    f.lifecycle("visible");
    f.lifecycle("pagehide");
    expect(order).toHaveLength(1);
    // A page hidden when the answer arrives stores it at once; a page left before it, on pagehide.
    const g = fakeEdge({ sdk: "in", storage: {} });
    const hidden = g.start();
    g.lifecycle("hidden");
    void hidden.pageView({});
    await settle();
    expect(g.store[HASH_KEY]).toBe(fnv1a32Hex('{"value":{"general":"in"}}'));
    const h = fakeEdge({ sdk: "in", storage: {} });
    void h.start().pageView({});
    await settle();
    h.lifecycle("pagehide");
    expect(h.store[HASH_KEY]).toBe(fnv1a32Hex('{"value":{"general":"in"}}'));
  });

  it("set-consent is not sent again for the same consent (hash) while the identity and consent cookies exist", async () => {
    const f = fakeEdge({ cookies: returning, storage: { [HASH_KEY]: fnv1a32Hex('{"value":{"general":"in"}}') } });
    void f.start().pageView({});
    await settle();
    expect(f.sent.map((r) => r.action)).toEqual(["interact"]);
    // Without the consent cookie the hash does not stand (alloy clears it).
    const g = fakeEdge({ cookies: { [IDENTITY]: "id" }, storage: { [HASH_KEY]: fnv1a32Hex('{"value":{"general":"in"}}') } });
    void g.start().pageView({});
    await settle();
    expect(g.sent.map((r) => r.action)).toEqual(["privacy/set-consent", "interact"]);
  });

  it("out: queued events are dropped with 'The user declined consent.'; set-consent out is sent; later events are dropped too", async () => {
    const f = fakeEdge({ sdk: "pending", cookies: { [IDENTITY]: "id" } });
    const analytics = f.start();
    const view = analytics.pageView({});
    f.setConsent("out");
    await settle();
    await expect(view).resolves.toBeUndefined();
    void analytics.event({ name: "x", eventType: "x", linkType: "other" });
    await settle();
    expect(f.sent.map((r) => r.action)).toEqual(["privacy/set-consent"]);
    expect(f.sent[0].json.consent[0].value).toEqual({ general: "out" });
    expect(f.entries.filter((e) => e.message === "The user declined consent.")).toHaveLength(2);
  });

  it("events wait while set-consent is in flight, then go", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" }, sdk: "pending" });
    const analytics = f.start();
    f.hold();
    f.setConsent("in");
    void analytics.pageView({});
    await settle();
    expect(f.sent.map((r) => r.action)).toEqual(["privacy/set-consent"]);
    f.release();
    await settle();
    expect(f.sent.map((r) => r.action)).toEqual(["privacy/set-consent", "interact"]);
  });

  it("the stored kndctr consent cookie stands while the consent machine is pending, only with the identity cookie", async () => {
    const f = fakeEdge({ sdk: "pending", cookies: returning });
    void f.start().pageView({});
    const g = fakeEdge({ sdk: "pending", cookies: { [CONSENT_COOKIE]: "general=in" } });
    void g.start().pageView({});
    await settle();
    expect(f.sent.map((r) => r.action)).toEqual(["interact"]);
    expect(g.sent).toEqual([]);
  });

  it("onBeforeEventSend (page hook window.sitetagsOnBeforeEventSend): false cancels with the protocol's message; changes are sent; empty objects dropped", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    const analytics = f.start();
    const seen: unknown[] = [];
    (f.win as Record<string, unknown>).sitetagsOnBeforeEventSend = (content: { xdm: Record<string, any>; data: Record<string, unknown> }) => {
      seen.push(JSON.parse(JSON.stringify(content)));
      if (content.xdm.eventType === "x.cancel") return false;
      content.xdm.web.webPageDetails.URL = "https://redacted.example/";
      content.data = {};
      return undefined;
    };
    await expect(analytics.event({ name: "c", eventType: "x.cancel", linkType: "other" })).resolves.toBeUndefined();
    expect(f.sent).toEqual([]);
    expect(f.entries).toContainEqual(
      expect.objectContaining({ level: "info", message: "Event was canceled because the onBeforeEventSend callback returned false." }),
    );
    void analytics.pageView({ variables: { eVar1: "v" } });
    await settle();
    expect(seen[1]).toMatchObject({ data: { __adobe: { analytics: { eVar1: "v" } } } });
    expect(f.sent[0].json.events[0].xdm.web.webPageDetails.URL).toBe("https://redacted.example/");
    expect(f.sent[0].json.events[0].data).toBeUndefined();
  });

  it("a hook that throws cancels the event too, logged as its own error (not the 'returned false' message)", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    const analytics = f.start();
    (f.win as Record<string, unknown>).sitetagsOnBeforeEventSend = () => {
      throw new Error("hook bug");
    };
    await expect(analytics.event({ name: "c", eventType: "x.a", linkType: "other" })).resolves.toBeUndefined();
    expect(f.sent).toEqual([]);
    expect(f.entries).toContainEqual(expect.objectContaining({ level: "error", message: "the onBeforeEventSend callback threw; the event was not sent" }));
    expect(f.messages()).not.toContain("Event was canceled because the onBeforeEventSend callback returned false.");
  });
});

describe("retries and responses", () => {
  it("429, 502, 503, 504 are retried up to 3 times with the same URL, body and requestId; delay 1000 + 1000·n ± 30 % (injected random)", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" }, random: () => 0 });
    f.answer({ status: 503, body: "busy" }, { status: 429 }, { status: 502 }, { status: 504, body: "still busy" });
    const done = f.start().pageView({});
    await settle();
    expect(f.sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(699);
    expect(f.sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(f.sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1399);
    expect(f.sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(f.sent).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(2100);
    expect(f.sent).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(f.sent).toHaveLength(4);
    expect(new Set(f.sent.map((r) => r.url)).size).toBe(1);
    expect(new Set(f.sent.map((r) => r.body)).size).toBe(1);
    await expect(done).resolves.toBeUndefined();
    expect(f.messages()).toEqual(["The server responded with a status code 504 and response body: still busy"]);
  });

  it("a 503 then a success delivers exactly once", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    f.answer({ status: 503 });
    const done = f.start().pageView({});
    await vi.advanceTimersByTimeAsync(1300);
    expect(f.sent).toHaveLength(2);
    await expect(done).resolves.toBe(200);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(f.sent).toHaveLength(2);
    expect(f.messages()).toEqual([]);
  });

  it("Retry-After: seconds or an HTTP date", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    f.answer({ status: 429, headers: { "Retry-After": "5" } }, { status: 503, headers: { "Retry-After": new Date(Date.now() + 5000 + 2000).toUTCString() } });
    void f.start().pageView({});
    await vi.advanceTimersByTimeAsync(4999);
    expect(f.sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(f.sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(f.sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(f.sent).toHaveLength(3);
  });

  it("other statuses are failures, logged with the body or 'no response body.'; 204 and 2xx with handle succeed; warnings and errors logged", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    f.answer(
      { status: 400, body: { errors: [{ title: "bad" }] } },
      { status: 500 },
      { status: 204 },
      { status: 200, body: { handle: [], warnings: [{ code: "W1" }], errors: [{ code: "E1" }] } },
      { status: 200, body: "<html>" },
    );
    const analytics = f.start();
    const results = await Promise.all([0, 1, 2, 3, 4].map(() => analytics.pageView({})));
    expect(results).toEqual([undefined, undefined, 204, 200, undefined]);
    expect(f.sent).toHaveLength(5);
    expect(f.entries.map((e) => [e.level, e.message, e.data])).toEqual([
      ["warn", 'The server responded with a status code 400 and response body: {"errors":[{"title":"bad"}]}', undefined],
      ["warn", "The server responded with a status code 500 and no response body.", undefined],
      ["warn", "The server responded with a warning:", { code: "W1" }],
      ["warn", "The server responded with a non-fatal error:", { code: "E1" }],
      ["warn", "The server responded with a status code 200 and response body: <html>", undefined],
    ]);
  });

  it("a network failure: 'Network request failed.', not retried", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    f.answer(new TypeError("Failed to fetch"));
    await expect(f.start().pageView({})).resolves.toBeUndefined();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(f.sent).toHaveLength(1);
    expect(f.entries).toEqual([expect.objectContaining({ level: "warn", message: "Network request failed.", data: "TypeError: Failed to fetch" })]);
  });
});

describe("the way out: hidden and unloading pages", () => {
  it("an event while hidden goes to collect by sendBeacon (Blob text/plain) once identity exists; beacons are not retried", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    const analytics = f.start();
    f.lifecycle("hidden");
    await expect(analytics.pageView({})).resolves.toBe(204);
    await settle();
    expect(f.sent).toHaveLength(1);
    expect(f.sent[0]).toMatchObject({ via: "beacon", action: "collect", blobType: "text/plain; charset=utf-8" });
    expect(f.sent[0].json.events[0].xdm.eventType).toBe("web.webpagedetails.pageViews");
    f.lifecycle("visible");
    void analytics.pageView({});
    await settle();
    expect(f.sent[1]).toMatchObject({ via: "fetch", action: "interact" });
  });

  it("merely hidden (another tab), a visitor without identity keeps one request in flight: the first by fetch to interact, the rest after its answer by sendBeacon to collect; pagehide sends what still waits", async () => {
    /** A returning visitor whose identity cookie expired (consent still stored), the page hidden. */
    const expired = async () => {
      const f = fakeEdge({ konductor: true, sdk: "in", storage: {} });
      f.answer({ status: 200, body: { handle: [] } });
      const analytics = f.start();
      await settle();
      f.hold();
      f.jar.delete(IDENTITY);
      f.lifecycle("hidden");
      void analytics.pageView({});
      void analytics.event({ name: "a", eventType: "x.a", linkType: "other" });
      await settle();
      expect(f.sent.slice(1).map((r) => [r.via, r.action])).toEqual([["fetch", "interact"]]);
      return f;
    };
    const f = await expired();
    f.stopHolding();
    await settle();
    expect(f.sent.slice(1).map((r) => [r.via, r.action])).toEqual([
      ["fetch", "interact"],
      ["beacon", "collect"],
    ]);
    const g = await expired();
    g.lifecycle("pagehide");
    await settle();
    expect(g.sent.slice(1).map((r) => [r.via, r.action])).toEqual([
      ["fetch", "interact"],
      ["beacon", "interact"],
    ]);
  });

  it("sendBeacon missing or refusing: fetch to the same collect URL", async () => {
    const refused = fakeEdge({ cookies: { [IDENTITY]: "id" }, sendBeacon: () => false });
    const a = refused.start();
    refused.lifecycle("pagehide");
    void a.pageView({});
    const missing = fakeEdge({ cookies: { [IDENTITY]: "id" }, sendBeacon: false });
    const b = missing.start();
    missing.lifecycle("hidden");
    void b.pageView({});
    await settle();
    expect(refused.sent).toMatchObject([{ via: "fetch", action: "collect", init: { keepalive: true } }]);
    expect(missing.sent).toMatchObject([{ via: "fetch", action: "collect", init: { keepalive: true } }]);
  });

  it("the fetch that stands in for a missing or refusing sendBeacon is retried on 503 like any request (same URL and requestId)", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" }, sendBeacon: () => false });
    f.answer({ status: 503 });
    const analytics = f.start();
    f.lifecycle("hidden");
    const view = analytics.pageView({});
    await settle();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(f.sent.map((r) => [r.via, r.action, r.requestId])).toEqual([
      ["fetch", "collect", f.sent[0].requestId],
      ["fetch", "collect", f.sent[0].requestId],
    ]);
    await expect(view).resolves.toBe(200);
  });

  it("without identity a leaving page's event goes by sendBeacon to interact (collect needs an identity)", async () => {
    const f = fakeEdge();
    const analytics = f.start();
    f.lifecycle("pagehide");
    void analytics.pageView({});
    await settle();
    expect(f.sent).toMatchObject([
      { via: "fetch", action: "privacy/set-consent" },
      { via: "beacon", action: "interact" },
    ]);
  });

  it("set-consent aborted by the unload (its promise rejects before the pagehide handler runs): the queued events still go by sendBeacon", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" }, sdk: "pending" });
    const analytics = f.start();
    f.hold();
    f.setConsent("in");
    void analytics.pageView({});
    await settle();
    f.answer(new TypeError("Failed to fetch"));
    f.release();
    for (let i = 0; i < 10; i++) await new Promise<void>((resolve) => queueMicrotask(resolve));
    f.lifecycle("pagehide");
    await settle();
    expect(f.sent.map((r) => [r.via, r.action])).toEqual([
      ["fetch", "privacy/set-consent"],
      ["beacon", "collect"],
    ]);
  });

  it("pagehide flushes what waits: events behind set-consent or the identity request, and scheduled retries (by sendBeacon to collect)", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" }, sdk: "pending" });
    const analytics = f.start();
    f.hold();
    f.setConsent("in");
    void analytics.pageView({});
    await settle();
    expect(f.sent.map((r) => r.action)).toEqual(["privacy/set-consent"]);
    f.lifecycle("pagehide");
    await settle();
    expect(f.sent.map((r) => [r.via, r.action])).toEqual([
      ["fetch", "privacy/set-consent"],
      ["beacon", "collect"],
    ]);

    const g = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    g.answer({ status: 503 });
    const b = g.start();
    const view = b.pageView({});
    await settle();
    g.lifecycle("hidden");
    await settle();
    expect(g.sent.map((r) => [r.via, r.action, r.requestId])).toEqual([
      ["fetch", "interact", g.sent[0].requestId],
      ["beacon", "collect", g.sent[0].requestId],
    ]);
    await expect(view).resolves.toBe(204);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(g.sent).toHaveLength(2);
  });

  it("declined while set-consent(out) is still out, then unloaded: the queued events are dropped with 'The user declined consent.', not 'Consent is pending.'", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" }, sdk: "pending" });
    const analytics = f.start();
    const view = analytics.pageView({});
    f.hold();
    f.setConsent("out");
    await settle();
    const before = f.messages().length;
    f.lifecycle("pagehide");
    await settle();
    expect(f.sent.map((r) => r.action)).toEqual(["privacy/set-consent"]);
    expect(f.messages().slice(before)).toEqual(["The user declined consent."]);
    await expect(view).resolves.toBeUndefined();
  });

  it("events still waiting for consent at unload stay unsent: 'Consent is pending.'", async () => {
    const f = fakeEdge({ sdk: "pending" });
    const analytics = f.start();
    void analytics.pageView({});
    f.lifecycle("pagehide");
    await settle();
    expect(f.sent).toEqual([]);
    expect(f.entries).toContainEqual(expect.objectContaining({ message: "Consent is pending.", data: { events: 1 } }));
  });
});

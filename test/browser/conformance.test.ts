/**
 * Conformance: @adobe/alloy 2.33.1 (the oracle, bundled by esbuild into a
 * page script, never into a sitetags bundle) and our Edge client run in
 * Chromium against the same mock edge, with the same configuration (org,
 * datastream, edge domain, report suite, SDK consent pending by default,
 * third-party cookies off) and the same events. Compared, per
 * shared/edge-protocol.md "What a conformance test compares": URL pattern and
 * query keys; method, credentials, content type (and the other fetch
 * options); top-level body keys and default XDM key paths; one request in
 * flight before identity; cookie names, domain, path and SameSite; attempts
 * and requestId on a 503; zero requests while consent is pending, then
 * set-consent and the queued event; the exact message strings.
 *
 * Any difference fails the test unless ALLOWED below lists it, with a reason.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
import { CONSENT_DECLINED, CONSENT_PENDING, EVENT_CANCELED, IDENTITY_COOKIE_NOT_FOUND, NETWORK_REQUEST_FAILED } from "../../runtime-modules/core/messages";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const HOST = "conformance-qa.kiwi.example";
const EDGE = "edge.kiwi.example";

/**
 * The documented differences: `what` names a compared item (see differences()),
 * `reason` says why ours may differ from alloy there.
 */
const ALLOWED: Array<{ what: string; reason: string }> = [
  {
    what: "fetch option keepalive",
    reason:
      "ours sets keepalive: true (within the browsers' 64 KB in-flight budget) so that a request in flight when the page unloads is still delivered; alloy relies on sendBeacon only for events flagged documentUnloading. Not visible on the wire.",
  },
  {
    what: "fetch option referrerPolicy",
    reason:
      "ours sends the origin only as Referer (strict-origin-when-cross-origin; alloy: no-referrer-when-downgrade, the full address): the page address may carry personal data (an e-mail, a registration id) that the redaction keeps out of the body; the edge reads the page from xdm.web.webPageDetails.URL.",
  },
  {
    what: "message separator: server response",
    reason:
      "alloy writes 'response body:' + newline + the pretty-printed JSON; ours uses messages.ts serverResponded(status, body): 'response body: ' + the body as received. The wording up to 'response body:' is identical.",
  },
];

const SITE = `# yaml-language-server: $schema=./site.schema.json
code: conformance
name: Conformance
appId: "903"
hosts:
  qa: [${HOST}]
budget: { gzipBytes: 60000 }
disabledRules: [modal, application-error]
rules:
  - { id: conf-event, name: Conformance event, events: [{ type: directCall, name: confEvent }], actions: [{ type: sendEvent, name: "conformance event", eventType: web.webinteraction.linkClicks, variables: { eVar9: lab } }] }
`;

const h = useBrowserHarness();
let ours: Bundle;
let alloyScript: string;
let config: { orgId: string; datastreamId: string; reportSuite: string; edgeDomain: string; edgeBasePath: string };
let org: string;
/** Differences found by each test, for the summary printed at the end. */
const report: string[] = [];

beforeAll(async () => {
  await trustTestCertificateForBeacons(h);
  ours = await buildBundle("conformance", "qa", { sitesDir: tempCatalogue({ "conformance.yaml": SITE }) });
  config = ours.config.analytics;
  org = config.orgId.replace("@", "_");
  const esbuild = await import("esbuild");
  const out = await esbuild.build({
    stdin: {
      contents:
        'import { createCustomInstance, components } from "@adobe/alloy"; window.__createAlloy = function () { window.alloy = createCustomInstance({ name: "alloy", components: [components.consent] }); };',
      resolveDir: ROOT,
      loader: "js",
    },
    bundle: true,
    format: "iife",
    target: "es2020",
    minify: true,
    write: false,
    logLevel: "silent",
  });
  alloyScript = out.outputFiles[0].text;
}, 240_000);

afterAll(() => {
  if (report.length) console.log(`conformance: allowed differences seen\n${report.join("\n")}`);
});

/* ---------- the two clients on the same page ---------- */

type Client = "alloy" | "ours";

/** Records, in the page, what each client hands to fetch and sendBeacon (both clients read window.fetch / navigator.sendBeacon). */
const RECORD_CALLS = `(function () {
  window.__edgeCalls = [];
  var f = window.fetch;
  window.fetch = function (url, init) {
    if (String(url).indexOf("${EDGE}") >= 0) {
      init = init || {};
      var headers = {};
      if (init.headers) for (var k in init.headers) headers[k.toLowerCase()] = init.headers[k];
      window.__edgeCalls.push({ via: "fetch", url: String(url), method: init.method, credentials: init.credentials, cache: init.cache, referrerPolicy: init.referrerPolicy, keepalive: !!init.keepalive, contentType: headers["content-type"] });
    }
    return f.apply(this, arguments);
  };
  var b = navigator.sendBeacon;
  navigator.sendBeacon = function (url, data) {
    window.__edgeCalls.push({ via: "beacon", url: String(url), contentType: data && data.type });
    return b.apply(navigator, arguments);
  };
})();`;

function alloySetup(): string {
  return `
window.__alloyLog = [];
window.__alloyMonitors = [{ onBeforeLog: function (d) { window.__alloyLog.push(d.arguments.map(function (a) { return a && a.message ? a.message : typeof a === "string" ? a : ""; }).join(" ")); } }];
window.__createAlloy();
alloy("configure", {
  orgId: ${JSON.stringify(config.orgId)},
  datastreamId: ${JSON.stringify(config.datastreamId)},
  edgeDomain: ${JSON.stringify(config.edgeDomain)},
  edgeBasePath: ${JSON.stringify(config.edgeBasePath)},
  defaultConsent: "pending",
  thirdPartyCookiesEnabled: false,
  edgeConfigOverrides: { com_adobe_analytics: { reportSuites: [${JSON.stringify(config.reportSuite)}] } },
  onBeforeEventSend: function () { if (window.__cancel) return false; }
});
window.__results = [];
window.__send = function (options) { return alloy("sendEvent", options).then(function () { __results.push("ok"); }, function (e) { __results.push(e.message); window.__alloyLog.push(e.message); }); };
window.__pageView = function () { return __send({ xdm: { eventType: "web.webpagedetails.pageViews", web: { webPageDetails: { name: "conformance/alloy" } } }, data: { __adobe: { analytics: { eVar1: "conformance" } } } }); };
window.__linkClick = function (extra) { return __send(Object.assign({ xdm: { eventType: "web.webinteraction.linkClicks", web: { webInteraction: { name: "conformance event", type: "other", URL: location.href, linkClicks: { value: 1 } } } }, data: { __adobe: { analytics: { eVar9: "lab" } } } }, extra || {})); };
window.__pageView();
`;
}

interface Side {
  client: Client;
  tab: TestPage;
  path: string;
}

async function open(client: Client): Promise<Side> {
  const path = `/${client}-${Math.random().toString(36).slice(2, 8)}`;
  const url = `https://${HOST}${path}`;
  // A marker cookie tells this side's requests (the Referer may be the origin only; a closed page of an earlier test may still send).
  const cookies = [`conformance=${path.slice(1)}; Domain=kiwi.example; Path=/; Secure; SameSite=None`];
  if (client === "ours") h.web.page(url, { bundle: ours, cookies });
  else h.web.page(url, { before: [alloyScript, alloySetup()], cookies });
  const tab = await h.browser.openPage(url, { initScripts: [RECORD_CALLS] });
  return { client, tab, path };
}

/** This side's edge POSTs. */
function posts(side: Side): RecordedRequest[] {
  return h.web.find((r) => r.host === EDGE && r.method === "POST" && String(r.headers.cookie).includes(`conformance=${side.path.slice(1)}`));
}

const actionOf = (r: RecordedRequest) => r.path.replace(/^.*\/v1\//, "");
const typeOf = (r: RecordedRequest): string | undefined => (r.json as any)?.events?.[0]?.xdm?.eventType;

async function until<T>(read: () => T, ok: (v: T) => boolean, what: string, timeoutMs = 8000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let v = read();
  while (!ok(v) && Date.now() < end) {
    await settle(25);
    v = read();
  }
  if (!ok(v)) throw new Error(`timed out waiting for ${what}`);
  return v;
}

async function giveConsent(side: Side, value: "in" | "out"): Promise<void> {
  if (side.client === "ours") await side.tab.setConsent(value === "in" ? CONSENT.performance : CONSENT.necessary);
  else
    await side.tab.page.evaluate(
      (v) => void (window as any).alloy("setConsent", { consent: [{ standard: "Adobe", version: "1.0", value: { general: v } }] }),
      value,
    );
}

async function sendLinkClick(side: Side, extra?: Record<string, unknown>): Promise<void> {
  if (side.client === "ours") await side.tab.page.evaluate(() => (window as any).sitetags.track("confEvent"));
  else await side.tab.page.evaluate((e) => void (window as any).__linkClick(e), extra);
}

/** Every message the side logged: our log entries; alloy's logger lines and rejected command messages. */
async function messagesOf(side: Side): Promise<string[]> {
  if (side.client === "ours") return (await side.tab.logEntries()).map((e) => String(e.message));
  return side.tab.page.evaluate(() => (window as any).__alloyLog as string[]);
}

async function callsOf(side: Side): Promise<Array<Record<string, unknown>>> {
  return side.tab.page.evaluate(() => (window as any).__edgeCalls);
}

/* ---------- what is compared ---------- */

/** Key paths of a JSON value: objects by key, arrays as [] (first element). */
function keyPaths(value: unknown, prefix = ""): string[] {
  if (Array.isArray(value)) return value.length ? keyPaths(value[0], `${prefix}[]`) : [`${prefix}[]`];
  if (value && typeof value === "object")
    return Object.keys(value).flatMap((k) => keyPaths((value as Record<string, unknown>)[k], prefix ? `${prefix}.${k}` : k));
  return [prefix];
}

/** A request's comparable shape: method, URL pattern, query keys, content type, body keys and paths (values left out). */
function shape(r: RecordedRequest) {
  const body = r.json as Record<string, any>;
  const u = new URL(r.url);
  return {
    method: r.method,
    url: `${u.origin}${u.pathname}`.replace(new RegExp(`/${config.edgeBasePath}/[a-z0-9]+/v1/`), `/${config.edgeBasePath}/{hint}/v1/`),
    "query keys": [...u.searchParams.keys()].join(","),
    "query configId": u.searchParams.get("configId"),
    "requestId is a uuid": /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u.searchParams.get("requestId") ?? ""),
    "content-type": String(r.headers["content-type"]).toLowerCase().replace(/\s/g, ""),
    "sec-fetch-mode": r.headers["sec-fetch-mode"],
    "cookies sent": String(r.headers.cookie ?? "")
      .split("; ")
      .map((c) => c.split("=")[0].replace(org, "{org}"))
      .filter((n) => n.startsWith("kndctr_") || n.startsWith("AMCV_"))
      .sort()
      .join(","),
    "body keys": Object.keys(body).sort().join(","),
    "query paths": keyPaths(body.query).sort().join(","),
    "meta paths": keyPaths(body.meta).sort().join(","),
    "event keys": body.events ? Object.keys(body.events[0]).sort().join(",") : undefined,
    "xdm paths": body.events ? keyPaths(body.events[0].xdm).sort().join(",") : undefined,
    consent: body.consent ? JSON.stringify(body.consent) : undefined,
  };
}

interface Difference {
  what: string;
  alloy: unknown;
  ours: unknown;
}

function compare(what: string, alloy: unknown, oursValue: unknown, into: Difference[]): void {
  if (JSON.stringify(alloy) !== JSON.stringify(oursValue)) into.push({ what, alloy, ours: oursValue });
}

function compareShapes(label: string, a: RecordedRequest, o: RecordedRequest, into: Difference[]): void {
  const sa = shape(a);
  const so = shape(o);
  for (const key of Object.keys(sa) as Array<keyof typeof sa>) compare(`${label}: ${key}`, sa[key], so[key], into);
}

/** Fails on any difference not allowed; records the allowed ones. */
function expectConformant(differences: Difference[]): void {
  const allowed = (d: Difference) => ALLOWED.some((a) => d.what === a.what || d.what.endsWith(`: ${a.what}`));
  for (const d of differences.filter(allowed)) report.push(`  ${d.what}: alloy ${JSON.stringify(d.alloy)} / ours ${JSON.stringify(d.ours)}`);
  const unexpected = differences.filter((d) => !allowed(d));
  expect(unexpected, unexpected.map((d) => `${d.what}:\n  alloy ${JSON.stringify(d.alloy)}\n  ours  ${JSON.stringify(d.ours)}`).join("\n")).toEqual([]);
}

/** What Konductor answers: state:store (identity when the request has none, cluster, consent on set-consent) and identity:result. */
function konductor(delays: Record<string, number> = {}) {
  return (r: RecordedRequest): EdgeResponse => {
    const action = actionOf(r);
    const store: unknown[] = [];
    if (!String(r.headers.cookie ?? "").includes(`kndctr_${org}_identity=`))
      store.push({
        key: `kndctr_${org}_identity`,
        value: "CiYxMjM0NTY3ODkwMTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3OA",
        maxAge: 34128000,
        attrs: { SameSite: "None" },
      });
    store.push({ key: `kndctr_${org}_cluster`, value: "or2", maxAge: 1800, attrs: { SameSite: "None" } });
    if (action === "privacy/set-consent")
      store.push({ key: `kndctr_${org}_consent`, value: `general=${(r.json as any).consent[0].value.general}`, maxAge: 15552000, attrs: { SameSite: "None" } });
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

/** Answers link clicks from a script per requestId (attempt 1, 2, …), everything else as Konductor does. */
function withScript(script: EdgeResponse[]) {
  const rest = konductor();
  const attempts = new Map<string, number>();
  return (r: RecordedRequest): EdgeResponse => {
    if (typeOf(r) !== "web.webinteraction.linkClicks") return rest(r);
    const n = attempts.get(r.query.requestId) ?? 0;
    attempts.set(r.query.requestId, n + 1);
    return script[n] ?? rest(r);
  };
}

async function cookiesOf(side: Side) {
  const now = Date.now() / 1000;
  return (await side.tab.context.cookies())
    .filter((c) => c.name.startsWith("kndctr_") || c.name.startsWith("AMCV_"))
    .map((c) => ({
      name: c.name.replace(org, "{org}").replace(config.orgId.replace("@", "%40"), "{orgId}"),
      domain: c.domain,
      path: c.path,
      sameSite: c.sameSite,
      secure: c.secure,
      lifetime: c.expires < 0 ? "session" : `${Math.round((c.expires - now) / 3600)} h`,
    }))
    .sort((x, y) => x.name.localeCompare(y.name));
}

/* ---------- the tests ---------- */

/** Both pages opened, consent given, the page views delivered (the identity cookie set by the mock Konductor). */
async function consented(): Promise<[Side, Side]> {
  h.web.edge.handler = konductor();
  const sides: [Side, Side] = [await open("alloy"), await open("ours")];
  for (const side of sides) await giveConsent(side, "in");
  const views = (side: Side) => posts(side).filter((r) => typeOf(r) === "web.webpagedetails.pageViews" && r.status === 200);
  await until(
    () => sides.map(views),
    (v) => v.every((x) => x.length > 0),
    "the page views",
  );
  await settle(300);
  return sides;
}

describe("alloy 2.33.1 and ours on the same page, the same config, the same mock edge", () => {
  it("consent pending: zero requests; then set-consent first and alone, the queued page view after its answer; URLs, transport, bodies, cookies", async () => {
    h.web.edge.handler = konductor({ "privacy/set-consent": 400 });
    const alloy = await open("alloy");
    const mine = await open("ours");
    await settle(800);
    const differences: Difference[] = [];
    compare("requests while consent is pending", posts(alloy).length, posts(mine).length, differences);
    expect(posts(alloy)).toEqual([]);
    expect(posts(mine)).toEqual([]);

    for (const side of [alloy, mine]) await giveConsent(side, "in");
    const views = (side: Side) => posts(side).filter((r) => typeOf(r) === "web.webpagedetails.pageViews");
    await until(
      () => [views(alloy), views(mine)],
      ([a, o]) => a.length > 0 && o.length > 0,
      "the page views",
    );
    await settle(500);

    const sequence = (side: Side) => posts(side).filter((r) => typeOf(r) !== "kiwi.privacyConsentChange");
    compare("request sequence", sequence(alloy).map(actionOf), sequence(mine).map(actionOf), differences);
    const [aConsent, aView] = sequence(alloy);
    const [oConsent, oView] = sequence(mine);
    compareShapes("set-consent", aConsent, oConsent, differences);
    compareShapes("page view", aView, oView, differences);
    // One request in flight before identity: the page view left only after set-consent's answer (400 ms).
    compare("page view waited for the identity request's answer", aView.time >= aConsent.time + 390, oView.time >= oConsent.time + 390, differences);

    const [aCalls, oCalls] = [await callsOf(alloy), await callsOf(mine)];
    for (const key of ["via", "method", "credentials", "cache", "referrerPolicy", "keepalive", "contentType"])
      compare(`fetch option ${key}`, aCalls[0][key], oCalls[0][key], differences);
    compare("cookies", await cookiesOf(alloy), await cookiesOf(mine), differences);
    if (process.env.CONFORMANCE_DEBUG)
      console.log(
        JSON.stringify(
          {
            set: shape(aConsent),
            view: shape(aView),
            oview: shape(oView),
            cookies: await cookiesOf(alloy),
            ocookies: await cookiesOf(mine),
            calls: aCalls[0],
            ocalls: oCalls[0],
            waited: [aView.time - aConsent.time, oView.time - oConsent.time],
            seq: sequence(alloy).map(actionOf),
          },
          null,
          1,
        ),
      );
    expectConformant(differences);
    expect(aView.json).toMatchObject({ meta: { configOverrides: { com_adobe_analytics: { reportSuites: [config.reportSuite] } } } });
  });

  it("a 503 is retried with the same URL, body and requestId (about 1 s, then Retry-After); at most 4 attempts, then the failure message", async () => {
    const [alloy, mine] = await consented();
    const exposed = { "Access-Control-Expose-Headers": "Retry-After" };
    h.web.edge.handler = withScript([
      { status: 503, body: "busy" },
      { status: 503, headers: { "Retry-After": "0", ...exposed }, body: "busy" },
    ]);
    const clicks = (side: Side) => posts(side).filter((r) => typeOf(r) === "web.webinteraction.linkClicks");
    for (const side of [alloy, mine]) await sendLinkClick(side);
    await until(
      () => [clicks(alloy), clicks(mine)],
      ([a, o]) => a.length >= 3 && o.length >= 3,
      "three attempts each",
    );
    await settle(1500);
    const differences: Difference[] = [];
    const attempts = (side: Side) => {
      const list = clicks(side);
      return {
        count: list.length,
        statuses: list.map((r) => r.status),
        sameRequestId: new Set(list.map((r) => r.query.requestId)).size === 1,
        sameUrl: new Set(list.map((r) => r.url)).size === 1,
        sameBody: new Set(list.map((r) => r.body)).size === 1,
        firstDelayAbout1s: list[1].time - list[0].time >= 650 && list[1].time - list[0].time <= 2500,
        retryAfterZero: list[2].time - list[1].time < 400,
      };
    };
    compare("503, 503, 200 attempts", attempts(alloy), attempts(mine), differences);
    compareShapes("link click", clicks(alloy)[0], clicks(mine)[0], differences);

    h.web.reset();
    h.web.edge.handler = withScript([1, 2, 3, 4, 5].map(() => ({ status: 503, headers: { "Retry-After": "0", ...exposed }, body: "overloaded" })));
    for (const side of [alloy, mine]) await sendLinkClick(side);
    await until(
      () => [clicks(alloy), clicks(mine)],
      ([a, o]) => a.length >= 4 && o.length >= 4,
      "four attempts each",
    );
    await settle(1500);
    compare("attempts when every answer is 503", clicks(alloy).length, clicks(mine).length, differences);
    const failure = async (side: Side) => (await messagesOf(side)).find((m) => m.includes("The server responded with a status code 503")) ?? "";
    const [aFailure, oFailure] = [await failure(alloy), await failure(mine)];
    const prefix = (m: string) => m.slice(m.indexOf("The server responded"), m.indexOf("response body:") + "response body:".length);
    compare("message: server response (up to the body)", prefix(aFailure), prefix(oFailure), differences);
    compare(
      "message separator: server response",
      aFailure.slice(aFailure.indexOf("response body:") + 14, aFailure.indexOf("response body:") + 15),
      oFailure.slice(oFailure.indexOf("response body:") + 14, oFailure.indexOf("response body:") + 15),
      differences,
    );
    expect(prefix(oFailure)).toBe("The server responded with a status code 503 and response body:");
    expectConformant(differences);
  });

  it("an event while the page may unload goes by sendBeacon to collect (identity established); not retried", async () => {
    const [alloy, mine] = await consented();
    // alloy: the documentUnloading option; ours: the page is being hidden (pagehide), then shown again.
    await alloy.tab.page.evaluate(() => void (window as any).__linkClick({ documentUnloading: true }));
    await mine.tab.page.evaluate(() => {
      window.dispatchEvent(new PageTransitionEvent("pagehide", { persisted: true }));
      (window as any).sitetags.track("confEvent");
      window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true }));
    });
    const clicks = (side: Side) => posts(side).filter((r) => typeOf(r) === "web.webinteraction.linkClicks");
    await until(
      () => [clicks(alloy), clicks(mine)],
      ([a, o]) => a.length >= 1 && o.length >= 1,
      "the beacons",
    );
    await settle(300);
    const differences: Difference[] = [];
    compare("beacon requests", clicks(alloy).length, clicks(mine).length, differences);
    compareShapes("beacon", clicks(alloy)[0], clicks(mine)[0], differences);
    // Ours may send more than the one event on pagehide (the page's own web-vitals event): compare the kinds of call.
    const beaconCall = async (side: Side) => [
      ...new Set(
        (await callsOf(side))
          .filter((c) => c.via === "beacon")
          .map((c) => JSON.stringify({ via: c.via, action: String(c.url).replace(/^.*\/v1\/|\?.*$/g, ""), contentType: c.contentType })),
      ),
    ];
    compare("sendBeacon calls", await beaconCall(alloy), await beaconCall(mine), differences);
    expectConformant(differences);
  });

  it("messages: event canceled by onBeforeEventSend, network failure", async () => {
    const [alloy, mine] = await consented();
    h.web.reset();
    h.web.edge.handler = konductor();
    await alloy.tab.page.evaluate(() => void ((window as any).__cancel = true));
    await mine.tab.page.evaluate(() => void ((window as any).sitetagsOnBeforeEventSend = () => false));
    for (const side of [alloy, mine]) await sendLinkClick(side);
    await settle(500);
    const differences: Difference[] = [];
    compare("requests for a canceled event", posts(alloy).length, posts(mine).length, differences);
    await alloy.tab.page.evaluate(() => void ((window as any).__cancel = false));
    await mine.tab.page.evaluate(() => void delete (window as any).sitetagsOnBeforeEventSend);

    for (const side of [alloy, mine]) await side.tab.page.route(`https://${EDGE}/**`, (route) => route.abort("failed"));
    for (const side of [alloy, mine]) await sendLinkClick(side);
    await settle(800);
    for (const side of [alloy, mine]) await side.tab.page.unroute(`https://${EDGE}/**`);
    for (const message of [EVENT_CANCELED, NETWORK_REQUEST_FAILED]) {
      compare(
        `message: ${message}`,
        (await messagesOf(alloy)).some((m) => m.includes(message)),
        (await messagesOf(mine)).includes(message),
        differences,
      );
    }
    expectConformant(differences);
  });

  it("consent out: set-consent out only, the queued event dropped with 'The user declined consent.'", async () => {
    h.web.edge.handler = konductor();
    const a = await open("alloy");
    const o = await open("ours");
    await settle(500);
    for (const side of [a, o]) await giveConsent(side, "out");
    await until(
      () => [posts(a), posts(o)],
      ([x, y]) => x.length >= 1 && y.length >= 1,
      "set-consent out",
    );
    await settle(800);
    const differences: Difference[] = [];
    compare("requests after consent out", posts(a).map(actionOf), posts(o).map(actionOf), differences);
    compareShapes("set-consent out", posts(a)[0], posts(o)[0], differences);
    compare(
      `message: ${CONSENT_DECLINED}`,
      (await messagesOf(a)).some((m) => m.includes(CONSENT_DECLINED)),
      (await messagesOf(o)).includes(CONSENT_DECLINED),
      differences,
    );
    compare("cookies after consent out", await cookiesOf(a), await cookiesOf(o), differences);
    expectConformant(differences);
  });

  it("messages: 'Consent is pending.' (alloy: appendIdentityToUrl while pending) and 'Identity cookie not found.' (an edge that sets no identity)", async () => {
    const a = await open("alloy");
    const o = await open("ours");
    await a.tab.page.evaluate(() => void (window as any).alloy("appendIdentityToUrl", { url: "https://x.example/" }));
    await settle(300);
    const differences: Difference[] = [];
    compare(
      `message: ${CONSENT_PENDING}`,
      (await messagesOf(a)).some((m) => m.includes(CONSENT_PENDING)),
      (await messagesOf(o)).includes(CONSENT_PENDING),
      differences,
    );
    // An edge that sets the consent cookie but no identity cookie (alloy waits for the consent cookie before it releases events).
    h.web.edge.handler = (r) => {
      const store = actionOf(r) === "privacy/set-consent" ? [{ key: `kndctr_${org}_consent`, value: "general=in", maxAge: 15552000 }] : [];
      return { status: 200, body: { requestId: r.query.requestId, handle: [{ type: "state:store", payload: store }] } };
    };
    for (const side of [a, o]) await giveConsent(side, "in");
    await until(
      () => [posts(a), posts(o)],
      ([x, y]) => x.length >= 2 && y.length >= 2,
      "requests after consent",
    );
    await settle(500);
    compare(
      `message: ${IDENTITY_COOKIE_NOT_FOUND}`,
      (await messagesOf(a)).some((m) => m.includes(IDENTITY_COOKIE_NOT_FOUND)),
      (await messagesOf(o)).includes(IDENTITY_COOKIE_NOT_FOUND),
      differences,
    );
    expectConformant(differences);
  });

  it("every SDK message of the protocol is alloy's exact string (read from its source)", () => {
    const core = `${ROOT}node_modules/@adobe/alloy-core/src/core`;
    const sources = [
      "consent/createConsentStateMachine.js",
      "createEventManager.js",
      "network/injectSendNetworkRequest.js",
      "../components/Identity/injectAwaitIdentityCookie.js",
      "edgeNetwork/injectProcessWarningsAndErrors.js",
    ]
      .map((f) => readFileSync(`${core}/${f}`, "utf8"))
      .join("\n");
    // "No consent preferences have been set." is alloy's for a default consent of out, which our sites never use (docs/messages.md: not logged).
    for (const message of [
      CONSENT_DECLINED,
      "No consent preferences have been set.",
      CONSENT_PENDING,
      IDENTITY_COOKIE_NOT_FOUND,
      EVENT_CANCELED,
      NETWORK_REQUEST_FAILED,
      "The server responded with a",
      "status code ",
      "no response body.",
      "response body:",
    ]) {
      expect(sources, message).toContain(message);
    }
  });
});

/**
 * Personalisation on the Edge protocol (issue 20; spec section 7: "Event
 * types: page view, link click, proposition fetch (scope capture_ddl)";
 * section 9: "personalization storage on"; "Performance tags (analytics,
 * personalization, monitoring)"): the page view's query, a decision applied
 * and its display notified, over the fake browser of the Edge client's tests.
 * In Chromium: test/browser/tags-vendors.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { IDENTITY, fakeEdge, settle } from "./fake-edge";
import { personalization, storageKey } from "../../../../runtime-modules/edge/personalization";
import { edgeFeaturesOf } from "../../../../generator/bundle/features";
import { AnalyticsSchema } from "../../../../generator/config/schemas/core-settings";
import type { EdgeContext } from "../../../../runtime-modules/edge/context";
import type { Job } from "../../../../runtime-modules/edge/request";

const PROPOSITION = {
  id: "prop-1",
  scope: "capture_ddl",
  scopeDetails: { activity: { id: "act-1" } },
  items: [{ id: "i-1", schema: "https://ns.adobe.com/personalization/json-content-item", data: { content: { segment: "returning" } } }],
};
const decisions = (...payload: unknown[]) => ({ status: 200, body: { requestId: "r", handle: [{ type: "personalization:decisions", payload }] } });
const ON = { personalization: { decisionScopes: ["capture_ddl"], storage: true } };

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 4, 2, 10, 0, 0), toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('"proposition fetch (scope capture_ddl)" on the page view', () => {
  it("the schema's defaults are the spec's: scope capture_ddl, storage on; the Edge path is in a bundle only when set", () => {
    const base = { orgId: "A@AdobeOrg", datastreamId: "d", reportSuite: "r" };
    expect(AnalyticsSchema.parse({ ...base, personalization: {} }).personalization).toEqual({ decisionScopes: ["capture_ddl"], storage: true });
    expect(AnalyticsSchema.parse(base).personalization).toBeUndefined();
    expect(edgeFeaturesOf(AnalyticsSchema.parse(base))).not.toContain("personalization");
    expect(edgeFeaturesOf(AnalyticsSchema.parse({ ...base, personalization: {} }))).toContain("personalization");
  });

  it("a page view asks for the scope in events[0].query.personalization (alloy's schemas); a link click does not; without the setting nothing is asked", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" }, analytics: ON });
    const analytics = f.start();
    await analytics.pageView({ name: "home" });
    await analytics.event({ name: "cta", eventType: "web.webinteraction.linkClicks", linkType: "other" });
    await settle();
    expect(f.sent[0].json.events[0].query.personalization).toEqual({
      schemas: expect.arrayContaining(["https://ns.adobe.com/personalization/json-content-item", "https://ns.adobe.com/personalization/html-content-item"]),
      decisionScopes: ["capture_ddl"],
    });
    expect(f.sent[1].json.events[0].query).toBeUndefined();

    const off = fakeEdge({ cookies: { [IDENTITY]: "id" } });
    await off.start().pageView({ name: "home" });
    await settle();
    expect(off.sent[0].json.events[0].query).toBeUndefined();
  });
});

describe('"A decision answer from the edge is applied, and its display is notified"', () => {
  it("the answer's proposition for the scope is pushed to the data layer, counted in storage, and one display notification follows", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" }, analytics: ON });
    const layer: unknown[] = [];
    (f.win as Record<string, unknown>).kiwiDataLayer = layer;
    f.answer(decisions(PROPOSITION, { ...PROPOSITION, id: "other", scope: "elsewhere" }));
    await f.start().pageView({ name: "home" });
    await settle();
    expect(layer).toEqual([{ event: "personalization-decision", scope: "capture_ddl", propositionId: "prop-1", content: [{ segment: "returning" }] }]);
    expect(f.sent).toHaveLength(2);
    const display = f.sent[1].json.events[0];
    expect(f.sent[1].action).toBe("interact");
    expect(display.xdm.eventType).toBe("decisioning.propositionDisplay");
    expect(display.xdm._experience).toEqual({
      decisioning: {
        propositions: [{ id: "prop-1", scope: "capture_ddl", scopeDetails: { activity: { id: "act-1" } } }],
        propositionEventType: { display: 1 },
      },
    });
    expect(display.query).toBeUndefined();
    expect(JSON.parse(f.store[storageKey(f.config.analytics.orgId)])).toEqual({ "prop-1": { count: 1, last: Date.UTC(2026, 4, 2, 10, 0, 0) } });
    expect(f.monitorEvents).toContainEqual({ type: "personalization", propositions: ["prop-1"] });
  });

  it("no proposition for the scope (or none at all): nothing applied, no notification", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" }, analytics: ON });
    f.answer(decisions({ ...PROPOSITION, scope: "elsewhere" }), { status: 200, body: { requestId: "r", handle: [] } });
    const analytics = f.start();
    await analytics.pageView({ name: "home" });
    await analytics.pageView({ name: "next" });
    await settle();
    expect(f.sent.map((r) => r.json.events[0].xdm.eventType)).toEqual(["web.webpagedetails.pageViews", "web.webpagedetails.pageViews"]);
  });

  it("storage off: nothing is counted and an earlier history is removed", async () => {
    const f = fakeEdge({ cookies: { [IDENTITY]: "id" }, analytics: { personalization: { decisionScopes: ["capture_ddl"], storage: false } } });
    const key = storageKey(f.config.analytics.orgId);
    f.store[key] = '{"old":{"count":3}}';
    f.answer(decisions(PROPOSITION));
    await f.start().pageView({ name: "home" });
    await settle();
    expect(f.sent).toHaveLength(2);
    expect(key in f.store).toBe(false);
  });
});

// Issue #21, "No blocking storage on the first page unless needed": the history is read when a display is counted, not before.
describe('"personalization storage on" without blocking storage on a first visit (issue #21)', () => {
  it("starting personalisation (the page view's query) touches no storage, nor does an answer without a proposition; a shown one is counted then", () => {
    // Chromium's Temporal names the time zone of the display notification without storage (protocol.ts ianaTimezone).
    vi.stubGlobal("Temporal", { Now: { timeZoneId: () => "Europe/Paris" } });
    const touched: string[] = [];
    const store: Record<string, string> = {};
    const storage = {
      getItem: (k: string) => (touched.push("get " + k), store[k] ?? null),
      setItem: (k: string, v: string) => (touched.push("set " + k), (store[k] = v)),
      removeItem: (k: string) => void touched.push("remove " + k),
    };
    const ctx = {
      config: { analytics: { orgId: "A@AdobeOrg", personalization: ON.personalization }, dataLayerName: "kiwiDataLayer" },
      consent: { decide: () => ({ allowed: true, reason: "consent-given", category: "performance" }) },
      monitor: { emit: () => undefined },
      storage: () => (touched.push("localStorage"), storage),
      win: { screen: { width: 1, height: 1 }, document: { documentElement: {} }, location: {} },
      page: () => ({ href: "https://go.kiwi.example/", referrer: "" }),
    } as unknown as EdgeContext;
    const pageView = (): Job => ({
      action: "interact",
      payload: { events: [{ xdm: { eventType: "web.webpagedetails.pageViews" } }] },
      created: 0,
      done: () => {},
    });
    const sent: unknown[] = [];
    const first = pageView();
    personalization(ctx, first, (job) => void sent.push(job));
    expect(first.payload.events[0]).toHaveProperty("query.personalization.decisionScopes", ["capture_ddl"]);
    expect(touched).toEqual([]);
    first.done(200, { handle: [] } as never);
    expect(touched).toEqual([]);
    const second = pageView();
    personalization(ctx, second, (job) => void sent.push(job));
    second.done(200, decisions(PROPOSITION).body as never);
    expect(touched).toEqual(["localStorage", "get " + storageKey("A@AdobeOrg"), "set " + storageKey("A@AdobeOrg")]);
    expect(sent).toHaveLength(1);
  });
});

describe('"Performance tags (analytics, personalization, monitoring)": the gate', () => {
  it("the gate's answer for tag personalization, category performance, decides: blocked, no query and nothing done with an answer", () => {
    const emitted: unknown[] = [];
    const asked: unknown[] = [];
    const ctx = {
      config: { analytics: { orgId: "A@AdobeOrg", personalization: ON.personalization }, dataLayerName: "kiwiDataLayer" },
      consent: {
        decide: (tag: string, category: string) => {
          asked.push([tag, category]);
          return { allowed: false, reason: "consent-category", category };
        },
      },
      monitor: { emit: (type: string, d: object) => emitted.push({ type, ...d }) },
      storage: () => undefined,
      win: {},
    } as unknown as EdgeContext;
    const payload = { events: [{ xdm: { eventType: "web.webpagedetails.pageViews" } }] };
    const done = () => {};
    const job = { action: "interact", payload, created: 0, done };
    personalization(ctx, job, () => {});
    expect(payload.events[0]).toEqual({ xdm: { eventType: "web.webpagedetails.pageViews" } });
    expect(job.done).toBe(done);
    expect(asked).toEqual([["personalization", "performance"]]);
    expect(emitted).toEqual([{ type: "tag", tag: "personalization", state: "blocked", reason: "consent-category", consent: "performance", detail: undefined }]);
  });
});

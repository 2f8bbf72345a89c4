import { describe, expect, it } from "vitest";
import { beaconCounts, beaconTitle, decodeBeacon, groupBeacons, settleStatus } from "../../../preview/src/lib/beacons";
import type { Entry, NetworkRecord } from "../../../preview/src/lib/protocol";

const URL_BASE = "https://edge.kiwi.example/ee/v1/interact?configId=ds-1&requestId=";

function body(xdm: Record<string, unknown>, analytics?: Record<string, string>) {
  const event: Record<string, unknown> = { xdm };
  if (analytics) event.data = { __adobe: { analytics } };
  return JSON.stringify({
    events: [event],
    query: { identity: { fetch: ["ECID"] } },
    meta: { state: { domain: "kiwi.example", cookiesEnabled: true }, configOverrides: { com_adobe_analytics: { reportSuites: ["kiwiglobalprod"] } } },
  });
}

const pageView = body(
  {
    eventType: "web.webpagedetails.pageViews",
    web: { webPageDetails: { URL: "https://satreg.kiwi.example/register", name: "satreg:register:start" }, webReferrer: { URL: "" } },
  },
  { events: "purchase", eVar30: "SAT-1" },
);
const click = body({
  eventType: "web.webinteraction.linkClicks",
  web: {
    webPageDetails: { URL: "https://bigfuture.kiwi.example/" },
    webInteraction: { name: "promo click", type: "other", URL: "https://bigfuture.kiwi.example/sat", linkClicks: { value: 1 } },
  },
});

function monitor(page: number, at: number, requestId: string, b: string, url = URL_BASE + requestId): Entry {
  return { kind: "monitor", page, at, event: { type: "beacon", t: at - 1000, url, requestId, eventType: JSON.parse(b).events[0].xdm.eventType, body: b } };
}

function edge(seq: number, at: number, requestId: string, b: string, status: number, extra: Partial<NetworkRecord> = {}): Entry {
  const url = URL_BASE + requestId;
  return {
    kind: "network",
    page: 1,
    at,
    request: {
      seq,
      time: at,
      kind: "edge",
      host: "edge.kiwi.example",
      method: "POST",
      url,
      path: "/ee/v1/interact",
      query: { configId: "ds-1", requestId },
      status,
      durationMs: 3,
      body: b,
      mode: "cors",
      edgeMode: "ok",
      ...extra,
    },
  };
}

describe("decodeBeacon", () => {
  it("reads the endpoint, event type, page name, variables and report suite of a page view", () => {
    const d = decodeBeacon(URL_BASE + "r-1", pageView);
    expect(d).toMatchObject({
      action: "interact",
      configId: "ds-1",
      requestId: "r-1",
      eventType: "web.webpagedetails.pageViews",
      pageName: "satreg:register:start",
      pageUrl: "https://satreg.kiwi.example/register",
      variables: { events: "purchase", eVar30: "SAT-1" },
      reportSuites: ["kiwiglobalprod"],
      domain: "kiwi.example",
      eventCount: 1,
      problems: [],
    });
    expect(beaconTitle(d)).toBe("page view · satreg:register:start");
  });

  it("reads a link click's interaction", () => {
    const d = decodeBeacon(URL_BASE + "r-2", click);
    expect(d.interaction).toEqual({ name: "promo click", type: "other", url: "https://bigfuture.kiwi.example/sat" });
    expect(d.pageName).toBeUndefined();
    expect(beaconTitle(d)).toBe("link click · promo click");
  });

  it("names a request without events by its action (set-consent) and keeps its consent", () => {
    const d = decodeBeacon(
      "https://edge.kiwi.example/ee/v1/privacy/set-consent?configId=ds-1&requestId=r-3",
      JSON.stringify({ consent: [{ standard: "Adobe", version: "2.0", value: { collect: { val: "y" } } }], query: {}, meta: {} }),
    );
    expect(d.action).toBe("privacy/set-consent");
    expect(d.consent).toHaveLength(1);
    expect(beaconTitle(d)).toBe("privacy/set-consent");
  });

  it("reports what does not decode instead of throwing", () => {
    expect(decodeBeacon("not a url", "{oops").problems).toEqual(["not a URL: not a url", "the body is not JSON"]);
    expect(decodeBeacon(URL_BASE + "x", JSON.stringify({ events: [{ xdm: {} }] })).problems).toEqual(["the event has no xdm.eventType"]);
  });
});

describe("groupBeacons", () => {
  it("joins the runtime's report and the edge's attempts by requestId, counting retries", () => {
    const groups = groupBeacons([
      monitor(1, 1000, "r-1", pageView),
      edge(1, 1010, "r-1", pageView, 503, { edgeMode: "retry" }),
      edge(2, 2100, "r-1", pageView, 200, { edgeMode: "retry" }),
      monitor(1, 3000, "r-2", click),
      edge(3, 3005, "r-2", click, 200),
    ]);
    expect(groups.map((g) => [g.key, g.status, g.attempts.length, g.retries, g.latencyMs])).toEqual([
      ["r-1", "ok", 2, 1, 10],
      ["r-2", "ok", 1, 0, 5],
    ]);
    expect(groups[0].attempts.map((a) => a.status)).toEqual([503, 200]);
    expect(groups[0].seenBy).toEqual({ monitor: true, edge: true });
  });

  it("keeps an edge arrival that came before the runtime's report (or without one), and a report the edge never got", () => {
    const groups = groupBeacons([edge(1, 1000, "r-9", click, 200, { mode: "no-cors" }), monitor(1, 1002, "r-9", click), monitor(2, 5000, "r-10", pageView)]);
    expect(groups).toHaveLength(2);
    expect(groups[0]).toMatchObject({ key: "r-9", status: "ok", seenBy: { monitor: true, edge: true } });
    expect(groups[0].attempts[0].transport).toBe("sendBeacon");
    expect(groups[1]).toMatchObject({ key: "r-10", page: 2, status: "not received", seenBy: { monitor: true, edge: false } });
    expect(settleStatus(groups[1], 6000)).toBe("waiting");
    expect(settleStatus(groups[1], 9000)).toBe("not received");
  });

  it("a failed last attempt fails the event; a dropped connection (status 0) too; preflights are not attempts", () => {
    const groups = groupBeacons([
      monitor(1, 1000, "a", pageView),
      edge(1, 1001, "a", pageView, 500),
      monitor(1, 2000, "b", click),
      edge(2, 2001, "b", click, 0),
      edge(3, 2002, "b", click, 204, { method: "OPTIONS" }),
    ]);
    expect(groups.map((g) => [g.status, g.attempts.length])).toEqual([
      ["failed", 1],
      ["failed", 1],
    ]);
    expect(beaconCounts(groups)).toEqual([
      { eventType: "page view", count: 1, failed: 1 },
      { eventType: "link click", count: 1, failed: 1 },
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { groupBeacons } from "../../../preview/src/lib/beacons";
import { beaconCurl, beaconJson, matchesBeacon, NO_FILTER } from "../../../preview/src/lib/beacon-tools";
import { buildTimeline, position } from "../../../preview/src/lib/timeline";
import type { Entry } from "../../../preview/src/lib/protocol";

const body = (eventType: string, vars: Record<string, string>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ events: [{ xdm: { eventType, web: { webPageDetails: { name: "bigfuture/home" }, ...extra } }, data: { __adobe: { analytics: vars } } }] });
const beacon = (at: number, id: string, b: string): Entry => ({
  kind: "monitor",
  page: 1,
  at,
  event: { type: "beacon", t: at, url: `https://edge.kiwi.example/ee/v1/interact?configId=c&requestId=${id}`, requestId: id, body: b },
});

const entries: Entry[] = [
  { kind: "page", page: 1, at: 100, href: "https://bigfuture.kiwi.example/", title: "", timeOrigin: 0, csp: "" },
  beacon(110, "pv", body("web.webpagedetails.pageViews", { eVar81: "Direct" })),
  { kind: "consent", page: 1, at: 120, groups: ",C0001,C0002,", via: "event" },
  beacon(130, "lc", body("web.webinteraction.linkClicks", { eVar30: "SAT-1" }, { webInteraction: { name: "tnt-spring-sat-reminder", type: "other" } })),
  { kind: "monitor", page: 1, at: 140, event: { type: "dataLayer", t: 140, event: "modal", push: {} } },
];

describe("beacon search, filter and copy", () => {
  const groups = groupBeacons(entries);
  it("filters by text (names, variables, XDM), by type and by variable (name, or name=text)", () => {
    const ids = (f: Partial<typeof NO_FILTER>) => groups.filter((g) => matchesBeacon(g, { ...NO_FILTER, ...f })).map((g) => g.requestId);
    expect(ids({})).toEqual(["pv", "lc"]);
    expect(ids({ text: "SPRING-sat" })).toEqual(["lc"]);
    expect(ids({ text: "evar81=direct" })).toEqual(["pv"]);
    expect(ids({ type: "link click" })).toEqual(["lc"]);
    expect(ids({ variable: "eVar30" })).toEqual(["lc"]);
    expect(ids({ variable: "eVar30=sat" })).toEqual(["lc"]);
    expect(ids({ variable: "eVar30=nope" })).toEqual([]);
  });
  it("copies as cURL (the same request) and as JSON", () => {
    const curl = beaconCurl(groups[0]);
    expect(curl).toMatch(/^curl 'https:\/\/edge\.kiwi\.example\/ee\/v1\/interact\?configId=c&requestId=pv'/);
    expect(curl).toContain("-X POST");
    expect(curl).toContain(`--data-raw '${body("web.webpagedetails.pageViews", { eVar81: "Direct" })}'`);
    expect(beaconCurl({ ...groups[0], body: "it's" })).toContain(`--data-raw 'it'\\''s'`);
    const json = JSON.parse(beaconJson(groups[1])) as { requestId: string; variables: Record<string, string>; body: { events: unknown[] } };
    expect([json.requestId, json.variables.eVar30, json.body.events.length]).toEqual(["lc", "SAT-1", 1]);
  });
});

describe("timeline", () => {
  it("puts beacons, consent changes and pushes on lanes in time order, with the page loads", () => {
    const t = buildTimeline(entries, groupBeacons(entries), [], 100);
    expect(t.items.map((i) => [i.lane, i.at])).toEqual([
      ["beacons", 110],
      ["consent", 120],
      ["beacons", 130],
      ["data layer", 140],
    ]);
    expect(t.pages).toEqual([{ page: 1, at: 100, href: "https://bigfuture.kiwi.example/" }]);
    expect([position(t, 100), position(t, 140), position(t, 999)]).toEqual([0, 100, 100]);
  });
});

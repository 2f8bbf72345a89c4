import { describe, expect, it } from "vitest";
import { claim, createClaims, loadKey, offer, requestKey, urlKey } from "../../../preview/src/lib/claims";
import { groupBeacons } from "../../../preview/src/lib/beacons";
import type { Entry, NetworkRecord } from "../../../preview/src/lib/protocol";

const edge = (seq: number, requestId: string, extra: Partial<NetworkRecord> = {}): NetworkRecord => ({
  seq,
  time: 1000 + seq,
  kind: "edge",
  host: "edge.kiwi.example",
  method: "POST",
  url: `https://edge.kiwi.example/ee/v1/collect?configId=c&requestId=${requestId}`,
  path: "/ee/v1/collect",
  query: { configId: "c", requestId },
  status: 204,
  body: JSON.stringify({ events: [{ xdm: { eventType: "web.performance" } }] }),
  ...extra,
});

describe("claims: every beacon tied to the tab and page load that sent it", () => {
  it("keeps a record only once a page of this session claims it, in either order; never another tab's", () => {
    const c = createClaims();
    expect(offer(c, edge(1, "r1"), 2000)).toBeUndefined(); // the stream was faster than the runtime's report
    expect(claim(c, requestKey("r1"), 1).map((x) => [x.record.seq, x.page])).toEqual([[1, 1]]);
    expect(offer(c, edge(2, "r1"), 2000)).toBe(1); // a retry of the same event
    expect(offer(c, edge(3, "other-tab"), 2000)).toBeUndefined();
    expect(claim(c, requestKey("r9"), 2)).toEqual([]);
    expect(c.pending.map((r) => r.seq)).toEqual([3]);
    // Waiting records go after a minute.
    offer(c, edge(4, "late"), 2000 + 61_000);
    expect(c.pending.map((r) => r.seq)).toEqual([4]);
  });

  it("URLs claim other requests whatever the port; an unload beacon is claimed by the page load its cookie names, and shown under it marked", () => {
    const c = createClaims();
    claim(c, urlKey("https://pixel.adpartner.example:8443/conv?id=1#x"), 1);
    expect(offer(c, { ...edge(5, "x"), kind: "third-party", url: "https://pixel.adpartner.example/conv?id=1", query: {} }, 2000)).toBe(1);
    claim(c, loadKey("load-a"), 1);
    const unload = edge(6, "u1", { unloadOf: "load-a" });
    expect(offer(c, unload, 2000)).toBe(1);
    const entries: Entry[] = [
      { kind: "page", page: 1, at: 1, href: "https://a.kiwi.example/", title: "", timeOrigin: 0, csp: "", load: "load-a" },
      { kind: "page", page: 2, at: 5, href: "https://a.kiwi.example/about", title: "", timeOrigin: 0, csp: "", load: "load-b" },
      { kind: "network", page: 1, at: 6, request: unload },
    ];
    const [g] = groupBeacons(entries);
    expect([g.page, g.unload]).toEqual([1, true]);
  });

  it("a beacon the runtime reports after its page's pagehide is an unload beacon", () => {
    const entries: Entry[] = [
      {
        kind: "monitor",
        page: 1,
        at: 1,
        event: { type: "beacon", t: 1, url: "https://edge.kiwi.example/ee/v1/interact?requestId=a", requestId: "a", body: "{}" },
      },
      { kind: "lifecycle", page: 1, at: 2, state: "hidden" },
      {
        kind: "monitor",
        page: 1,
        at: 3,
        event: { type: "beacon", t: 3, url: "https://edge.kiwi.example/ee/v1/collect?requestId=b", requestId: "b", body: "{}" },
      },
      { kind: "lifecycle", page: 1, at: 4, state: "unload" },
      {
        kind: "monitor",
        page: 1,
        at: 5,
        event: { type: "beacon", t: 5, url: "https://edge.kiwi.example/ee/v1/collect?requestId=c", requestId: "c", body: "{}" },
      },
    ];
    expect(groupBeacons(entries).map((g) => [g.requestId, g.unload])).toEqual([
      ["a", false],
      ["b", true],
      ["c", true],
    ]);
  });
});

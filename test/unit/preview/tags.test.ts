import { describe, expect, it } from "vitest";
import { normalizeConfig } from "../../../preview/src/lib/bundle-config";
import type { Entry, NetworkRecord } from "../../../preview/src/lib/protocol";
import { groupRuleFirings } from "../../../preview/src/lib/rules";
import { computeTags, consentOnPage, reasonText, srcPrefix, tagName } from "../../../preview/src/lib/tags";

const config = normalizeConfig({
  v: 1,
  site: { code: "satreg", name: "SAT Registration", appId: "33", spa: true, internal: false },
  env: "prod",
  hosts: { prod: ["satreg.kiwi.example"] },
  dataLayerName: "kiwiDataLayer",
  consent: {
    banner: { scriptSrc: "https://cdn.consentbanner.example/otSDKStub.js" },
    groups: { performance: "C0002", functional: "C0003", marketing: "C0004", required: "C" },
  },
  modules: { chat: { scriptSrc: "https://chat.widgetvendor.example/loader.js", pages: ["/contact-us"] } },
  rules: [
    {
      id: "payment-confirmation",
      events: [{ type: "libraryLoaded" }],
      conditions: [],
      actions: [{ type: "pixel", src: "https://pixel.adpartner.example/conv?id=kiwi&order=%orderId%", kind: "image", consent: "marketing" }],
    },
  ],
});

let seq = 0;
const monitor = (at: number, detail: Record<string, unknown>, page = 1): Entry => ({
  kind: "monitor",
  page,
  at,
  event: { type: String(detail.type), t: at, ...detail },
});
const request = (at: number, url: string, status = 200, page = 1): Entry => {
  const u = new URL(url);
  const r: NetworkRecord = {
    seq: ++seq,
    time: at,
    kind: "third-party",
    host: u.hostname,
    method: "GET",
    url,
    path: u.pathname,
    query: Object.fromEntries(u.searchParams),
    status,
    dest: "image",
  };
  return { kind: "network", page, at, request: r };
};
const consent = (at: number, groups: string | null): Entry => ({ kind: "consent", page: 1, at, groups, via: "setup" });
const ruleEvents = (at: number): Entry[] => [
  monitor(at, { type: "rule", rule: "payment-confirmation", event: "libraryLoaded", state: "triggered" }),
  monitor(at, { type: "rule", rule: "payment-confirmation", event: "libraryLoaded", state: "fired" }),
];

describe("computeTags", () => {
  it("a rule's marketing pixel as the gate reports it: waiting for consent, then loaded once its request is answered", () => {
    const before: Entry[] = [
      consent(900, null),
      ...ruleEvents(1000),
      monitor(1001, { type: "tag", tag: "payment-confirmation", state: "waiting", reason: "consent-category", category: "marketing", detail: "marketing" }),
    ];
    const waiting = computeTags(before, groupRuleFirings(before, config.rules), config);
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({
      tag: "payment-confirmation",
      kind: "reported",
      state: "waiting",
      blocked: true,
      reason: "consent-category",
      reasonSource: "runtime",
      category: "marketing",
      rule: "payment-confirmation",
    });
    expect(waiting[0].reasonText).toBe("waiting for consent: marketing not granted");

    const after = [
      ...before,
      consent(2000, ",C0001,C0002,C0004,"),
      monitor(2001, { type: "tag", tag: "payment-confirmation", state: "allowed", reason: "consent-given", category: "marketing" }),
      request(2005, "https://pixel.adpartner.example/conv?id=kiwi&order=SAT-1"),
    ];
    const loaded = computeTags(after, groupRuleFirings(after, config.rules), config);
    expect(loaded).toHaveLength(1);
    expect(loaded[0]).toMatchObject({
      state: "loaded",
      blocked: false,
      requests: [{ url: "https://pixel.adpartner.example/conv?id=kiwi&order=SAT-1", status: 200, at: 2005 }],
    });
    expect(loaded[0].history.map((h) => h.state)).toEqual(["waiting", "allowed"]);
  });

  it("shows every reason the gate gives, including ones the preview does not know yet", () => {
    const entries: Entry[] = [
      monitor(1, { type: "tag", tag: "chat", state: "blocked", reason: "gpc", category: "marketing" }),
      monitor(2, { type: "tag", tag: "survey", state: "blocked", reason: "exclusion-app-id", category: "functional", detail: "229" }),
      monitor(3, { type: "tag", tag: "adtag", state: "blocked", reason: "brand-new-reason", extra: 1 }),
      monitor(4, { type: "tag", tag: "helper", state: "skipped", reason: "current path does not match the route pattern", path: "/x" }),
    ];
    const rows = computeTags(entries, [], config);
    expect(rows.map((r) => [r.tag, r.state, r.blocked, r.reasonText])).toEqual([
      ["chat", "blocked", true, "Global Privacy Control signal (no marketing tags)"],
      ["survey", "blocked", true, "the site's app id 229 is on the functional exclusion list"],
      ["adtag", "blocked", true, "brand-new-reason"],
      ["helper", "skipped", true, "current path does not match the route pattern"],
    ]);
    expect(rows[2].detail).toEqual({ extra: 1 });
    expect(rows[3].detail).toEqual({ path: "/x" });
  });

  it("for a runtime that does not report rule tags, infers the pixel's state from the action and the consent", () => {
    const blocked: Entry[] = [
      consent(900, null),
      ...ruleEvents(1000),
      monitor(3000, { type: "rule", rule: "payment-confirmation", event: "libraryLoaded", action: 0, actionType: "pixel", outcome: "timed out" }),
    ];
    const [row] = computeTags(blocked, groupRuleFirings(blocked, config.rules), config);
    expect(row).toMatchObject({
      kind: "rule action",
      state: "waiting",
      blocked: true,
      reason: "consent-category",
      reasonSource: "preview",
      category: "marketing",
    });
    const allowed = [...blocked, consent(4000, ",C0001,C0004,"), request(4002, "https://pixel.adpartner.example/conv?id=kiwi&order=SAT-1")];
    const [later] = computeTags(allowed, groupRuleFirings(allowed, config.rules), config);
    expect(later).toMatchObject({ kind: "rule action", state: "loaded", blocked: false });
  });

  it("a module tag's script request, the consent banner and unexplained third-party requests", () => {
    const entries: Entry[] = [
      monitor(1, { type: "tag", tag: "chat", state: "allowed", reason: "consent-given", category: "functional" }),
      monitor(2, { type: "tag", tag: "chat", state: "loading", src: "https://chat.widgetvendor.example/loader.js" }),
      request(3, "https://chat.widgetvendor.example/loader.js"),
      monitor(4, { type: "tag", tag: "chat", state: "loaded" }),
      request(5, "https://cdn.consentbanner.example/otSDKStub.js"),
      request(6, "https://tracker.somewhere.example/t.gif", 404),
    ];
    const rows = computeTags(entries, [], config);
    expect(rows.map((r) => [r.tag, r.kind, r.state, r.requests.length])).toEqual([
      ["chat", "reported", "loaded", 1],
      ["consent banner", "request", "loaded", 1],
      ["tracker.somewhere.example/t.gif", "request", "failed", 1],
    ]);
  });
});

describe("sampled tags (docs/identity.md, Sampling)", () => {
  it("\"the decision is visible in the preview\": a sampled tag's row carries the host's rate and in or out; an unsampled tag none, and no empty detail", () => {
    const entries: Entry[] = [
      monitor(10, { type: "tag", tag: "rum", state: "skipped", reason: "sampled-out", sampling: { rate: 2, sampledIn: false } }),
      monitor(11, { type: "tag", tag: "beacon", state: "loading", src: "https://b.example/b.js", lifecycle: "pageTop", sampling: undefined }),
      monitor(
        12,
        { type: "tag", tag: "rum", state: "loading", src: "https://r.example/r.js", lifecycle: "pageTop", sampling: { rate: 1, sampledIn: true } },
        2,
      ),
    ];
    const rows = computeTags(entries, [], config);
    const out = rows.find((r) => r.tag === "rum" && r.page === 1)!;
    expect(out).toMatchObject({ state: "skipped", reason: "sampled-out", sampling: { rate: 2, sampledIn: false } });
    expect(out.reasonText).toBe("this visitor is sampled out at the host's sampling rate");
    expect(rows.find((r) => r.tag === "rum" && r.page === 2)).toMatchObject({ state: "loading", sampling: { rate: 1, sampledIn: true } });
    const beacon = rows.find((r) => r.tag === "beacon")!;
    expect(beacon.sampling).toBeUndefined();
    expect(Object.keys(beacon.detail)).toEqual(["src", "lifecycle"]);
  });
});

describe("helpers", () => {
  it("consentOnPage follows setup, banner changes and snapshots of that page", () => {
    expect(consentOnPage([consent(1, null), consent(2, ",C0001,C0002,")], 1)).toEqual({ groups: ",C0001,C0002,", gpc: false });
    expect(consentOnPage([consent(1, ",C0001,")], 2)).toEqual({ groups: null, gpc: false });
  });
  it("srcPrefix, tagName, reasonText", () => {
    expect(srcPrefix("https://p.example/conv?order=%orderId%&x=1")).toBe("https://p.example/conv?order=");
    expect(tagName("https://pixel.adpartner.example/conv?order=%id%")).toBe("pixel.adpartner.example/conv");
    expect(reasonText("user-name-in-url", "marketing", "referrer")).toBe("the user's name appears in the referrer");
    expect(reasonText(undefined)).toBeUndefined();
  });
});

/**
 * The families' pure rules and the generic loaders (issue 20): the
 * beacon's environment and lowerYn (the RUM family's sampling is the
 * sampling service's: sampled-tags.test.ts), ad-tracker
 * forwarding, the queue stub and the settings per host.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { beaconSettings } from "../../../../runtime-modules/modules/beacon/beacon-env";
import { forwardCall } from "../../../../runtime-modules/modules/ad-tracker/forward";
import { installQueue, settingsFor } from "../../../../runtime-modules/core/tag-loader";
import { AdTrackerSettingsSchema, PushNotificationsSettingsSchema } from "../../../../generator/config/schemas/tags.js";
import type { ResolvedTag } from "../../../../generator/config/bundle-config.js";
import type { TagFamilies } from "../../../../runtime-modules/core/types";
import { createPushNotifications } from "../../../../runtime-modules/modules/push-notifications/create-push-notifications";

describe("behavioural beacon: 'by subdomain, then domain, else dev with lowerYn y; lowerYn is n only in prod'", () => {
  const subs = [
    { pattern: "-qa$", env: "qa" as const },
    { pattern: "-dev$", env: "dev" as const },
  ];
  const domains = [{ pattern: "^kiwi\\.example$", env: "prod" as const }];
  it("the subdomain decides first", () => {
    expect(beaconSettings("kiwi", "newsroom-qa.kiwi.example", subs, domains)).toEqual({
      name: "kiwi",
      host: "newsroom-qa.kiwi.example",
      domain: "kiwi.example",
      env: "qa",
      lowerYn: "y",
    });
  });
  it("then the domain: prod, lowerYn n", () => {
    expect(beaconSettings("kiwi", "newsroom.kiwi.example", subs, domains)).toMatchObject({ env: "prod", lowerYn: "n" });
  });
  it("else dev with lowerYn y", () => {
    expect(beaconSettings("kiwi", "www.other.example", subs, domains)).toMatchObject({ env: "dev", lowerYn: "y", domain: "other.example" });
    expect(beaconSettings("kiwi", "localhost", subs, domains)).toMatchObject({ env: "dev", lowerYn: "y", domain: "" });
  });
  it("property: lowerYn is n exactly when the environment is prod", () => {
    const envs = ["dev", "qa", "uat", "perf", "prod", "oat", "nonprod", "prev"] as const;
    fc.assert(
      fc.property(fc.constantFrom(...envs), fc.constantFrom(...envs), fc.stringMatching(/^[a-z]{1,6}(-[a-z]{1,4})?\.[a-z]{1,6}\.example$/), (a, b, host) => {
        const s = beaconSettings("n", host, [{ pattern: "-[a-z]+$", env: a }], [{ pattern: "example$", env: b }]);
        expect(s.lowerYn).toBe(s.env === "prod" ? "n" : "y");
      }),
      { numRuns: 1000 },
    );
  });
});

describe("ad-tracker forwarding: 'forwarded to advertising trackers (tracker, pixel id, event name, data)'", () => {
  const settings = AdTrackerSettingsSchema.parse({ tracker: "px", pixelId: "P-1", events: { purchase: "PURCHASE" } });
  it("an event the tracker takes becomes (track command, pixel id, event name, data without event)", () => {
    expect(forwardCall(settings, { event: "purchase", orderId: "W1", total: 3 }, "purchase")).toEqual([
      "track",
      "P-1",
      "PURCHASE",
      { orderId: "W1", total: 3 },
    ]);
  });
  it("others are not forwarded (inherited names neither)", () => {
    expect(forwardCall(settings, { event: "page-view" }, "page-view")).toBeUndefined();
    expect(forwardCall(settings, { event: "toString" }, "toString")).toBeUndefined();
    expect(forwardCall(settings, { a: 1 }, undefined)).toBeUndefined();
  });
});

describe("generic loaders", () => {
  it("a vendor's function queue stub queues its calls' arguments on .q; an existing global is left alone", () => {
    const win = {} as Record<string, any>;
    installQueue(win as never, { global: "vq", kind: "function" });
    win.vq("init", "P-1");
    win.vq("track", "E");
    expect(win.vq.q.map((a: IArguments) => Array.from(a))).toEqual([
      ["init", "P-1"],
      ["track", "E"],
    ]);
    const own = () => undefined;
    const win2 = { vq: own } as Record<string, any>;
    installQueue(win2 as never, { global: "vq", kind: "array" });
    expect(win2.vq).toBe(own);
    installQueue(win2 as never, { global: "aq", kind: "array" });
    expect(win2.aq).toEqual([]);
  });
  it("'messaging config from the tag settings per host': the host's entry over the settings", () => {
    const tag = { settings: { appId: "m", channel: "default" }, hostSettings: { "a.kiwi.example": { channel: "a" } } };
    expect(settingsFor(tag, "a.kiwi.example")).toEqual({ appId: "m", channel: "a" });
    expect(settingsFor(tag, "b.kiwi.example")).toEqual({ appId: "m", channel: "default" });
  });
});

// Task tagsB: push notifications and the family registry as an injected service.
describe("push notifications and the family registry (services.tagFamilies)", () => {
  const tag: ResolvedTag = {
    code: "push",
    category: "marketing",
    lifecycle: "domReady",
    kind: "script",
    src: "https://push.vendor.example/sdk.js",
    family: "pushNotifications",
    pushNotifications: PushNotificationsSettingsSchema.parse({ global: "vpush", appId: "A-1" }),
    settings: { prompt: "slide", channel: "default" },
    hostSettings: { "a.kiwi.example": { channel: "a" } },
  };
  const make = (host: string) => {
    const win = { location: { pathname: "/scores" } } as Record<string, any>;
    const tagFamilies: TagFamilies = {};
    const listeners: Array<(p: Record<string, unknown>, e: string | undefined) => void> = [];
    const changed: Array<() => void> = [];
    const state = { allowed: true };
    const instance = createPushNotifications({
      config: { enabled: true },
      win,
      tagFamilies,
      consent: { allows: () => state.allowed, onChange: (l: () => void) => changed.push(l) },
      dataLayer: { on: (l: (typeof listeners)[number]) => listeners.push(l) },
      log: { error() {} },
      page: { host },
      bundle: { modules: { tags: { enabled: true, tags: [tag] } } },
    } as never);
    /** The visitor's consent for marketing changes (the consent service's onChange). */
    const consent = (allowed: boolean) => {
      state.allowed = allowed;
      changed.forEach((l) => l());
    };
    return { win, tagFamilies, instance, consent, push: (event: string) => listeners.forEach((l) => l({ event }, event)) };
  };
  it("the factory registers its hook in the registry it is given, and nothing on the window", () => {
    const a = make("a.kiwi.example");
    const b = make("a.kiwi.example");
    expect(Object.keys(a.tagFamilies)).toEqual(["pushNotifications"]);
    expect(a.tagFamilies.pushNotifications).not.toBe(b.tagFamilies.pushNotifications);
    expect(Object.getOwnPropertySymbols(a.win)).toEqual([]);
    expect(Object.keys(a.win)).toEqual(["location"]);
  });
  it("the vendor's queue gets [init, { appId, settings with the host's over them }], then [pageView, { path }]; a page-view push adds one", () => {
    const p = make("a.kiwi.example");
    expect(p.tagFamilies.pushNotifications.prepare!(tag)).toBe(true);
    p.push("page-view");
    p.push("purchase");
    expect(p.win.vpush).toEqual([
      ["init", { appId: "A-1", prompt: "slide", channel: "a" }],
      ["pageView", { path: "/scores" }],
      ["pageView", { path: "/scores" }],
    ]);
    expect(p.instance.commands!.pushNotificationsCalls()).toEqual({ push: p.win.vpush });
    const other = make("b.kiwi.example");
    other.tagFamilies.pushNotifications.prepare!(tag);
    expect(other.win.vpush[0]).toEqual(["init", { appId: "A-1", prompt: "slide", channel: "default" }]);
  });
  it("before its tag loads, a page-view push calls nothing and installs nothing; it waits, with its path, and follows the load's page view (at most 50 wait)", () => {
    const p = make("a.kiwi.example");
    p.consent(false);
    p.push("page-view");
    p.win.location.pathname = "/scores/2";
    p.push("page-view");
    expect(p.win.vpush).toBeUndefined();
    p.consent(true);
    p.tagFamilies.pushNotifications.prepare!(tag);
    expect(p.win.vpush.slice(1)).toEqual([
      ["pageView", { path: "/scores/2" }],
      ["pageView", { path: "/scores" }],
      ["pageView", { path: "/scores/2" }],
    ]);
    const many = make("a.kiwi.example");
    many.consent(false);
    for (let i = 0; i < 60; i++) many.push("page-view");
    many.consent(true);
    many.tagFamilies.pushNotifications.prepare!(tag);
    expect(many.win.vpush).toHaveLength(1 + 1 + 50);
  });
  it("a page view pushed before consent is never delivered once the consent is withdrawn: what waits is dropped, and nothing waits while it stays withdrawn", () => {
    const p = make("a.kiwi.example");
    p.consent(false);
    p.push("page-view");
    p.consent(true); // granted; the tag waits for its DOM-ready point
    p.push("page-view");
    p.consent(false); // withdrawn before it loaded
    p.push("page-view");
    p.consent(true);
    p.tagFamilies.pushNotifications.prepare!(tag);
    expect(p.win.vpush).toEqual([
      ["init", { appId: "A-1", prompt: "slide", channel: "a" }],
      ["pageView", { path: "/scores" }],
    ]);
    p.consent(false);
    p.push("page-view");
    expect(p.win.vpush).toHaveLength(2);
  });
});

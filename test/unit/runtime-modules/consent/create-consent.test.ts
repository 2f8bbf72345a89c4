/**
 * The consent machine's wiring to the banner (runtime-modules/consent/create-consent.ts):
 * which banner reports count as a "privacy consent change".
 */
import { describe, expect, it } from "vitest";
import { createConsent } from "../../../../runtime-modules/consent/create-consent";
import type { PrivacyConsentChange } from "../../../../runtime-modules/consent/privacy-change";
import { bundleConfig } from "../helpers/config";

/** A page with a banner that already knows the visitor's groups (or reports them later through OptanonWrapper). */
function page(groups: string | undefined, internal = false, gpc = false) {
  const listeners: Record<string, Array<() => void>> = {};
  const fire = (type: string) => (listeners[type] ?? []).forEach((fn) => fn());
  const win = {
    OnetrustActiveGroups: groups,
    location: { hostname: "bigfuture.kiwi.example", search: "" },
    navigator: { globalPrivacyControl: gpc, userAgent: "test" },
    document: { referrer: "" },
    sessionStorage: undefined,
    addEventListener: (type: string, fn: () => void) => void (listeners[type] = [...(listeners[type] ?? []), fn]),
    setTimeout: () => 0,
  } as unknown as Window & { OnetrustActiveGroups?: string; OptanonWrapper?: () => void };
  const base = bundleConfig();
  const config = { ...base, site: { ...base.site, internal } };
  const log = { enabled: false, debug() {}, info() {}, warn() {}, error() {} };
  const consent = createConsent({ config, win, log, monitor: { emit() {} }, loadScript: () => new Promise(() => {}) });
  const changes: PrivacyConsentChange[][] = [];
  consent.onPrivacyChange((c) => changes.push(c));
  consent.start();
  /** The banner reports (OptanonWrapper), as when the visitor saves a choice. */
  const report = (next: string) => {
    win.OnetrustActiveGroups = next;
    win.OptanonWrapper!();
  };
  /** The visitor saves a choice and closes the banner (its consent event). */
  const decide = (next: string) => {
    win.OnetrustActiveGroups = next;
    fire("consent.onetrust");
  };
  return { consent, changes, report, decide };
}

describe("privacy consent changes", () => {
  it("the banner's first report on a page restores the visitor's choice: no change is tracked (before: three events on every page view)", () => {
    const p = page(",C0001,C0002,C0003,C0004,");
    p.report(",C0001,C0002,C0003,C0004,");
    expect(p.consent.allows("performance")).toBe(true);
    expect(p.changes).toEqual([]);
  });
  it('"consent changes are tracked as privacy consent change events": a later report that changes categories, one record per category', () => {
    const p = page(undefined);
    p.report(",C0001,");
    expect(p.changes).toEqual([]);
    p.report(",C0001,C0002,C0004,");
    expect(p.changes).toEqual([
      [expect.objectContaining({ status: "in", type: "performance", actionSource: "banner" }), expect.objectContaining({ status: "in", type: "marketing" })],
    ]);
  });
  it("a first report that comes with the visitor's own decision (the banner's consent event) is a change", () => {
    const p = page(undefined);
    p.decide(",C0001,C0002,");
    expect(p.changes).toEqual([[expect.objectContaining({ status: "in", type: "performance" })]]);
  });
  it("an internal site's full consent is no change either", () => {
    const p = page(undefined, true);
    expect(p.consent.allows("marketing")).toBe(true);
    expect(p.changes).toEqual([]);
  });
});

describe("whenTagAllowed", () => {
  it("a tag blocked for good (the privacy signal) calls back `blocked`, never `load`; one waiting for consent neither, until consent comes", () => {
    const blockedPage = page(",C0001,C0002,C0003,C0004,", false, true);
    const calls: string[] = [];
    blockedPage.consent.whenTagAllowed(
      "ads",
      "marketing",
      () => calls.push("load"),
      () => calls.push("blocked"),
    );
    expect(calls).toEqual(["blocked"]);
    const waiting = page(",C0001,");
    const later: string[] = [];
    waiting.consent.whenTagAllowed(
      "ads",
      "marketing",
      () => later.push("load"),
      () => later.push("blocked"),
    );
    expect(later).toEqual([]);
    waiting.report(",C0001,C0004,");
    expect(later).toEqual(["load"]);
  });
});

describe("the banner's script (issue #21, task firstvisit)", () => {
  it("its element is inserted a task after start, so boot's first requests leave before it; its groups and callbacks are read and hooked at once", () => {
    const timers: Array<[() => void, number]> = [];
    const loaded: string[] = [];
    const win = {
      OnetrustActiveGroups: ",C0001,C0002,",
      location: { hostname: "bigfuture.kiwi.example", search: "" },
      navigator: { userAgent: "test" },
      document: { referrer: "" },
      addEventListener: () => undefined,
      setTimeout: (fn: () => void, ms: number) => timers.push([fn, ms]),
    } as unknown as Window & { OptanonWrapper?: () => void };
    const base = bundleConfig();
    const config = {
      ...base,
      consent: { ...base.consent, banner: { ...base.consent.banner, scriptSrc: "https://cdn.consentbanner.example/otSDKStub.js", domainScript: "d" } },
    };
    const log = { enabled: false, debug() {}, info() {}, warn() {}, error() {} };
    const consent = createConsent({ config, win, log, monitor: { emit() {} }, loadScript: (src) => (loaded.push(src), new Promise(() => {})) });
    consent.start();
    expect(consent.allows("performance")).toBe(true);
    expect(typeof win.OptanonWrapper).toBe("function");
    expect(loaded).toEqual([]);
    // A task later (0 ms), beside the startup wait's timer.
    expect(timers.map(([, ms]) => ms).sort((a, b) => a - b)).toEqual([0, config.timing.startupWait]);
    for (const [fn, ms] of timers) if (ms === 0) fn();
    expect(loaded).toEqual(["https://cdn.consentbanner.example/otSDKStub.js"]);
  });
});

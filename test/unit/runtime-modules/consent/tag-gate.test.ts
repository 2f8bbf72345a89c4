import { describe, expect, it } from "vitest";
import type { TagGateInput } from "../../../../runtime-modules/consent/tag-gate";
import { normalizeCategory } from "../../../../runtime-modules/consent/categories";
import { decideTag, pageTagStatus } from "../../../../runtime-modules/consent/tag-gate";
import { readTagStatus, resolveTagStatus } from "../../../../runtime-modules/consent/tag-status";
import { consent, extras, run, SPEC_EXCLUSIONS, withGroups } from "./fixtures";

const ALL = ",C0001,C0002,C0003,C0004,C0005,C0006,";

function input(over: Partial<TagGateInput> = {}): TagGateInput {
  return {
    tagCode: "pixel",
    category: "marketing",
    consent: withGroups(ALL),
    site: { internal: false, appId: "16" },
    page: { host: "store.kiwi.example", query: "", referrer: "" },
    userAgent: "Mozilla/5.0 Chrome/126",
    gpc: false,
    settings: { defaultCategory: consent.defaultCategory, exclusions: SPEC_EXCLUSIONS, syntheticsUserAgent: extras.syntheticsUserAgent },
    ...over,
  };
}
const decide = (over: Partial<TagGateInput> = {}) => decideTag(input(over));
const reason = (over: Partial<TagGateInput> = {}) => decide(over).reason;

describe("categories", () => {
  it('"Performance, Functional, Marketing, Program-Functional, Program-Marketing; default Marketing"', () => {
    expect(normalizeCategory("Performance")).toBe("performance");
    expect(normalizeCategory("Program-Functional")).toBe("programFunctional");
    expect(normalizeCategory("program marketing")).toBe("programMarketing");
    expect(normalizeCategory("programMarketing")).toBe("programMarketing");
    expect(normalizeCategory(undefined)).toBe("marketing");
    expect(normalizeCategory("ads")).toBe("marketing");
    expect(consent.defaultCategory).toBe("marketing");
    expect(decide({ category: undefined }).category).toBe("marketing");
  });
});

describe("decideTag: one reason per check, for the QA preview", () => {
  it("everything consented and nothing blocking: allowed consent-given", () => {
    expect(decide()).toEqual({ allowed: true, reason: "consent-given", category: "marketing", status: { status: "enabled" } });
  });
  it('"A query parameter cb-disable-{tagcode} disables that tag": status query-parameter', () => {
    expect(decide({ page: { host: "store.kiwi.example", query: "?cb-disable-pixel", referrer: "" } })).toMatchObject({
      allowed: false,
      reason: "cb-disable",
      status: { status: "disabled", reason: "query-parameter" },
    });
    expect(reason({ page: { host: "store.kiwi.example", query: "?cb-disable-chat", referrer: "" } })).toBe("consent-given");
  });
  it("synthetic monitoring user agents: status synthetics", () => {
    expect(decide({ userAgent: "Mozilla/5.0 (Catchpoint)" })).toMatchObject({ allowed: false, reason: "synthetics", status: { reason: "synthetics" } });
  });
  it('"a hostname allow-list restricts if configured": status configuration', () => {
    const exclusions = { ...SPEC_EXCLUSIONS, allowHosts: ["www.kiwi.example", "*.apps.kiwi.example"] };
    const settings = { ...input().settings, exclusions };
    expect(decide({ settings })).toMatchObject({ allowed: false, reason: "allow-list", status: { reason: "configuration" } });
    expect(reason({ settings, page: { host: "www.kiwi.example", query: "", referrer: "" } })).toBe("consent-given");
    expect(reason({ settings, page: { host: "a.apps.kiwi.example", query: "", referrer: "" } })).toBe("consent-given");
  });
  it('"Internal sites always allow": "full consent on internal sites", without waiting for the banner', () => {
    const internal = { internal: true, appId: "77" };
    expect(decide({ site: internal, consent: run(), category: "marketing", page: { host: "x.kiwi.example", query: "", referrer: "" } })).toMatchObject({
      allowed: true,
      reason: "internal-site",
    });
    expect(decide({ site: internal, consent: run(), category: "programMarketing" })).toMatchObject({ allowed: true, reason: "internal-site" });
  });
  it("on an internal site the legal checks still hold: exclusion lists, the privacy signal, a user name in the address", () => {
    const internal = { internal: true, appId: "292" };
    const page = { host: "testday.kiwi.example", query: "", referrer: "" };
    expect(decide({ site: internal, consent: run(), category: "marketing", page })).toMatchObject({
      allowed: false,
      reason: "exclusion-app-id",
      status: { reason: "legal" },
    });
    const other = { internal: true, appId: "77" };
    expect(decide({ site: other, consent: run(), category: "marketing", gpc: true, page })).toMatchObject({ allowed: false, reason: "gpc" });
    expect(decide({ site: other, consent: run(), category: "performance", page })).toMatchObject({ allowed: true, reason: "internal-site" });
  });
  it('"a tag runs only if consent for its category is given": consent-category, status still enabled (waits)', () => {
    expect(decide({ consent: withGroups(",C0001,C0002,") })).toEqual({
      allowed: false,
      reason: "consent-category",
      category: "marketing",
      status: { status: "enabled" },
      detail: "marketing",
    });
    expect(reason({ category: "performance", consent: withGroups(",C0001,C0002,") })).toBe("consent-given");
    expect(reason({ category: "performance", consent: run() })).toBe("consent-category");
  });
  it('"program categories use a program consent check and skip later checks"', () => {
    const blocked = { gpc: true, site: { internal: false, appId: "229" }, page: { host: "store.kiwi.example", query: "?u=a@b.org", referrer: "" } };
    expect(reason({ ...blocked, category: "programMarketing" })).toBe("consent-given");
    expect(reason({ ...blocked, category: "programFunctional" })).toBe("consent-given");
    expect(reason({ ...blocked, category: "programMarketing", consent: withGroups(",C0001,C0004,C0005,") })).toBe("consent-category");
  });
  it('"Exclusion app ids: functional 229; marketing 8, 229, 282, 292, 366, 395, 412": status legal', () => {
    for (const appId of ["8", "229", "282", "292", "366", "395", "412"])
      expect(decide({ site: { internal: false, appId } })).toMatchObject({
        allowed: false,
        reason: "exclusion-app-id",
        detail: appId,
        status: { reason: "legal" },
      });
    expect(reason({ category: "functional", site: { internal: false, appId: "229" } })).toBe("exclusion-app-id");
    expect(reason({ category: "functional", site: { internal: false, appId: "8" } })).toBe("consent-given");
    expect(reason({ category: "performance", site: { internal: false, appId: "229" } })).toBe("consent-given");
  });
  it("exclusion by host name (exact and *.suffix)", () => {
    const exclusions = { ...SPEC_EXCLUSIONS, hosts: { functional: [], marketing: ["*.secure.kiwi.example", "store.kiwi.example"] } };
    const settings = { ...input().settings, exclusions };
    expect(decide({ settings })).toMatchObject({ reason: "exclusion-host", detail: "store.kiwi.example" });
    expect(reason({ settings, page: { host: "pay.secure.kiwi.example", query: "", referrer: "" } })).toBe("exclusion-host");
    expect(reason({ settings, category: "functional" })).toBe("consent-given");
  });
  it('"A browser global-privacy signal blocks marketing tags"', () => {
    expect(decide({ gpc: true })).toMatchObject({ allowed: false, reason: "gpc", status: { reason: "legal" } });
    expect(reason({ gpc: true, category: "functional" })).toBe("consent-given");
    expect(reason({ gpc: true, category: "performance" })).toBe("consent-given");
  });
  it('"as does a user name in query string or referrer"', () => {
    const page = (query: string, referrer = "") => ({ host: "store.kiwi.example", query, referrer });
    expect(decide({ page: page("?email=jane.doe%40school.org") })).toMatchObject({ reason: "user-name-in-url", detail: "query" });
    expect(decide({ page: page("", "https://x.example/?u=jane@school.org") })).toMatchObject({ reason: "user-name-in-url", detail: "referrer" });
    expect(reason({ page: page("?who=JDoe42"), userIds: ["jdoe42"] })).toBe("user-name-in-url");
    expect(reason({ page: page("?who=jdoe"), userIds: ["jdoe42"] })).toBe("consent-given");
    expect(reason({ category: "functional", page: page("?email=a@b.org") })).toBe("consent-given");
  });
  it("a stored disabled status is reused unless forced; a stored enabled status never unblocks", () => {
    const stored = { status: "disabled", reason: "legal" } as const;
    expect(decide({ stored })).toMatchObject({ allowed: false, reason: "stored-status", detail: "legal", status: stored });
    expect(reason({ stored, force: true })).toBe("consent-given");
    expect(reason({ stored: { status: "enabled" }, page: { host: "store.kiwi.example", query: "?cb-disable-pixel", referrer: "" } })).toBe("cb-disable");
  });
});

describe("decideTag: check order (the first decisive check wins)", () => {
  const everything: Partial<TagGateInput> = {
    consent: run(),
    gpc: true,
    userAgent: "Synthetics",
    stored: { status: "disabled", reason: "legal" },
    site: { internal: false, appId: "8" },
    page: { host: "store.kiwi.example", query: "?cb-disable-pixel&e=a@b.org", referrer: "" },
    settings: {
      defaultCategory: "marketing",
      exclusions: { ...SPEC_EXCLUSIONS, allowHosts: ["www.kiwi.example"], hosts: { functional: [], marketing: ["store.kiwi.example"] } },
      syntheticsUserAgent: "Synthetics",
    },
  };
  const order = [
    "cb-disable",
    "synthetics",
    "allow-list",
    "stored-status",
    "consent-category",
    "exclusion-app-id",
    "exclusion-host",
    "gpc",
    "user-name-in-url",
    "consent-given",
  ];
  it("removing one blocker at a time reveals the next, in the documented order", () => {
    const steps: Array<(i: TagGateInput) => TagGateInput> = [
      (i) => ({ ...i, page: { ...i.page, query: "?e=a@b.org" } }),
      (i) => ({ ...i, userAgent: "Chrome" }),
      (i) => ({ ...i, settings: { ...i.settings, exclusions: { ...i.settings.exclusions, allowHosts: [] } } }),
      (i) => ({ ...i, stored: undefined }),
      (i) => ({ ...i, consent: withGroups(ALL) }),
      (i) => ({ ...i, site: { internal: false, appId: "16" } }),
      (i) => ({ ...i, settings: { ...i.settings, exclusions: { ...i.settings.exclusions, hosts: { functional: [], marketing: [] } } } }),
      (i) => ({ ...i, gpc: false }),
      (i) => ({ ...i, page: { ...i.page, query: "" } }),
    ];
    let current = input(everything);
    const seen = [decideTag(current).reason as string];
    for (const step of steps) {
      current = step(current);
      seen.push(decideTag(current).reason);
    }
    expect(seen).toEqual(order);
  });
  it("internal sites come after the page-level checks: cb-disable, synthetics and the allow-list still block there", () => {
    const site = { internal: true, appId: "8" };
    expect(reason({ ...everything, site })).toBe("cb-disable");
    expect(reason({ site, userAgent: "Synthetics" })).toBe("synthetics");
    expect(reason({ ...everything, site, page: { host: "store.kiwi.example", query: "", referrer: "" }, userAgent: "Chrome", stored: undefined })).toBe(
      "allow-list",
    );
  });
});

describe("tag status", () => {
  it('"A stored status is reused unless a fresh evaluation is forced"', () => {
    const stored = { status: "disabled", reason: "legal" } as const;
    let calls = 0;
    const fresh = () => (calls++, { status: "enabled" } as const);
    expect(resolveTagStatus(stored, false, fresh)).toBe(stored);
    expect(calls).toBe(0);
    expect(resolveTagStatus(stored, true, fresh)).toEqual({ status: "enabled" });
    expect(resolveTagStatus(undefined, false, fresh)).toEqual({ status: "enabled" });
    expect(calls).toBe(2);
  });
  it("pageTagStatus gives what the wiring stores", () => {
    expect(pageTagStatus(input()).status).toEqual({ status: "enabled" });
    expect(pageTagStatus(input({ userAgent: "GomezAgent 3.0" })).status).toEqual({ status: "disabled", reason: "synthetics" });
  });
  it('tag-settings pushes: "status defaults to enabled"; an unknown reason is configuration', () => {
    expect(readTagStatus({})).toEqual({ status: "enabled" });
    expect(readTagStatus({ status: "disabled", reason: "legal" })).toEqual({ status: "disabled", reason: "legal" });
    expect(readTagStatus({ status: "disabled" })).toEqual({ status: "disabled", reason: "configuration" });
    expect(readTagStatus({ status: "weird" })).toBeUndefined();
    expect(readTagStatus(null)).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { groupsGrant, parseActiveGroups } from "../../../runtime-modules/consent/active-groups";
import { normalizeConfig } from "../../../preview/src/lib/bundle-config";
import { allows, CATEGORIES, categoriesOf, consentView, groupsFor } from "../../../preview/src/lib/consent";
import { DEFAULT_STATE, decodeState, encodeState, frameUrl, HOP_PARAM, pageQuery, pageUrl } from "../../../preview/src/lib/state";

const groups = { performance: "C0002", functional: "C0003", marketing: "C0004", programFunctional: "C0005", programMarketing: "C0006", required: "C" };
const external = normalizeConfig({ site: { code: "x", internal: false }, env: "prod", consent: { groups } });
const internal = normalizeConfig({ site: { code: "y", internal: true }, env: "prod", consent: { groups } });

describe("consent", () => {
  it("writes and reads the banner's active-groups string", () => {
    expect(groupsFor(["marketing", "performance"], groups)).toBe(",C0001,C0002,C0004,");
    expect(groupsFor([], groups)).toBe(",C0001,");
    expect(categoriesOf(",C0001,C0002,C0004,", groups)).toEqual(["performance", "marketing"]);
    expect(categoriesOf(null, groups)).toEqual([]);
  });

  it("grants a category exactly as the runtime's rule does (runtime-modules/consent/active-groups.ts)", () => {
    const strings = [undefined, "", ",C0001,", ",C0002,", ",C0001,C0002,", "C0001,C0003,C0004", ",C0001,C00021,", ",C0001,C0002,C0003,C0004,C0005,C0006,"];
    for (const s of strings)
      for (const c of CATEGORIES)
        expect(allows(c, s, external), `${c} with ${s}`).toBe(typeof s === "string" ? groupsGrant(parseActiveGroups(s), groups, c) : false);
    for (const c of CATEGORIES) expect(allows(c, undefined, internal)).toBe(true);
  });

  it("sums up the page's consent", () => {
    const view = consentView(",C0001,C0002,", true, external);
    expect(view.phase).toBe("choice recorded");
    expect(view.gpc).toBe(true);
    expect(view.rows.filter((r) => r.allowed).map((r) => r.category)).toEqual(["performance"]);
    expect(consentView(null, false, external).phase).toBe("pre-opt-in");
    expect(consentView(null, false, internal).phase).toBe("internal site");
  });
});

describe("the state in the URL", () => {
  it("leaves defaults out and reads back what it wrote", () => {
    expect(encodeState(DEFAULT_STATE)).toBe("");
    const state = {
      ...DEFAULT_STATE,
      site: "satreg",
      env: "uat",
      page: "payment-confirmation",
      flags: ["cb-disable-chat", "excmpid=EM-1"],
      query: "a=1",
      referrer: "https://www.practicepartner.example/x",
      visitor: "student" as const,
      visit: "returning" as const,
      consent: "custom" as const,
      categories: ["performance", "marketing"],
      gpc: true,
      edge: "retry" as const,
      csp: "nonce-only" as const,
      debug: true,
      tab: "tags",
    };
    const text = encodeState(state);
    expect(text).toBe(
      "site=satreg&env=uat&page=payment-confirmation&flag=cb-disable-chat&flag=excmpid%3DEM-1&q=a%3D1&ref=https%3A%2F%2Fwww.practicepartner.example%2Fx&visitor=student&visit=returning&consent=performance%2Cmarketing&gpc=1&edge=retry&csp=nonce-only&debug=1&tab=tags",
    );
    expect(decodeState(`?${text}`)).toEqual(state);
  });

  it("falls back to defaults for bad values", () => {
    const s = decodeState("?visitor=admin&consent=bogus,marketing&edge=on-fire&csp=none&ref=javascript:alert(1)&path=register");
    expect(s.visitor).toBe("anonymous");
    expect(s.consent).toBe("custom");
    expect(s.categories).toEqual(["marketing"]);
    expect(s.edge).toBe("ok");
    expect(s.csp).toBe("strict");
    expect(s.referrer).toBe("");
    expect(s.path).toBe("/register");
    expect(decodeState("consent=pre").consent).toBe("pre");
  });

  it("builds the page's query and address, and the referrer hop", () => {
    expect(pageQuery("?q=sat", ["cb-disable-chat", "flow=idp-discovery"], "q=act&x=1")).toBe("?q=act&cb-disable-chat&flow=idp-discovery&x=1");
    expect(pageQuery(undefined, [], "")).toBe("");
    expect(pageUrl("satreg.kiwi.example", "/register", "?a=1")).toBe("https://satreg.kiwi.example/register?a=1");
    expect(pageUrl("satreg.kiwi.example", "", "", "8443")).toBe("https://satreg.kiwi.example:8443/");
    expect(frameUrl("https://satreg.kiwi.example/", "")).toBe("https://satreg.kiwi.example/");
    const hop = new URL(frameUrl("https://satreg.kiwi.example/register?a=1", "https://www.google.com/search?q=sat"));
    expect(hop.origin).toBe("https://www.google.com");
    expect(hop.searchParams.get("q")).toBe("sat");
    expect(hop.searchParams.get(HOP_PARAM)).toBe("https://satreg.kiwi.example/register?a=1");
  });
});

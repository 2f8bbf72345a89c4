import { describe, expect, it, vi } from "vitest";
import { AnalyticsRulesSchema } from "../../../../generator/config/schemas/analytics.js";
import {
  clickedLink,
  linkActivityMap,
  linkEvent,
  linkKind,
  linkRegion,
  linkVariables,
  listenForLinks,
  pushedLinkEvent,
  pushedPromoEvent,
  type LinkElement,
  type RegionNode,
} from "../../../../runtime-modules/tracking/link-clicks";
import { recorder } from "./recorder";
import { ORG_VARIABLES } from "../helpers/variables";

const rules = AnalyticsRulesSchema.parse({ internalDomains: ["kiwi-go.example"] });
const HOST = "bigfuture.kiwi.example";

/** A link as the listener sees it: resolved href, text, dataset, ancestors by selector. */
function link(href: string, text = "Link", dataset: Record<string, string> = {}, inside: string[] = []): LinkElement {
  return {
    href: new URL(href, `https://${HOST}/page`).href,
    textContent: text,
    dataset,
    getAttribute: () => null,
    closest: (selector: string) => (inside.some((s) => selector.split(",").includes(s)) ? {} : null),
  };
}
const classify = (el: LinkElement) =>
  linkEvent(clickedLink(el, HOST, "kiwi.example", rules)!, ORG_VARIABLES.link) as {
    name: string;
    linkType: string;
    url?: string;
    variables: Record<string, string>;
  };

describe("link clicks: each type with its linkType, name and variables", () => {
  it("search result, promo, nav (data-nav and the global header/footer), feature: other", () => {
    expect(classify(link("/college/1", "  Kiwi   College ", { searchResult: "" }))).toMatchObject({
      name: "kiwi college",
      eventType: "web.webinteraction.linkClicks",
      linkType: "other",
      variables: { eVar93: "searchResult|pathingHit", prop82: "searchResult" },
    });
    expect(classify(link("/sat", "x", { promo: "tnt:Spring SAT reminder for juniors and seniors everywhere" }))).toMatchObject({
      name: "tnt-Spring SAT reminder juniors seniors",
      linkType: "other",
      variables: { eVar93: "promo|pathingHit", prop82: "promo", prop85: "tnt" },
    });
    expect(classify(link("/about", "About", { nav: "Top Menu" }))).toMatchObject({
      name: "about",
      variables: { eVar93: "nav|pathingHit", prop82: "nav", prop83: "top menu" },
    });
    expect(classify(link("/help", "Help", {}, ["[data-ghf]"]))).toMatchObject({ name: "help", variables: { prop82: "nav", prop83: "ghf" } });
    expect(classify(link("/compare/colleges/side-by-side-view", "Compare colleges", { feature: "Compare Tool" }))).toMatchObject({
      name: "compare tool",
      linkType: "other",
      url: "https://bigfuture.kiwi.example/compare/colleges/side-by-side-view",
      variables: { eVar93: "feature|pathingHit", prop82: "feature", prop84: "/compare/colleges/side-b" },
    });
  });
  it("download: download; external: exit (internal domains and the apex domain are not external); mailto and tel: other, scheme only", () => {
    expect(classify(link("/files/Guide.PDF?u=me", "Guide"))).toMatchObject({
      linkType: "download",
      url: "https://bigfuture.kiwi.example/files/Guide.PDF?u=[redacted]",
      variables: { eVar93: "download", prop82: "download", prop83: "pdf" },
    });
    for (const ext of ["exe", "wav", "mp3", "mov", "mpg", "avi", "wmv", "docx", "csv", "zip"]) expect(classify(link(`/f.${ext}`)).linkType).toBe("download");
    expect(classify(link("https://news.example/story", "Story"))).toMatchObject({ linkType: "exit", variables: { eVar93: "external", prop82: "external" } });
    expect(classify(link("https://practicepartner.example/x", "P")).variables).toMatchObject({ prop83: "practicepartner.example" });
    expect(classify(link("https://satsuite.kiwi.example/", "SAT")).variables.prop82).toBe("feature");
    expect(classify(link("https://www.kiwi-go.example/x", "Go")).variables.prop82).toBe("feature");
    expect(classify(link("mailto:help@kiwi.example", "help@kiwi.example Write us"))).toMatchObject({
      name: "write us",
      linkType: "other",
      url: "mailto:",
      variables: { prop82: "mailto" },
    });
    expect(classify(link("tel:+18005551234", "Call"))).toMatchObject({ name: "call", url: "tel:", variables: { prop82: "tel" } });
  });
  it("clkg/clkn addresses are unwrapped; javascript: links are not tracked; text falls back to aria-label", () => {
    expect(classify(link("/clkn/https%3A%2F%2Fnews.example%2Fa%3FregNo%3D5", "N"))).toMatchObject({
      linkType: "exit",
      url: "https://news.example/a?regNo=[redacted]",
    });
    expect(clickedLink(link("javascript:void(0)"), HOST, "kiwi.example", rules)).toBeUndefined();
    const icon = { ...link("/x", ""), getAttribute: (n: string) => (n === "aria-label" ? "Close Dialog" : null) };
    expect(classify(icon).name).toBe("close dialog");
    expect(clickedLink({ ...link("/x"), href: { baseVal: "/x" } }, HOST, "kiwi.example", rules)).toBeUndefined();
  });
  it("linkKind and linkVariables", () => {
    expect(["download", "external", "feature", "mailto"].map((t) => linkKind(t as never))).toEqual(["download", "exit", "other", "other"]);
    expect(linkVariables({ type: "tel", pathingHit: false }, ORG_VARIABLES.link)).toEqual({ prop82: "tel" });
  });
});

describe("listenForLinks", () => {
  function fakeDoc() {
    let handler: ((e: unknown) => void) | undefined;
    let capture: unknown;
    return {
      doc: { addEventListener: (type: string, fn: (e: unknown) => void, c: unknown) => ((handler = fn), (capture = c)) } as never,
      click: (target: unknown) => handler!({ target }),
      capture: () => capture,
    };
  }
  /** An element inside a link (or not), inside elements matching `inside`. */
  const target = (a: LinkElement | null, inside: string[] = []) => ({
    closest: (s: string) => (s === "a[href],area[href]" ? a : inside.includes(s) ? {} : null),
  });

  it("one delegated listener in the capture phase; a click inside a link sends its event; other clicks nothing", () => {
    const r = recorder();
    const d = fakeDoc();
    listenForLinks(d.doc, {
      analytics: r.analytics,
      names: ORG_VARIABLES.link,
      rules,
      apexDomain: "kiwi.example",
      pageHost: () => HOST,
      ruleSelectors: [],
      onError: vi.fn(),
    });
    expect(d.capture()).toBe(true);
    d.click(target(link("https://news.example/", "News")));
    d.click(target(null));
    d.click(null);
    expect(r.of("event")).toEqual([expect.objectContaining({ name: "news", linkType: "exit", activityMap: { link: "News", region: "BODY" } })]);
  });
  it("a link a site click rule targets is left to that rule; errors are reported, not thrown", () => {
    const r = recorder();
    const d = fakeDoc();
    const onError = vi.fn();
    listenForLinks(d.doc, {
      analytics: r.analytics,
      names: ORG_VARIABLES.link,
      rules,
      apexDomain: "kiwi.example",
      pageHost: () => HOST,
      ruleSelectors: ["a[data-promo]"],
      onError,
    });
    d.click(target(link("/sat", "Spring", { promo: "spring" }), ["a[data-promo]"]));
    expect(r.calls).toEqual([]);
    d.click({
      closest: () => {
        throw new Error("boom");
      },
    });
    expect(onError).toHaveBeenCalledTimes(1);
  });
});

describe("Activity Map data of a click", () => {
  const node = (props: { id?: string; nodeName?: string; role?: string; label?: string }, parentNode: RegionNode | null = null): RegionNode => ({
    id: props.id ?? "",
    nodeName: props.nodeName ?? "DIV",
    getAttribute: (name: string) => (name === "role" ? (props.role ?? null) : name === "aria-label" ? (props.label ?? null) : null),
    parentNode,
  });
  it("the region is the nearest ancestor's id, else a region's aria-label, else header/main/footer/nav; BODY when none", () => {
    const body = node({ nodeName: "BODY" }, node({ nodeName: "HTML" }));
    expect(linkRegion({ parentNode: node({}, node({ id: "  hero   banner " }, body)) })).toBe("hero banner");
    expect(linkRegion({ parentNode: node({ role: "region", label: "Deadlines" }, node({ id: "outer" }, body)) })).toBe("Deadlines");
    expect(linkRegion({ parentNode: node({ label: "not a region" }, node({ nodeName: "nav" }, body)) })).toBe("nav");
    expect(linkRegion({ parentNode: node({}, body) })).toBe("BODY");
    expect(linkRegion({})).toBe("BODY");
  });
  it('"Activity-map text cut to 99 characters; name max 200"; e-mail words left out', () => {
    const el = { ...link("/x", `Write jane@school.example about ${"x".repeat(150)}`), parentNode: node({ id: "r".repeat(250) }) };
    const map = linkActivityMap(el);
    expect(map.link).toBe(`Write about ${"x".repeat(87)}`);
    expect(map.region).toBe("r".repeat(200));
  });
});

describe("pushedLinkEvent (link-click push)", () => {
  const PAGE = `https://${HOST}/page`;
  const pushed = (push: Record<string, unknown>) => pushedLinkEvent(push, rules, PAGE, ORG_VARIABLES.link);
  it('"Link-track rule proceeds only with hasData"; without eventCode: skipped ("no event code found in link track payload")', () => {
    expect(pushed({ linkType: "feature", linkName: "x", eventCode: "event9" })).toBeUndefined();
    expect(pushed({ linkType: "bogus", hasData: true, eventCode: "event9" })).toBeUndefined();
    expect(pushed({ linkType: "feature", hasData: true })).toBe("no-event-code");
  });
  it("the documented push becomes a link event: web text, unwrapped safe URL, flags, the event code", () => {
    expect(
      pushed({
        linkType: "external",
        linkName: "  Apply NOW at partner ",
        linkUrl: "clkg/https://partner.example/?u=x",
        eventCode: "event12",
        pathingHit: true,
        hasData: true,
      }),
    ).toEqual({
      name: "apply now partner",
      eventType: "web.webinteraction.linkClicks",
      linkType: "exit",
      url: "https://partner.example/?u=[redacted]",
      variables: { eVar93: "external|pathingHit", prop82: "external", events: "event12" },
    });
    expect(pushed({ linkType: "download", hasData: true, eventCode: "event5" })).toMatchObject({
      name: "None Provided",
      linkType: "download",
      url: undefined,
      variables: { eVar93: "download" },
    });
  });
  it('a pushed link is flagged as a clicked one: "targeted flag (name starts with tnt:)", promo name case kept; download extension, partner domain, feature path', () => {
    expect(pushed({ linkType: "promo", linkName: "tnt:Spring Hero", linkUrl: "/sat", eventCode: "event9", hasData: true })).toMatchObject({
      name: "tnt-Spring Hero",
      url: `https://${HOST}/sat`,
      variables: { eVar93: "promo|pathingHit", prop82: "promo", prop85: "tnt", events: "event9" },
    });
    expect(pushed({ linkType: "download", linkName: "Guide", linkUrl: "/files/Guide.PDF", eventCode: "e", hasData: true })).toMatchObject({
      variables: { prop83: "pdf" },
    });
    expect(pushed({ linkType: "external", linkName: "Go", linkUrl: `https://www.${rules.partnerDomains[0]}/x`, eventCode: "e", hasData: true })).toMatchObject({
      variables: { prop83: rules.partnerDomains[0] },
    });
    expect(pushed({ linkType: "feature", linkName: "Compare", linkUrl: "/colleges/compare/list/all/very/long", eventCode: "e", hasData: true })).toMatchObject({
      variables: { prop84: "/colleges/compare/list/a" },
    });
  });
});

describe("pushedPromoEvent (promo-click push)", () => {
  const PAGE = `https://${HOST}/page`;
  it('"Promo: name, destination, targeted flag (name starts with tnt:)"; the push\'s targeted overrides; no name: nothing', () => {
    expect(
      pushedPromoEvent({ name: "tnt:spring-sat-reminder", destination: "https://satsuite.kiwi.example/register" }, rules, PAGE, ORG_VARIABLES.link),
    ).toEqual({
      name: "tnt-spring-sat-reminder",
      eventType: "web.webinteraction.linkClicks",
      linkType: "other",
      url: "https://satsuite.kiwi.example/register",
      variables: { eVar93: "promo|pathingHit", prop82: "promo", prop85: "tnt" },
    });
    expect(pushedPromoEvent({ name: "Spring Banner", targeted: true }, rules, PAGE, ORG_VARIABLES.link)).toMatchObject({
      name: "Spring Banner",
      url: undefined,
      variables: { prop85: "tnt" },
    });
    expect(pushedPromoEvent({ name: "tnt:x", targeted: false }, rules, PAGE, ORG_VARIABLES.link)!.variables).not.toHaveProperty("prop85");
    expect(pushedPromoEvent({ name: " " }, rules, PAGE, ORG_VARIABLES.link)).toBeUndefined();
    expect(pushedPromoEvent({}, rules, PAGE, ORG_VARIABLES.link)).toBeUndefined();
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PATHING_HIT, classifyLink, linkFlags, type LinkInput } from "../../../../runtime-modules/analytics/link-type";
import { rules } from "./rules";

const base = { text: "Learn More", pageHost: "bigfuture.kiwi.example", apexDomain: "kiwi.example" };
const link = (input: Partial<LinkInput> & { href: string }) => classifyLink({ ...base, ...input }, rules);

describe("link classification", () => {
  it('"search result" (data-search-result), a pathing hit', () => {
    expect(link({ href: "https://bigfuture.kiwi.example/colleges/x", data: { searchResult: "" } })).toEqual({
      type: "searchResult",
      name: "learn more",
      url: "https://bigfuture.kiwi.example/colleges/x",
      pathingHit: true,
    });
  });
  it('"Promo names cut to 40 characters"', () => {
    const c = link({ href: "/sat", data: { promo: "Spring SAT Registration Banner Very Long Name Indeed" } })!;
    expect(c.type).toBe("promo");
    expect(c.name).toBe("Spring SAT Registration Banner Very Long");
    expect(c.targeted).toBe(false);
  });
  it('"Promo: name, destination, targeted flag (name starts with tnt:)"', () => {
    const c = link({ href: "https://www.kiwi.example/sat", data: { promo: "tnt:hero-b" } })!;
    expect(c).toMatchObject({ type: "promo", name: "tnt-hero-b", url: "https://www.kiwi.example/sat", targeted: true, pathingHit: true });
    expect(link({ href: "/x", data: { promo: "" }, text: "Hero" })!.name).toBe("Hero");
  });
  it('"global nav code ghf": links in the global header or footer are navigation ghf', () => {
    expect(link({ href: "/about", globalNav: true })).toMatchObject({ type: "nav", code: "ghf", name: "learn more", pathingHit: true });
    expect(link({ href: "/about", globalNav: true, data: { nav: "side" } })!.code).toBe("ghf");
  });
  it("data-nav marks a site navigation link with its code", () => {
    expect(link({ href: "/about", data: { nav: "Side Menu" } })).toMatchObject({ type: "nav", code: "side menu" });
    expect(link({ href: "/about", data: { nav: "" } })).toMatchObject({ type: "nav", code: "ghf" });
  });
  describe('"Download types: doc, docx, eps, jpg, png, svg, xls, ppt, pptx, pdf, xlsx, tab, csv, zip, txt and similar; default pattern also exe, wav, mp3, mov, mpg, avi, wmv"', () => {
    for (const ext of [
      "doc",
      "docx",
      "eps",
      "jpg",
      "png",
      "svg",
      "xls",
      "ppt",
      "pptx",
      "pdf",
      "xlsx",
      "tab",
      "csv",
      "zip",
      "txt",
      "exe",
      "wav",
      "mp3",
      "mov",
      "mpg",
      "avi",
      "wmv",
    ])
      it(ext, () =>
        expect(link({ href: "https://www.kiwi.example/files/guide." + ext.toUpperCase() + "?v=2" })).toMatchObject({
          type: "download",
          code: ext,
          pathingHit: false,
        }),
      );
  });
  it("other extensions and folders are not downloads; the list comes from the settings", () => {
    expect(link({ href: "/guide.html" })!.type).toBe("feature");
    expect(link({ href: "/pdf/" })!.type).toBe("feature");
    expect(classifyLink({ ...base, href: "/a.pdf" }, { ...rules, downloadExtensions: [] })!.type).toBe("feature");
  });
  it('"external": another domain, not a pathing hit; a partner domain as code', () => {
    expect(link({ href: "https://news.example/story" })).toMatchObject({ type: "external", pathingHit: false, code: undefined });
    expect(link({ href: "https://www." + rules.partnerDomains[0] + "/x" })).toMatchObject({ type: "external", code: rules.partnerDomains[0] });
    expect(link({ href: "https://evilkiwi.example/" })!.type).toBe("external");
  });
  it("the page's host, the apex domain and internal domains are not external", () => {
    expect(link({ href: "https://kiwi.example/" })!.type).toBe("feature");
    expect(link({ href: "https://scores.kiwi.example/" })!.type).toBe("feature");
    expect(classifyLink({ ...base, href: "https://x.partnerkiwi.example/" }, { ...rules, internalDomains: ["partnerkiwi.example"] })!.type).toBe("feature");
    expect(classifyLink({ ...base, pageHost: "localhost", href: "http://localhost:3000/x" }, rules)!.type).toBe("feature");
  });
  it('"Feature text limit 50; feature path truncated to 24"', () => {
    const c = link({
      href: "https://bigfuture.kiwi.example/college-search/filters/majors/engineering",
      text: "Find Colleges That Offer Engineering Majors Near You Today",
    })!;
    expect(c).toMatchObject({
      type: "feature",
      name: "find colleges that offer engineering majors near y",
      path: "/college-search/filters/",
      pathingHit: true,
    });
    expect(c.name).toHaveLength(50);
    expect(c.path).toHaveLength(24);
    expect(link({ href: "/x", data: { feature: "Compare Tool" } })!.name).toBe("compare tool");
  });
  it('"Tracked protocols: mailto, tel" (the address itself is not sent)', () => {
    expect(link({ href: "mailto:help@kiwi.example", text: "Email Us" })).toEqual({ type: "mailto", name: "email us", url: "mailto:", pathingHit: false });
    expect(link({ href: "tel:+18005551234", text: "Call" })).toEqual({ type: "tel", name: "call", url: "tel:", pathingHit: false });
  });
  it("other protocols are not tracked", () => {
    expect(link({ href: "javascript:void(0)" })).toBeUndefined();
    expect(link({ href: "data:text/plain,x" })).toBeUndefined();
    expect(link({ href: "http://[bad" })).toBeUndefined();
  });
  it('"Link addresses starting with clkg/ or clkn/ plus http are unwrapped" before classifying', () => {
    expect(link({ href: "clkn/https://news.example/a" })).toMatchObject({ type: "external", url: "https://news.example/a" });
    expect(link({ href: "https://bigfuture.kiwi.example/p/clkg/https://www.kiwi.example/a.pdf" })).toMatchObject({
      type: "download",
      url: "https://www.kiwi.example/a.pdf",
    });
  });
  it('"Link text limit is 40 characters, lowercased"; no text is None Provided', () => {
    expect(link({ href: "https://news.example/", text: "Register Now: SAT Dates Before The Late Deadline Passes" })!.name).toBe(
      "register now- sat dates before late dead",
    );
    expect(link({ href: "/x", text: "   " })!.name).toBe("None Provided");
  });
  it('"Web text in names: small words dropped; | : = / become hyphens; commas, registered and trademark signs and brackets removed"', () => {
    expect(link({ href: "https://news.example/", text: "AP® Scores | 2024: Key Dates (for the Class)" })!.name).toBe("ap scores - 2024- key dates class");
    expect(link({ href: "/sat", data: { promo: "SAT™ Guide, Spring = New [2025] / Now" } })!.name).toBe("SAT Guide Spring - New 2025 - Now");
    expect(link({ href: "/x", data: { feature: "Compare {Side by Side} Colleges" } })!.name).toBe("compare side side colleges");
  });
  it('"Text escaping replaces &, <, >, double and single quotes", after the cut', () => {
    expect(link({ href: "https://news.example/", text: `Terms & "Fine" <Print> Isn't` })!.name).toBe("terms &#38; &#34;fine&#34; &#60;print&#62; isn&#39;t");
    expect(link({ href: "/sat", data: { promo: "A".repeat(39) + "&B" } })!.name).toBe("A".repeat(39) + "&#38;");
  });
  it("promo names leave out words holding an at-sign, as link text does", () => {
    expect(link({ href: "/x", data: { promo: "" }, text: "Write jane.doe@school.example now" })!.name).toBe("Write now");
  });
  it("destinations are redacted and never carry an email address", () => {
    expect(link({ href: "https://scores.kiwi.example/view?regNo=123&tab=a" })!.url).toBe("https://scores.kiwi.example/view?regNo=[redacted]&tab=a");
    expect(link({ href: "https://news.example/share?to=jane@x.example" })!.url).toBe("https://news.example/share");
  });
  it('"Link flags: search result, promo, nav, external, download, feature, each with pathing hit"', () => {
    expect(linkFlags(link({ href: "/x", data: { promo: "p" } })!)).toEqual({
      searchResult: false,
      promo: true,
      nav: false,
      external: false,
      download: false,
      feature: false,
      pathingHit: true,
    });
    expect(linkFlags(link({ href: "https://news.example/" })!)).toEqual({
      searchResult: false,
      promo: false,
      nav: false,
      external: true,
      download: false,
      feature: false,
      pathingHit: false,
    });
    expect(linkFlags(link({ href: "mailto:a@b.example" })!)).toMatchObject({ pathingHit: false, feature: false });
  });
  it("every click has a type, its table's pathing hit, a name of at most 50 and a safe address", () => {
    const origin = fc.constantFrom("https://bigfuture.kiwi.example", "https://news.example", "http://a.kiwi.example", "clkg/https://b.example", "");
    const tail = fc.constantFrom("", ".pdf", "?regNo=1", "?to=a@b.example", "#x", "?next=%2Fx%3Fi%3D2");
    const url = fc.tuple(origin, fc.string(), tail).map(([o, p, t]) => o + "/" + p + t);
    const href = fc.oneof(url, fc.string(), fc.constantFrom("mailto:x@y.example", "tel:1", "javascript:x()", "#top"));
    const data = fc.dictionary(fc.constantFrom("searchResult", "promo", "nav", "feature", "other"), fc.string(), { maxKeys: 2 });
    fc.assert(
      fc.property(href, fc.string({ unit: "grapheme" }), data, fc.boolean(), (h, text, d, globalNav) => {
        const c = link({ href: h, text, data: d, globalNav });
        if (!c) return;
        expect(c.pathingHit).toBe(PATHING_HIT[c.type]);
        expect(c.name.length).toBeLessThanOrEqual(50);
        expect(c.url).not.toMatch(/@|%40/i);
      }),
    );
  });
});

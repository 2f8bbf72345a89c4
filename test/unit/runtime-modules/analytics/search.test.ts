import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as search from "../../../../runtime-modules/analytics/search";
import { NO_SEARCH_PHRASE, NO_SEARCH_TYPE, searchKey } from "../../../../runtime-modules/analytics/search";
import { ORG_VARIABLES } from "../helpers/variables";

// With the catalogue's search events (analyticsVariables.search in sites/_org.yaml).
const SEARCH_EVENTS = ORG_VARIABLES.search.events;
const searchRecord = (push: Record<string, unknown>, siteSearchCode?: string) => search.searchRecord(push, ORG_VARIABLES.search, siteSearchCode);
const quickSearchRecord = (push: Record<string, unknown>) => search.quickSearchRecord(push, ORG_VARIABLES.search);

describe("internal search", () => {
  describe('"Search type events: site/prof/generic-site event3; college and quick-college event4; scholarship event26; apcredit event49; career event63; majors event64; college-filter event68; scholarship-filter event343; career-quick event302; scholarship-quick event378"', () => {
    const table: Array<[string, string]> = [
      ["site", "event3"],
      ["prof", "event3"],
      ["generic-site", "event3"],
      ["college", "event4"],
      ["quick-college", "event4"],
      ["scholarship", "event26"],
      ["apcredit", "event49"],
      ["career", "event63"],
      ["majors", "event64"],
      ["college-filter", "event68"],
      ["scholarship-filter", "event343"],
      ["career-quick", "event302"],
      ["scholarship-quick", "event378"],
    ];
    for (const [type, event] of table) it(`${type} → ${event}`, () => expect(searchRecord({ term: "nursing", type })!.event).toBe(event));
    it("the catalogue's table (sites/_org.yaml) is exactly the spec's thirteen types", () =>
      expect(Object.keys(SEARCH_EVENTS).sort()).toEqual(table.map(([t]) => t).sort()));
    it("a type the table does not name is a site search: event3", () => {
      expect(searchRecord({ term: "x", type: "bfcs" })!.event).toBe("event3");
      expect(searchRecord({ term: "x" })!.event).toBe("event3");
    });
    it("types are matched case-insensitively", () =>
      expect(searchRecord({ term: "x", type: " Scholarship " })).toMatchObject({ type: "scholarship", event: "event26" }));
  });

  it('"Internal search without term: skipped" (no term field; neither a term nor a type)', () => {
    expect(searchRecord({ type: "college" })).toBeUndefined();
    expect(searchRecord({ term: 42, type: "college" })).toBeUndefined();
    expect(searchRecord({ term: "  ", type: " " })).toBeUndefined();
    expect(searchRecord({ term: "" })).toBeUndefined();
  });
  it("\"term without type gets type 'no search type entered'\"", () => {
    expect(searchRecord({ term: "nursing" })).toMatchObject({ term: "nursing", type: NO_SEARCH_TYPE });
    expect(searchRecord({ term: "nursing", type: "  " })).toMatchObject({ type: "no search type entered" });
  });
  it("\"type without term gets term 'no search phrase entered'\"", () => {
    expect(searchRecord({ term: "", type: "college" })).toMatchObject({ term: NO_SEARCH_PHRASE, type: "college", event: "event4" });
    expect(NO_SEARCH_PHRASE).toBe("no search phrase entered");
  });
  it("\"count 0 or no-results marker prefixes term with 'null:'\"", () => {
    expect(searchRecord({ term: "Nursing", type: "college", count: 0 })).toMatchObject({ term: "null:nursing", nullified: true, count: 0 });
    expect(searchRecord({ term: "nursing", nullifiedTerm: true })).toMatchObject({ term: "null:nursing", nullified: true });
    expect(searchRecord({ term: "", type: "career", count: 0 })!.term).toBe("null:no search phrase entered");
    // results: no prefix; a term the page prefixed already: not twice
    expect(searchRecord({ term: "nursing", count: 3 })).toMatchObject({ term: "nursing", count: 3 });
    expect(searchRecord({ term: "null:nursing", count: 0 })).toMatchObject({ term: "null:nursing", nullified: true });
  });
  it("\"type 'college' marks quick search\" (and the push's isQuick)", () => {
    expect(searchRecord({ term: "ucla", type: "college" })!.quick).toBe(true);
    expect(searchRecord({ term: "ucla", type: "scholarship" })!.quick).toBeUndefined();
    expect(searchRecord({ term: "ucla", type: "scholarship", isQuick: true })!.quick).toBe(true);
  });
  it('"bfcs_spirit renamed bfcs"', () => {
    expect(searchRecord({ term: "spirit", type: "bfcs_spirit" })!.type).toBe("bfcs");
    expect(searchRecord({ term: "spirit", type: "BFCS_Spirit" })!.type).toBe("bfcs");
  });
  it('"Site search codes such as accu_site, bf_site" / "site search code site": a site search is recorded with the site\'s code', () => {
    expect(searchRecord({ term: "dates", type: "site" }, "bf_site")).toMatchObject({ type: "bf_site", event: "event3" });
    expect(searchRecord({ term: "dates", isSiteSearch: true }, "clep_site")).toMatchObject({ type: "clep_site", event: "event3" });
    expect(searchRecord({ term: "dates", type: "site" })!.type).toBe("site");
    // isSiteSearch does not override a type the page gave
    expect(searchRecord({ term: "dates", type: "career", isSiteSearch: true }, "bf_site")!.type).toBe("career");
  });
  it("the term is lower case with white space collapsed; the term as typed is kept when it differs (origTerm: the push's, else its term)", () => {
    expect(searchRecord({ term: "  SAT   Dates " })).toMatchObject({ term: "sat dates", origTerm: "SAT Dates" });
    expect(searchRecord({ term: "sat dates" })!.origTerm).toBeUndefined();
    expect(searchRecord({ term: "sat dates", origTerm: "SATT dates" })!.origTerm).toBe("SATT dates");
  });
  it("facets pipe-separated (a string as given, or a list joined); count, speed and the page state code kept", () => {
    expect(searchRecord({ term: "x", facet: "major|location", speed: 120.5, pageStateCode: "results" })).toMatchObject({
      facet: "major|location",
      speed: 120.5,
      pageStateCode: "results",
    });
    expect(searchRecord({ term: "x", facet: ["major", " ", "location"] })!.facet).toBe("major|location");
    expect(searchRecord({ term: "x", count: Number.NaN, speed: "fast" })).not.toHaveProperty("count");
  });
  it('"Quick-search event needs a term (lowercased)"', () => {
    expect(quickSearchRecord({ term: "UCLA", type: "quick-college" })).toMatchObject({ term: "ucla", type: "quick-college", event: "event4", quick: true });
    expect(quickSearchRecord({ term: "Nurse", type: "career-quick" })!.event).toBe("event302");
    expect(quickSearchRecord({ term: "Merit", type: "scholarship-quick" })!.event).toBe("event378");
    expect(quickSearchRecord({ type: "quick-college" })).toBeUndefined();
    expect(quickSearchRecord({ term: "   " })).toBeUndefined();
    expect(quickSearchRecord({ term: "x" })!.type).toBe(NO_SEARCH_TYPE);
  });
  it('"Duplicate identical searches suppressed": two pushes have the same key exactly when their records are the same', () => {
    const push = fc.record(
      {
        term: fc.constantFrom("Nursing", " nursing ", "art", ""),
        type: fc.constantFrom("college", "site", "bfcs_spirit", "bfcs", undefined),
        count: fc.constantFrom(0, 3, undefined),
        facet: fc.constantFrom("a|b", undefined),
      },
      { requiredKeys: ["term"] },
    );
    fc.assert(
      fc.property(push, push, (a, b) => {
        const ra = searchRecord(a);
        const rb = searchRecord(b);
        fc.pre(!!ra && !!rb);
        const same = ra!.term === rb!.term && ra!.type === rb!.type && ra!.count === rb!.count && ra!.facet === rb!.facet && ra!.quick === rb!.quick;
        expect(searchKey(ra!) === searchKey(rb!)).toBe(same);
      }),
    );
  });
});

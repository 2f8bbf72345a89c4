import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Logger } from "../../../../runtime-modules/core/types";
import { createDataLayer, type PushValidator } from "../../../../runtime-modules/rules/data-layer";
import { EVENT_DOCS } from "../../../../runtime-modules/data-layer-events/event-docs";
import { EVENT_SHAPES, type FieldType, type Fields } from "../../../../runtime-modules/data-layer-events/shapes";
import {
  closestName,
  editDistance,
  IS_REQUIRED,
  notDocumented,
  pushProblem,
  unknownEvent,
  validatePush,
} from "../../../../runtime-modules/data-layer-events/validate-push";

type Warning = { message: string; data: unknown };

function recorder(): Logger & { warnings: Warning[]; others: string[] } {
  const warnings: Warning[] = [];
  const others: string[] = [];
  return {
    enabled: false,
    warnings,
    others,
    debug: (m) => void others.push(m),
    info: (m) => void others.push(m),
    warn: (message, data) => void warnings.push({ message, data }),
    error: (m) => void others.push(m),
  };
}

function check(push: Record<string, unknown>): string[] {
  const log = recorder();
  validatePush(push, log);
  expect(log.others).toEqual([]);
  return log.warnings.map((w) => w.message);
}

const shapes: Record<string, Fields> = EVENT_SHAPES;
const docs: Record<string, { example: object }> = EVENT_DOCS;
const events = Object.keys(shapes);
const example = (event: string): Record<string, unknown> => structuredClone({ event, ...docs[event].example });

describe("the examples", () => {
  it.each(events)("%s: its example passes", (event) => {
    expect(check(example(event))).toEqual([]);
  });
});

describe("one warning per problem, naming the event and the field", () => {
  it.each([
    ["missing required field", { event: "list-change", changeType: "added-list-item", itemType: "college", newTotalItemsInList: 3 }, "itemName", "is required"],
    ["wrong type", { event: "search", term: 42 }, "term", "must be a string, got 42"],
    [
      "non-integer",
      { event: "list-change", changeType: "added-list-item", itemType: "college", itemName: "Kiwi U", newTotalItemsInList: "3" },
      "newTotalItemsInList",
      'must be an integer, got "3"',
    ],
    ["fraction for an integer", { event: "list-view", itemListSize: 2.5 }, "itemListSize", "must be an integer, got 2.5"],
    ["NaN for a number", { event: "vouchers-order", action: "order-new", id: "V1", maxCostUsd: NaN }, "maxCostUsd", "must be a number, got NaN"],
    [
      "bad enum value",
      { event: "list-change", changeType: "add", itemType: "college", itemName: "Kiwi U", newTotalItemsInList: 1 },
      "changeType",
      'must be "added-list-item" or "removed-list-item", got "add"',
    ],
    ["number literal", { event: "career-quiz", pageName: "q", complete: true }, "complete", "must be 1, got true"],
    [
      "string for a number literal",
      { event: "registration-step", flow: "newreg", page: "start", steps: [{ page: "start", action: "view", pageReach: "1" }] },
      "steps[0].pageReach",
      'must be 0 or 1, got "1"',
    ],
    ["nested field", { event: "search-result-click", destination: "/x", searchData: { term: "kiwi", type: 3 } }, "searchData.type", "must be a string, got 3"],
    ["nested required field", { event: "search-result-click", destination: "/x", searchData: { type: "college" } }, "searchData.term", "is required"],
    ["nested object not an object", { event: "search-result-click", destination: "/x", searchData: "kiwi" }, "searchData", 'must be an object, got "kiwi"'],
    ["list not a list", { event: "ap-score-send", diCodes: "1234" }, "diCodes", 'must be a list, got "1234"'],
    ["bad list item (first only)", { event: "ap-score-send", diCodes: ["1", 2, 3] }, "diCodes[1]", "must be a string, got 2"],
    [
      "bad enum list item",
      { event: "course-event", studentId: "s", courseId: "c", educationPeriodCode: 26, courseOrgId: "o", events: ["enrol"] },
      "events[0]",
      'must be "student-registration" or "course-enrolment" or "exam-registration" or "asset-upload" or "final-submission", got "enrol"',
    ],
    ["list of objects not a list", { event: "web-vitals", metrics: {} }, "metrics", "must be a list, got an object"],
    [
      "bad object in a list (first only)",
      {
        event: "web-vitals",
        metrics: [
          { name: "LCP", rating: "good", navigationType: "navigate", delta: 1 },
          { name: "FID", rating: "good", navigationType: "navigate", delta: 1 },
          { name: "X" },
        ],
      },
      "metrics[1].name",
      'must be "LCP" or "CLS" or "FCP" or "INP" or "TTFB", got "FID"',
    ],
    ["optional nested object of the wrong kind", { event: "award-download", downloads: [], award: [] }, "award", "must be an object, got a list"],
    ["null is a value", { event: "search", term: "kiwi", count: null }, "count", "must be an integer, got null"],
    ["mixed members", { event: "vouchers-order", action: "order-new", id: true }, "id", "must be a string or a number, got true"],
    [
      "typo of a missing field",
      { event: "list-change", changeType: "added-list-item", itemType: "college", itemname: "Kiwi U", newTotalItemsInList: 3 },
      "itemname",
      'is not documented (did you mean "itemName"?)',
    ],
    [
      "typo of a nested field",
      { event: "search-result-click", destination: "/x", searchData: { term: "kiwi", type: "college", isQiuck: true } },
      "searchData.isQiuck",
      'is not documented (did you mean "searchData.isQuick"?)',
    ],
    ["long strings are cut", { event: "search", term: "kiwi", count: "x".repeat(100) }, "count", `must be an integer, got "${"x".repeat(40)}…"`],
  ])("%s", (_, push, field, problem) => {
    const event = (push as { event: string }).event;
    const log = recorder();
    validatePush(push, log);
    expect(log.warnings.map((w) => w.message)).toEqual([pushProblem(event, field, problem)]);
    expect(log.warnings[0].message).toContain(`"${event}"`);
    expect(log.warnings[0].message).toContain(`field "${field}"`);
    expect(log.warnings[0].data).toMatchObject({ event, field });
  });

  it("reads as the issue asks", () => {
    expect(check({ event: "list-change", changeType: "added-list-item", itemType: "college", itemName: "Kiwi U", newTotalItemsInList: "3" })).toEqual([
      'data layer push "list-change": field "newTotalItemsInList" must be an integer, got "3"',
    ]);
    expect(check({ event: "serch", term: "kiwi" })).toEqual(['unknown event "serch" (did you mean "search"?)']);
  });

  it("several problems give several warnings, in field order", () => {
    expect(check({ event: "list-change", changeType: "add", itemType: "book", newTotalItemsInList: 1.5 })).toEqual([
      pushProblem("list-change", "changeType", 'must be "added-list-item" or "removed-list-item", got "add"'),
      pushProblem("list-change", "itemType", 'must be "college" or "career" or "scholarship", got "book"'),
      pushProblem("list-change", "itemName", IS_REQUIRED),
      pushProblem("list-change", "newTotalItemsInList", "must be an integer, got 1.5"),
    ]);
  });

  it("undefined is absent: fine for an optional field, missing for a required one", () => {
    expect(check({ event: "search", term: "kiwi", type: undefined })).toEqual([]);
    expect(check({ event: "search", term: undefined })).toEqual([pushProblem("search", "term", IS_REQUIRED)]);
  });

  it("fields the event does not document are the application's own unless they look like a typo of a missing field", () => {
    expect(check({ event: "search", term: "kiwi", myTeamsField: { any: "thing" } })).toEqual([]);
    // "terms" is close to "term", but term is there: not a typo.
    expect(check({ event: "search", term: "kiwi", terms: ["a"] })).toEqual([]);
  });

  it("an optional field's typo is reported once", () => {
    expect(check({ event: "search", term: "kiwi", coutn: 3 })).toEqual([pushProblem("search", "coutn", notDocumented("count"))]);
  });
});

/** A value of the wrong kind for a field type (none for "unknown"). */
function wrongValue(type: FieldType): unknown {
  if (typeof type !== "string") return "not-an-object";
  return type.includes("unknown") ? undefined : Symbol("x");
}

describe("every field of every event (generated from the table)", () => {
  const cases = events.flatMap((event) =>
    Object.entries(shapes[event]).map(([key, type]) => ({
      event,
      key,
      name: key.replace(/\?$/, ""),
      type,
      optional: key.endsWith("?") || (typeof type === "string" && type.endsWith("?")),
    })),
  );

  it.each(cases.filter((c) => !c.optional))("$event: without required field $name, exactly one warning naming it", ({ event, name }) => {
    const push = example(event);
    delete push[name];
    expect(check(push)).toEqual([pushProblem(event, name, IS_REQUIRED)]);
  });

  it.each(cases.filter((c) => wrongValue(c.type) !== undefined))(
    "$event: a wrong value in $name gives exactly one warning naming it",
    ({ event, name, type }) => {
      const push = example(event);
      push[name] = wrongValue(type);
      const warnings = check(push);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(new RegExp(`^data layer push "${event}": field "${name}" must be `));
    },
  );
});

describe("unknown event names", () => {
  it.each([
    ["serch", "search"],
    ["Search", "search"],
    ["list_change", "list-change"],
    ["listChange", "list-change"],
    ["pageView", "page-view"],
    ["vidoe", "video"],
    ["score-veiw", "score-view"],
  ])("%s: did you mean %s?", (name, suggestion) => {
    expect(check({ event: name })).toEqual([unknownEvent(name, suggestion)]);
  });

  it.each(["my-team-event", "load", "gtm.js", "addToCart", "", "x"])("%s: the application's own, no warning", (name) => {
    expect(check({ event: name, anything: 1 })).toEqual([]);
  });

  it("data-only pushes and non-string events are not checked", () => {
    expect(check({ term: 42 })).toEqual([]);
    expect(check({ event: 42, term: 42 })).toEqual([]);
    expect(check({ event: null })).toEqual([]);
  });

  it("inherited names are not events", () => {
    expect(check({ event: "constructor" })).toEqual([]);
    expect(check({ event: "__proto__" })).toEqual([]);
    expect(check({ event: "toString" })).toEqual([]);
  });
});

describe("edit distance", () => {
  it.each([
    ["", "", 0],
    ["a", "", 1],
    ["search", "search", 0],
    ["serch", "search", 1],
    ["vidoe", "video", 1],
    ["kitten", "sitting", 3],
    ["load", "qotd", 2],
  ])("%s / %s: %i", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  it("closestName: within 2 edits and a third of the name, the nearest first", () => {
    expect(closestName("serch", ["search", "sketch"])).toBe("search");
    expect(closestName("load", ["qotd"])).toBeUndefined();
    expect(closestName("search", ["search"])).toBeUndefined();
    expect(closestName("x".repeat(10_000), events)).toBeUndefined();
  });
});

describe("never throws", () => {
  const anyLog = () => recorder();

  it("on random objects (fast-check)", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.anything()), (push) => {
        expect(() => validatePush(push, anyLog())).not.toThrow();
      }),
    );
  });

  it("on random fields under every documented event name (fast-check)", () => {
    const value = fc.anything({
      withBigInt: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withTypedArray: true,
      withNullPrototype: true,
      withSparseArray: true,
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...events),
        fc.dictionary(fc.string(), value),
        fc.dictionary(fc.constantFrom(...new Set(events.flatMap((e) => Object.keys(shapes[e]).map((k) => k.replace(/\?$/, ""))))), value),
        (event, extra, known) => {
          const log = anyLog();
          expect(() => validatePush({ ...extra, ...known, event }, log)).not.toThrow();
          for (const w of log.warnings) expect(w.message).toMatch(new RegExp(`^data layer push "${event}": field "`));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("on hostile objects: throwing getters, proxies, a throwing logger, functions and symbols", () => {
    const getter = Object.defineProperty({ event: "search" }, "term", {
      enumerable: true,
      get: () => {
        throw new Error("boom");
      },
    });
    const proxy = new Proxy(
      { event: "search" },
      {
        ownKeys: () => {
          throw new Error("boom");
        },
      },
    );
    const throwingLog = {
      ...recorder(),
      warn: () => {
        throw new Error("boom");
      },
    };
    expect(() => validatePush(getter, anyLog())).not.toThrow();
    expect(() => validatePush(proxy, anyLog())).not.toThrow();
    expect(() => validatePush({ event: "search", term: 1 }, throwingLog)).not.toThrow();
    expect(check({ event: "search", term: () => 1 })).toEqual([pushProblem("search", "term", "must be a string, got a function")]);
    expect(check({ event: "search", term: Symbol("t") })).toEqual([pushProblem("search", "term", "must be a string, got Symbol(t)")]);
    expect(() => validatePush(null as never, anyLog())).not.toThrow();
  });
});

describe("as the data layer's validator", () => {
  it("is a PushValidator (the hook boot passes to createDataLayer)", () => {
    const hook: PushValidator = validatePush;
    expect(hook).toBe(validatePush);
  });

  it("warns for each bad push, and every push is processed anyway", () => {
    const log = recorder();
    const win: Record<string, unknown> = {
      kiwiDataLayer: [{ event: "list-change", itemType: "college", itemName: "Kiwi U", changeType: "added-list-item", newTotalItemsInList: "3" }],
    };
    const seen: (string | undefined)[] = [];
    const dl = createDataLayer(win, "kiwiDataLayer", log, { emit() {} }, validatePush);
    dl.on((_, event) => seen.push(event));
    dl.start();
    (win.kiwiDataLayer as unknown[]).push({ event: "serch", term: "kiwi" }, { event: "search", term: "kiwi" }, { pageState: "no-data" });
    expect(log.warnings.map((w) => w.message)).toEqual([
      pushProblem("list-change", "newTotalItemsInList", 'must be an integer, got "3"'),
      unknownEvent("serch", "search"),
    ]);
    expect(seen).toEqual(["list-change", "serch", "search", undefined]);
    expect(dl.get("newTotalItemsInList")).toBe("3");
  });
});

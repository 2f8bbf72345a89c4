/**
 * Type-level tests: `npx tsc -p tsconfig.json --noEmit` checks this file, so
 * a well-formed push that stops compiling, or a malformed one that starts to
 * (an unused @ts-expect-error), fails the typecheck.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import type { EVENT_SHAPES } from "../../../../runtime-modules/data-layer-events/shapes";
import type { DataLayerEvent, DataLayerItem, DataLayerPush, DataOnlyPush, EventFields, PushOf } from "../../../../runtime-modules/data-layer-events/types";

const wellFormed: DataLayerItem[] = [
  { event: "search", term: "nursing" },
  { event: "search", term: "nursing", type: "college", count: 3, facet: "a|b", isQuick: true, speed: 0.4 },
  { event: "list-change", changeType: "removed-list-item", itemType: "scholarship", itemName: "Kiwi Award", itemId: 42, newTotalItemsInList: 0 },
  { event: "search-result-click", destination: "/colleges/kiwi", searchData: { term: "kiwi", type: "college" } },
  { event: "registration-step", flow: "changereg", page: "terms", steps: [{ page: "terms", action: "view", pageReach: 0 }], feeWaiver: ["claimed-code"] },
  { event: "career-quiz", pageName: "career-quiz:question", complete: 1 },
  { event: "course-event", studentId: "s", courseId: "c", educationPeriodCode: "26", courseOrgId: "o", events: ["asset-upload", "final-submission"] },
  { event: "k12-user-action", userAction: { key: "export", data: [1, { any: "thing" }] } },
  { event: "award-download", downloads: [] },
  { pageState: "no-data" },
  { user: { loggedIn: true }, event: undefined },
];

const malformed: DataLayerItem[] = [
  // @ts-expect-error term must be a string
  { event: "search", term: 42 },
  // @ts-expect-error term is required
  { event: "search", type: "college" },
  // @ts-expect-error not one of the changeType values
  { event: "list-change", changeType: "add", itemType: "college", itemName: "x", newTotalItemsInList: 1 },
  // @ts-expect-error newTotalItemsInList is a number
  { event: "list-change", changeType: "added-list-item", itemType: "college", itemName: "x", newTotalItemsInList: "3" },
  // @ts-expect-error nested: searchData.term is required
  { event: "search-result-click", destination: "/x", searchData: { type: "college" } },
  // @ts-expect-error nested: searchData.isQuick is a boolean
  { event: "search-result-click", destination: "/x", searchData: { term: "a", type: "b", isQuick: "yes" } },
  // @ts-expect-error list item: pageReach is 0 or 1
  { event: "registration-step", flow: "newreg", page: "start", steps: [{ page: "start", action: "view", pageReach: 2 }] },
  // @ts-expect-error list of enum values
  { event: "course-event", studentId: "s", courseId: "c", educationPeriodCode: 26, courseOrgId: "o", events: ["enrol"] },
  // @ts-expect-error complete is 1
  { event: "career-quiz", pageName: "q", complete: true },
  // @ts-expect-error an undocumented field of a documented event
  { event: "search", term: "kiwi", trem: "kiwi" },
  // @ts-expect-error an undocumented event name
  { event: "serch", term: "kiwi" },
  // @ts-expect-error an event name must be a string
  { event: 42 },
];

describe("derived types", () => {
  it("DataLayerEvent is the table's names", () => {
    expectTypeOf<DataLayerEvent>().toEqualTypeOf<keyof typeof EVENT_SHAPES>();
    expectTypeOf<"search" | "list-change" | "video" | "score-view">().toExtend<DataLayerEvent>();
  });

  it("a push: event, required fields, optional fields", () => {
    expectTypeOf<PushOf<"list-change">>().toEqualTypeOf<{
      event: "list-change";
      changeType: "added-list-item" | "removed-list-item";
      itemType: "college" | "career" | "scholarship";
      itemName: string;
      itemId?: string | number;
      itemOrgName?: string;
      sourceUi?: string;
      newTotalItemsInList: number;
    }>();
  });

  it("nested objects, lists of objects, optional objects", () => {
    expectTypeOf<PushOf<"search-result-click">>().toEqualTypeOf<{
      event: "search-result-click";
      destination: string;
      searchData: { term: string; type: string; strFacet?: string; isQuick?: boolean };
    }>();
    expectTypeOf<EventFields<"award-download">>().toEqualTypeOf<{
      downloads: { id: string; name: string; year: string | number }[];
      award?: { id: string; name: string; year: string | number };
      application?: { programId: string; name: string; year: string | number };
    }>();
  });

  it("lists, number literals, unknown", () => {
    expectTypeOf<EventFields<"course-event">["events"]>().toEqualTypeOf<
      ("student-registration" | "course-enrolment" | "exam-registration" | "asset-upload" | "final-submission")[]
    >();
    expectTypeOf<EventFields<"ap-score-view">["testYears"]>().toEqualTypeOf<(string | number)[]>();
    expectTypeOf<EventFields<"career-quiz">["complete"]>().toEqualTypeOf<1 | undefined>();
    expectTypeOf<EventFields<"registration-step">["feeWaiver"]>().toEqualTypeOf<("claimed-code" | "offered-benefit" | "claimed-benefit")[] | undefined>();
    expectTypeOf<EventFields<"k12-user-action">["userAction"]>().toEqualTypeOf<{ key: string; data?: unknown }>();
  });

  it("DataLayerPush is the union of every event's push; DataOnlyPush has no event", () => {
    expectTypeOf<Extract<DataLayerPush, { event: "video" }>>().toEqualTypeOf<PushOf<"video">>();
    expectTypeOf<DataLayerPush["event"]>().toEqualTypeOf<DataLayerEvent>();
    expectTypeOf<DataOnlyPush["event"]>().toEqualTypeOf<undefined>();
    expect(wellFormed).toHaveLength(11);
    expect(malformed).toHaveLength(12);
  });
});

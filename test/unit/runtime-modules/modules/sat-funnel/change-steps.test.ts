import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CHANGE_STEP_PAGES,
  nextChangeSteps,
  parseChangeSteps,
  serializeChangeSteps,
  type ChangeStep,
} from "../../../../../runtime-modules/modules/sat-funnel/change-steps";

describe("change-registration steps kept in session", () => {
  it.each([
    ["changereg-start", ["profile", "photo"], []],
    ["changereg-complete", ["profile", "test-center", "photo"], []],
    ["change-profile-start", [], ["profile"]],
    ["change-datetc-choosecenter", ["profile"], ["profile", "test-center"]],
    ["change-photo-review", ["profile", "test-center"], ["profile", "test-center", "photo"]],
    ["change-profile-start", ["photo"], ["photo", "profile"]],
    ["change-profile-start", ["profile"], ["profile"]],
    ["changereg:dashboard", ["profile"], ["profile"]],
    ["toString", ["profile"], ["profile"]],
  ] as [string, ChangeStep[], ChangeStep[]][])(
    '"changereg-start and changereg-complete clear the list; change-profile-start, change-datetc-choosecenter, change-photo-review append profile, test-center and photo steps": %s on %o → %o',
    (page, before, after) => {
      expect(nextChangeSteps(before, page)).toEqual(after);
    },
  );

  it("never mutates the stored list", () => {
    const before: ChangeStep[] = ["profile"];
    nextChangeSteps(before, "change-photo-review");
    nextChangeSteps(before, "changereg-start");
    expect(before).toEqual(["profile"]);
  });

  const page = fc.constantFrom("changereg-start", "changereg-complete", ...Object.keys(CHANGE_STEP_PAGES), "changereg:terms", "other");
  it("over any sequence of pages: steps since the last clear, each once, in first-visit order (property)", () => {
    fc.assert(
      fc.property(fc.array(page, { maxLength: 30 }), (pages) => {
        const steps = pages.reduce<ChangeStep[]>(nextChangeSteps, []);
        let lastClear = -1;
        pages.forEach((p, i) => (p === "changereg-start" || p === "changereg-complete") && (lastClear = i));
        const expected: string[] = [];
        for (const p of pages.slice(lastClear + 1)) {
          const s = (CHANGE_STEP_PAGES as Record<string, string>)[p];
          if (s && expected.indexOf(s) < 0) expected.push(s);
        }
        expect(steps).toEqual(expected);
        expect(parseChangeSteps(serializeChangeSteps(steps))).toEqual(steps);
      }),
    );
  });

  it("the stored form, and garbage in session storage", () => {
    expect(serializeChangeSteps(["profile", "test-center"])).toBe("profile,test-center");
    expect(parseChangeSteps("profile,test-center,photo")).toEqual(["profile", "test-center", "photo"]);
    expect(parseChangeSteps("photo,photo,x,,profile")).toEqual(["photo", "profile"]);
    expect(parseChangeSteps(null)).toEqual([]);
    expect(parseChangeSteps("")).toEqual([]);
  });
});

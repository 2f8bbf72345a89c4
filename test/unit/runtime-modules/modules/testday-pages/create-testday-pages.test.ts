import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pageName } from "../../../../../runtime-modules/analytics/page-name";
import { testdayPageCodes } from "../../../../../runtime-modules/modules/testday-pages/create-testday-pages";
import { pageRules } from "../../analytics/rules";

const app = { ...pageRules, separator: ":" as const };

describe("test-day tool pages", () => {
  describe('"Test-day tool pages: rooms, room detail (rooms/get/...), staff, staff detail, students, students detail, printable-rosters, irregularities, irregularities add, irregularities edit (irregularities/get/...), vouchers, help, groups, groups detail (groups/get/...)"', () => {
    const cases: Array<[string, string]> = [
      ["/rooms", "testday:rooms"],
      ["/rooms/get/1234", "testday:rooms:detail"],
      ["/staff", "testday:staff"],
      ["/staff/get/88", "testday:staff:detail"],
      ["/students", "testday:students"],
      ["/students/get/3f2504e0-4f89-11d3-9a0c-0305e82c3301", "testday:students:detail"],
      ["/printable-rosters", "testday:printable-rosters"],
      ["/irregularities", "testday:irregularities"],
      ["/irregularities/add", "testday:irregularities:add"],
      ["/irregularities/get/77", "testday:irregularities:edit"],
      ["/vouchers", "testday:vouchers"],
      ["/help", "testday:help"],
      ["/groups", "testday:groups"],
      ["/groups/get/5", "testday:groups:detail"],
    ];
    for (const [path, expected] of cases) it(path, () => expect(pageName({ site: "testday", codes: testdayPageCodes(path)! }, app)).toBe(expected));
  });
  it("under a base path, with a trailing slash, in any case", () => {
    expect(testdayPageCodes("/tdtk/Rooms/GET/12/")).toEqual(["rooms", "detail"]);
    expect(testdayPageCodes("/rooms/123")).toEqual(["rooms"]);
  });
  it("ids never reach the name", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9]{1,20}$/), (id) => {
        expect(testdayPageCodes("/irregularities/get/" + id)).toEqual(["irregularities", "edit"]);
      }),
    );
  });
  it("other paths are not test-day pages", () => {
    expect(testdayPageCodes("/")).toBeUndefined();
    expect(testdayPageCodes("/settings")).toBeUndefined();
    expect(testdayPageCodes("/constructor/toString")).toBeUndefined();
  });
});

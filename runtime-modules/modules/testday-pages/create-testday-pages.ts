import type { ModuleInstance } from "../../core/types";
import { own } from "../../analytics/lookup";

/**
 * Test-day tool pages (spec section 2) by their first one or two path
 * segments: rooms, room detail (rooms/get/...), staff, staff detail,
 * students, students detail, printable-rosters, irregularities,
 * irregularities add, irregularities edit (irregularities/get/...),
 * vouchers, help, groups, groups detail (groups/get/...). The staff and
 * students detail paths (staff/get/..., students/get/...), the add path
 * (irregularities/add) and the codes: placeholders to confirm.
 */
export const TESTDAY_PAGES: Readonly<Record<string, readonly string[]>> = {
  rooms: ["rooms"],
  "rooms/get": ["rooms", "detail"],
  staff: ["staff"],
  "staff/get": ["staff", "detail"],
  students: ["students"],
  "students/get": ["students", "detail"],
  "printable-rosters": ["printable-rosters"],
  irregularities: ["irregularities"],
  "irregularities/add": ["irregularities", "add"],
  "irregularities/get": ["irregularities", "edit"],
  vouchers: ["vouchers"],
  help: ["help"],
  groups: ["groups"],
  "groups/get": ["groups", "detail"],
};

/**
 * A test-day page's codes from its path: the first segment that names a
 * page, with the segment after it when that pair names one (ids after
 * get/ never reach the name). Undefined for other paths.
 */
export function testdayPageCodes(path: string): readonly string[] | undefined {
  const s = path
    .toLowerCase()
    .split("/")
    .filter((x) => !!x);
  for (let i = 0; i < s.length; i++) {
    const one = own(TESTDAY_PAGES, s[i]);
    if (one) return own(TESTDAY_PAGES, s[i] + "/" + s[i + 1]) || one;
  }
  return undefined;
}

/**
 * The test-day tool's page map (spec section 2): a path the map names is
 * named by it (docs/tracking.md "Page names", step 5). Command:
 * `pathCodes(path)`, the codes or undefined. Only the test-day site carries it.
 */
export function createTestdayPages(): ModuleInstance {
  return { commands: { pathCodes: (path) => testdayPageCodes(String(path)) } };
}

import { toYyyymmdd } from "../sat-funnel/dates";
import { ADMIN_NAME_NOT_RECOGNIZED, DATE_REQUIRED } from "./messages";

/** Section 5: the administration names a test-order page may carry, with their summary codes (section 3: sat, pn, p10, p89). */
export const TEST_ADMINS = {
  "sat school day": "sat",
  "psat/nmsqt": "pn",
  "psat 10": "p10",
  "psat 8/9": "p89",
} as const;

export type TestAdminCode = (typeof TEST_ADMINS)[keyof typeof TEST_ADMINS];

/** The code of an administration name (case and extra spaces ignored); null for any other name. */
export function testAdminCode(name: unknown): TestAdminCode | null {
  const key = (name == null ? "" : String(name)).trim().replace(/\s+/g, " ").toLowerCase();
  return Object.prototype.hasOwnProperty.call(TEST_ADMINS, key) ? TEST_ADMINS[key as keyof typeof TEST_ADMINS] : null;
}

/** The school code: the text in the last brackets, round or square, of the school label ("Lincoln High (Springfield) (123456)" → "123456"); null if none. */
export function schoolCode(label: unknown): string | null {
  const m = /[([]([^()[\]]*)[)\]][^()[\]]*$/.exec(label == null ? "" : String(label));
  return (m && m[1].trim()) || null;
}

export interface TestAdminSummary {
  /** The school code of the school label; "" when the label has none. */
  aiCode: string;
  admins: TestAdminCode[];
  /** yyyymmdd */
  date: string;
  inContract: boolean;
}

/**
 * The test administration summary of a test-order page, or the errors that
 * stop it: every administration name must be one of the four (one error per
 * bad name), and a date is required (no date or not a date).
 */
export function testAdminSummary(page: { admins: readonly unknown[]; schoolLabel?: unknown; date?: unknown; inContract?: boolean }): {
  summary: TestAdminSummary | null;
  errors: string[];
} {
  const errors: string[] = [];
  const admins: TestAdminCode[] = [];
  for (const name of page.admins) {
    const code = testAdminCode(name);
    if (!code) errors.push(ADMIN_NAME_NOT_RECOGNIZED);
    else if (admins.indexOf(code) < 0) admins.push(code);
  }
  if (!page.admins.length) errors.push(ADMIN_NAME_NOT_RECOGNIZED);
  const date = toYyyymmdd(page.date);
  if (!date) errors.push(DATE_REQUIRED);
  return {
    summary: errors.length ? null : { aiCode: schoolCode(page.schoolLabel) || "", admins, date, inContract: !!page.inContract },
    errors,
  };
}

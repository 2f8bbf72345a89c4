import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { educationPeriodCode, gradeLevel, parseGraduationYear, periodEndYear } from "../../../../runtime-modules/identity/education";

const d = (y: number, monthIndex: number, day = 15) => new Date(y, monthIndex, day, 12);

describe('"Education period code: last two digits of year, plus 1, plus 1 more from August (month index 7+)"', () => {
  it.each([
    [2025, 0, 26],
    [2025, 2, 26],
    [2025, 6, 26],
    [2025, 7, 27],
    [2025, 11, 27],
    [2024, 8, 26],
    [2000, 0, 1],
    [2009, 7, 11],
  ])("%i, month index %i → %i", (y, m, code) => {
    expect(educationPeriodCode(d(y, m))).toBe(code);
  });
  it("the boundary is the first of August, local time", () => {
    expect(educationPeriodCode(new Date(2025, 6, 31, 23, 59, 59))).toBe(26);
    expect(educationPeriodCode(new Date(2025, 7, 1, 0, 0, 0))).toBe(27);
  });
  it("one code per school year: the code is the last two digits of the period's end year plus 1", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2000, max: 2098 }), fc.integer({ min: 0, max: 11 }), (y, m) => {
        expect(educationPeriodCode(d(y, m))).toBe((periodEndYear(d(y, m)) % 100) + 1);
      }),
      { numRuns: 500 },
    );
  });
});

describe('"Grade level: 3 years before period end is 1, 2 is 2, 1 is 3, 0 is 4, earlier is 5, more than 3 years after is 6"', () => {
  // School year 2024-25 (period end 2025): March 2025 and September 2024 both.
  for (const now of [d(2025, 2), d(2024, 8)]) {
    it.each([
      [2028, 1],
      [2027, 2],
      [2026, 3],
      [2025, 4],
      [2024, 5],
      [2000, 5],
      [2029, 6],
      [2035, 6],
    ])(`graduating %i, on ${now.toISOString().slice(0, 7)} → %i`, (year, level) => {
      expect(gradeLevel(year, now)).toBe(level);
    });
  }
  it("moves up a level on the first of August", () => {
    expect(gradeLevel(2026, new Date(2025, 6, 31, 23, 59))).toBe(3);
    expect(gradeLevel(2026, new Date(2025, 7, 1, 0, 0))).toBe(4);
    expect(gradeLevel(2025, new Date(2025, 7, 1))).toBe(5);
  });
});

describe('"Graduation year must parse as a number (yyyy)"', () => {
  it("four digits only", () => {
    expect(parseGraduationYear("2027")).toBe(2027);
    expect(parseGraduationYear(" 2027 ")).toBe(2027);
    expect(parseGraduationYear(2027)).toBe(2027);
    for (const bad of ["27", "20277", "2027a", "", "abcd", null, undefined, 2027.5, "2,027"]) expect(parseGraduationYear(bad)).toBeUndefined();
  });
});

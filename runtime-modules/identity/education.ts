/** Month index (0-based) from which a new education period counts: August. */
const AUGUST = 7;

/**
 * "Education period code: last two digits of year, plus 1, plus 1 more from
 * August (month index 7+)." Local date. March 2025 → 25 + 1 = 26; September
 * 2024 → 24 + 1 + 1 = 26: one code per school year (August to July).
 */
export function educationPeriodCode(date: Date): number {
  return (date.getFullYear() % 100) + 1 + (date.getMonth() >= AUGUST ? 1 : 0);
}

/**
 * The calendar year the current education period ends in: the school year
 * running August to July ends in this year before August, next year from
 * August. (educationPeriodCode is its last two digits plus 1.)
 */
export function periodEndYear(date: Date): number {
  return date.getFullYear() + (date.getMonth() >= AUGUST ? 1 : 0);
}

/** "Graduation year must parse as a number (yyyy)": four digits, else undefined. */
export function parseGraduationYear(value: unknown): number | undefined {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  return /^\d{4}$/.test(text) ? Number(text) : undefined;
}

/**
 * "Grade level: 3 years before period end is 1, 2 is 2, 1 is 3, 0 is 4,
 * earlier is 5, more than 3 years after is 6." Read as the years from the
 * current period's end to graduation (graduation year minus periodEndYear):
 * 3 → 1 (graduates three periods on: first year of high school), 2 → 2,
 * 1 → 3, 0 → 4 (graduates at the end of this period), negative → 5
 * (graduated already), more than 3 → 6 (not yet in high school).
 */
export function gradeLevel(graduationYear: number, date: Date): number {
  const years = graduationYear - periodEndYear(date);
  if (years < 0) return 5;
  if (years > 3) return 6;
  return 4 - years;
}

/** String matching shared by conditions: equals, regular expression, prefix, presence. */
export interface Match {
  equals?: string | number | boolean;
  matches?: string;
  startsWith?: string;
  exists?: boolean;
}

/** Compiled patterns, by "#" and their source: no key is an Object.prototype member (a pattern `constructor`). */
const compiled: Record<string, RegExp> = {};

export function matchValue(value: unknown, m: Match): boolean {
  const present = value !== undefined && value !== null && value !== "";
  if (m.exists !== undefined && m.exists !== present) return false;
  const text = present ? String(value) : "";
  if (m.equals !== undefined && text !== String(m.equals)) return false;
  if (m.startsWith !== undefined && !text.startsWith(m.startsWith)) return false;
  if (m.matches !== undefined && !(compiled["#" + m.matches] || (compiled["#" + m.matches] = new RegExp(m.matches))).test(text)) return false;
  return m.exists !== undefined || m.equals !== undefined || m.startsWith !== undefined || m.matches !== undefined ? true : present;
}

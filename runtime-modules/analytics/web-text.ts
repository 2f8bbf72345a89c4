/** "Activity-map text cut to 99 characters; name max 200." */
export const ACTIVITY_MAP_TEXT_LIMIT = 99;
export const ACTIVITY_MAP_NAME_LIMIT = 200;

/**
 * The first n UTF-16 units of s, never ending inside a surrogate pair (a
 * lone surrogate makes encodeURIComponent throw when the record is sent).
 */
export function cut(s: string, n: number): string {
  if (s.length <= n) return s;
  const c = s.charCodeAt(n - 1);
  return s.slice(0, c >= 0xd800 && c < 0xdc00 ? n - 1 : n);
}

/** Trimmed, runs of white space as one space. */
export function squash(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/**
 * "Web text in names: small words dropped; | : = / become hyphens; commas,
 * registered and trademark signs and brackets removed." Brackets are ( ) [ ]
 * { }; small words match whole words, case-insensitively; white space is
 * squashed; case is kept. Idempotent.
 */
export function webText(text: string, smallWords: readonly string[]): string {
  const small = smallWords.map((w) => w.toLowerCase());
  return squash(text.replace(/[,\u00ae\u2122()[\]{}]/g, "").replace(/[|:=/]/g, "-"))
    .split(" ")
    .filter((w) => small.indexOf(w.toLowerCase()) < 0)
    .join(" ");
}

/** "Text escaping replaces &, <, >, double and single quotes" (as HTML entities). */
export function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => "&#" + c.charCodeAt(0) + ";");
}

/** Activity-map link text: squashed, cut to 99. */
export function activityMapText(text: string): string {
  return cut(squash(text), ACTIVITY_MAP_TEXT_LIMIT);
}

/** Activity-map region or page name: squashed, cut to 200. */
export function activityMapName(name: string): string {
  return cut(squash(name), ACTIVITY_MAP_NAME_LIMIT);
}

/** Regular expressions written as JavaScript literals (a warning of the schema, see primitives.ts). */

/**
 * A pattern written as a JavaScript regex literal: slashes around it and
 * flags after it (/-dev\.x$/i), or an anchor just inside a slash (/^x$/):
 * the slashes and flags are then matched as text, and the pattern can
 * never match a host (or, anchored, anything). A path pattern such as
 * /sat/ is no literal and is left alone.
 */
export function looksSlashWrapped(source: string): boolean {
  const m = /^\/(.*)\/([dgimsuvy]*)$/s.exec(source);
  if (!m) return false;
  return m[2].length > 0 || m[1].startsWith("^") || (m[1].endsWith("$") && !m[1].endsWith("\\$"));
}

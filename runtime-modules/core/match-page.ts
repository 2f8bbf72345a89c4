/** Drops trailing slashes, except the root's. */
function trimSlash(path: string): string {
  return path.replace(/\/+$/, "") || "/";
}

/** Whether a regular expression source matches; an invalid one matches nothing. */
export function regexMatches(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern).test(value);
  } catch (e) {
    return false;
  }
}

/**
 * "A path matches itself and everything below it": "/scores" matches
 * "/scores", "/scores/" and "/scores/x", not "/scoresheet" (trailing slashes
 * on either side do not matter; "/" matches every path). Or one of the
 * patterns (regular expression sources) matches the path.
 */
export function matchesPage(path: string, pages: readonly string[], patterns: readonly string[] = []): boolean {
  const p = trimSlash(path);
  for (const page of pages) {
    const base = trimSlash(page);
    if (base === "/" || p === base || p.indexOf(base + "/") === 0) return true;
  }
  return patterns.some((pattern) => regexMatches(pattern, path));
}

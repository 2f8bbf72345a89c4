/** The page's path now (an SPA changes it after the bundle started); `fallback` (the path at start) where location cannot be read. */
export function currentPath(win: Window, fallback: string): string {
  try {
    return win.location.pathname;
  } catch (e) {
    return fallback;
  }
}

/** A value as trimmed text ("" for undefined and null). */
export function text(v: unknown): string {
  return v === undefined || v === null ? "" : String(v).trim();
}

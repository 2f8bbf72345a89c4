import { own } from "./lookup";

/** "Error pages by code (matched case-insensitively)" and their page codes. */
export const ERROR_PAGES: Readonly<Record<string, string>> = {
  "404": "404errorpage",
  "500": "500errorpage",
  down: "downpage",
  highvolume: "highvolumepage",
  "403": "403forbidden",
  "422": "422uierrorpage",
};

/**
 * An error page's name: a known code gives its page code "with site code in
 * front" (site:404errorpage); "other codes give site:page:code", page being
 * the current page code. Undefined without a code.
 */
export function errorPageName(site: string, code: string, page: string, separator = ":"): string | undefined {
  const c = code.trim().toLowerCase();
  if (!c) return undefined;
  const known = own(ERROR_PAGES, c);
  return (known ? [site, known] : [site, page, c]).join(separator);
}

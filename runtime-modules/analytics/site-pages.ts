import { own } from "./lookup";

/**
 * Site-specific page rules of spec section 2: the hub's environment and the
 * conversion pages.
 */

/** "Its environment is dev unless the path contains embed-prod" (the hub's embed-prod, embed-stg, embed-dev paths). */
export function hubEnvironment(path: string): "prod" | "dev" {
  return path.toLowerCase().indexOf("embed-prod") >= 0 ? "prod" : "dev";
}

/** "Conversion pages: a thank-you hash on go and signup sites; the root path on kiwihub." */
export const CONVERSION_SITES: Readonly<Record<string, "hash" | "root">> = { go: "hash", signup: "hash", kiwihub: "root" };

/** "The sign-up thank-you path /iamweb/secure/thankYou counts as a completed registration." */
export const REGISTRATION_PATH = "/iamweb/secure/thankyou";

/**
 * What a page converts: "registration" on the sign-up thank-you path (any
 * site, case-insensitive, trailing slash allowed); "conversion" on a
 * thank-you hash (#thank-you or #thankyou, optionally #/..., then anything)
 * of go and signup, or the root path of kiwihub; else undefined.
 */
export function conversionPage(site: string, path: string, hash: string): "registration" | "conversion" | undefined {
  const p = path.toLowerCase().replace(/\/+$/, "") || "/";
  if (p === REGISTRATION_PATH) return "registration";
  const rule = own(CONVERSION_SITES, site);
  if (rule === "root" ? p === "/" : rule === "hash" && /^#\/?thank-?you/i.test(hash)) return "conversion";
  return undefined;
}

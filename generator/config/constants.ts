/** Tables the product spec fixes, shared by schemas and tooling. */

/** Section 4/9: the environments a site may have. */
export const ENV_NAMES = ["dev", "qa", "uat", "perf", "prod", "oat", "nonprod", "prev"] as const;

/** Section 4: consent categories a tag can belong to. */
export const CONSENT_CATEGORIES = ["performance", "functional", "marketing", "programFunctional", "programMarketing"] as const;

/** The analytics settings as the schema defaults them, and the org's page-name settings. */
import { AnalyticsRulesSchema, type PageNameSettings } from "../../../../generator/config/schemas/analytics.js";

export const rules = AnalyticsRulesSchema.parse({});

/** sites/_org.yaml pageNames, plus state (spec section 2 drops it on sign-in sites, so it is allow-listed). */
export const pageRules: PageNameSettings = {
  separator: "/",
  rootPageCode: "home",
  siteSearchCode: "site",
  keepParams: ["aclev", "action", "activity", "applicationId", "assessmentType", "category", "filter", "sku", "step", "tab", "testYear", "state"],
  dropParams: [],
  preventedHashes: ["widget", "widget-*", "header", "header-*", "set-cookies", "main-content", "top", "tst=", "javascript:"],
};

/**
 * Settings of the score-view, SAT-funnel and test-order modules (issue 7):
 * zod fragments for ModulesSchema in ../schema.ts, which spreads
 * FeatureModulesShape into it. Only per-site values live here; the spec's
 * fixed tables (events, page lists, prefixes, thresholds) are constants in
 * runtime-modules/modules/{score-views,sat-funnel,test-orders}/.
 *
 * Self-contained (zod only) so that schema.ts can import it without a cycle.
 * The runtime imports these types only.
 */
import { z } from "zod";

const Path = z.string().regex(/^\//, { message: "must start with /" });
const Code = z.string().regex(/^[a-z][a-z0-9-]*$/, { message: "must be lower-case letters, digits and hyphens" });

/* ---------- score views ---------- */

/** Section 2: the three kinds of site on which score-view tracking fires. */
export const SCORE_VIEW_SITES = ["hub", "score-report", "registration"] as const;
/** Section 2: the hub's page types ("SAT or PSAT score view or score report view"). */
export const HUB_SCORE_PAGE_TYPES = ["sat-score-view", "psat-score-view", "sat-score-report-view", "psat-score-report-view"] as const;

export const ScoreViewsModuleSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    site: z
      .enum(SCORE_VIEW_SITES)
      .describe(
        "Which rule finds score-view pages here: hub (by page code), score-report (paths containing /scores/ or ending in viewscore; /scores/details, /viewscore/overview) or registration (the registration flow or the dashboard).",
      ),
    hubPageCodes: z
      .record(Code, z.enum(HUB_SCORE_PAGE_TYPES))
      .default({
        "sat-score-view": "sat-score-view",
        "psat-score-view": "psat-score-view",
        "sat-score-report-view": "sat-score-report-view",
        "psat-score-report-view": "psat-score-report-view",
      })
      .describe("Hub only: page code → score page type. The default codes are placeholders to confirm with the hub team."),
    registrationPaths: z
      .array(Path)
      .default(["/register"])
      .describe("Registration site only: the registration flow's paths (a path matches itself and everything below it)."),
    dashboardPaths: z
      .array(Path)
      .default(["/dashboard"])
      .describe("Registration site only: the dashboard page (spec: the student dashboard path is /dashboard)."),
  })
  .describe("SAT/PSAT score views (events 24/118 and 88/119), AP score views and score sends.");

/* ---------- SAT registration funnel ---------- */

/** Section 2: the SAT registration flows (keys of FUNNEL_FLOWS in the runtime). */
export const FUNNEL_FLOW_CODES = ["newreg", "satreg-ticket", "changereg", "cancelreg", "answersvc", "satregconc"] as const;
export type FunnelFlow = (typeof FUNNEL_FLOW_CODES)[number];

export const FunnelRouteSchema = z
  .strictObject({
    path: Path.describe("A path prefix (matches itself and everything below it, case-insensitively)."),
    flow: z.enum(FUNNEL_FLOW_CODES),
    page: Code.optional().describe(
      "A fixed page; otherwise the rest of the path, segments joined by '-' (/datetc/choosecenter → datetc-choosecenter; nothing → start).",
    ),
  })
  .describe("One path → flow/page route; routes are tried in order, the first match decides.");
export type FunnelRoute = z.output<typeof FunnelRouteSchema>;

export const SatFunnelModuleSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    flowCode: Code.default("satreg").describe("The site's flow code, appended to payment-page errors and session timeouts (satregconc on the concise site)."),
    appId: z
      .string()
      .regex(/^\d+$/, { message: 'must be a digit string such as "33"' })
      .optional()
      .describe("Application id appended to payment-page errors and session timeouts; the site's appId when not set."),
    routes: z
      .array(FunnelRouteSchema)
      .default([
        { path: "/register/manage", flow: "changereg", page: "dashboard" },
        { path: "/register/ticket", flow: "satreg-ticket", page: "view" },
        { path: "/register/change", flow: "changereg" },
        { path: "/register/cancel", flow: "cancelreg" },
        { path: "/register/answer-services", flow: "answersvc" },
        { path: "/register", flow: "newreg" },
      ])
      .describe("Path → flow/page table. Spec: register/manage is the change-registration dashboard; the other prefixes are placeholders to confirm."),
    paymentPaths: z
      .array(Path)
      .default(["/register/payment"])
      .describe("The payment page (errors there get the application id and flow code appended). Placeholder to confirm."),
  })
  .describe("SAT registration funnel: page names, steps, orders, registration data, alerts and errors.");

/* ---------- test orders ---------- */

export const TestOrdersModuleSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    schoolsScaleFrom: z
      .tuple([z.number().int().min(1), z.number().int().min(1)])
      .refine(([two, three]) => two < three, { message: "scale 2 must start below scale 3" })
      .default([10, 50])
      .describe("Allocated-schools scale: the counts where scale 2 and scale 3 start (spec: <10 is 1, 10–50 is 2, 50+ is 3; so 10 is 2 and 50 is 3)."),
  })
  .describe("SAT School Day and PSAT-family test orders and test administration summaries.");

/** Spread into ModulesSchema (each key has its folder and manifest, runtime-modules/modules/NAME/module.ts). */
export const FeatureModulesShape = {
  scoreViews: ScoreViewsModuleSchema.optional(),
  satFunnel: SatFunnelModuleSchema.optional(),
  testOrders: TestOrdersModuleSchema.optional(),
};

export type ScoreViewsModuleConfig = z.output<typeof ScoreViewsModuleSchema>;
export type SatFunnelModuleConfig = z.output<typeof SatFunnelModuleSchema>;
export type TestOrdersModuleConfig = z.output<typeof TestOrdersModuleSchema>;
export type ScoreViewSite = (typeof SCORE_VIEW_SITES)[number];
export type HubScorePageType = (typeof HUB_SCORE_PAGE_TYPES)[number];

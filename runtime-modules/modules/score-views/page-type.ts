import type { HubScorePageType, ScoreViewsModuleConfig } from "../../../generator/config/schemas/feature-modules.js";
import { matchesPage } from "../../core/match-page";

/**
 * The page types on which SAT/PSAT score views are tracked (spec section 2):
 * the hub's four page types; on the score-report site "score-report" (paths
 * containing /scores/ or ending in viewscore) and "score-details"
 * (/scores/details, /viewscore/overview); on the registration site the
 * "registration-flow" and the "dashboard".
 */
export type ScoreViewPageType = HubScorePageType | "score-report" | "score-details" | "registration-flow" | "dashboard";

export type ScoreViewPageSettings = Pick<ScoreViewsModuleConfig, "site" | "hubPageCodes" | "registrationPaths" | "dashboardPaths">;

/**
 * The score-view page type of this page, or null: "Elsewhere a warning is
 * logged" (processScores logs NOT_ON_SCORE_VIEW_PAGE for null). Paths are
 * compared case-insensitively; the hub's page code too.
 */
export function scoreViewPageType(site: ScoreViewPageSettings, path: string, pageCode?: string): ScoreViewPageType | null {
  const p = (path || "").toLowerCase();
  if (site.site === "hub") {
    const code = (pageCode || "").toLowerCase();
    return Object.prototype.hasOwnProperty.call(site.hubPageCodes, code) ? site.hubPageCodes[code] : null;
  }
  if (site.site === "score-report") {
    // /scores/details also contains /scores/, so the details pages are tested first.
    if (p.indexOf("/scores/details") >= 0 || p.indexOf("/viewscore/overview") >= 0) return "score-details";
    return p.indexOf("/scores/") >= 0 || /viewscore\/*$/.test(p) ? "score-report" : null;
  }
  if (site.site === "registration") {
    const lower = (paths: readonly string[]) => paths.map((x) => x.toLowerCase());
    if (matchesPage(p, lower(site.dashboardPaths))) return "dashboard";
    if (matchesPage(p, lower(site.registrationPaths))) return "registration-flow";
  }
  return null;
}

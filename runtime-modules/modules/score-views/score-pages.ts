/**
 * The score portal's page names (spec section 2) and the AP score view, AP
 * score send, score send and score match payloads (section 3).
 */

/** Score portal pages: [page code, view code?]. */
export const SCORE_PORTAL_PAGES = {
  login: ["login-page"],
  landing: ["score-landing"],
  overview: ["score-overview"],
  report: ["score-report"],
  details: ["score-details"],
  dashboardLatest: ["dashboard", "latest-shown"],
  dashboardComing: ["dashboard", "coming"],
  dashboardPending: ["dashboard", "pending"],
  dashboardNoScores: ["dashboard", "no-scores"],
  skillsInsight: ["skills-insight"],
  testQuestions: ["test-questions"],
  meritScholarship: ["merit-scholarship-eligibility"],
  essayDetails: ["essay-details"],
  assessmentLoading: ["assessment-loading"],
  apPotential: ["ap-potential"],
  scoreSends: ["score-sends"],
  scoreSendsEmpty: ["score-sends", "empty"],
} as const;

export type ScorePortalPage = keyof typeof SCORE_PORTAL_PAGES;

/** A score portal page's page and view codes joined by the site's separator; null for an unknown page. */
export function scorePortalPageName(page: string, separator: "/" | ":" = ":"): string | null {
  return Object.prototype.hasOwnProperty.call(SCORE_PORTAL_PAGES, page) ? SCORE_PORTAL_PAGES[page as ScorePortalPage].join(separator) : null;
}

/** Trimmed, non-blank, first occurrence only. */
function codes(list: readonly unknown[] | null | undefined): string[] {
  const out: string[] = [];
  for (const v of list || []) {
    const s = v == null ? "" : String(v).trim();
    if (s && out.indexOf(s) < 0) out.push(s);
  }
  return out;
}

/** AP score view: maxApTestYear, the latest four-digit test year among the student's AP scores (undefined when none). */
export function apScoreView(testYears: readonly unknown[] | null | undefined): { maxApTestYear?: number } {
  let max: number | undefined;
  for (const v of testYears || []) {
    const y = /^\s*\d{4}\s*$/.test(String(v)) ? +String(v) : NaN;
    if (y === y && (max === undefined || y > max)) max = y;
  }
  return max === undefined ? {} : { maxApTestYear: max };
}

/** AP score sends: the total sent and the DI codes, pipe-separated (each DI code once). */
export function apScoreSends(diCodes: readonly unknown[] | null | undefined): { totalSent: number; diCodes: string } {
  const list = codes(diCodes);
  return { totalSent: list.length, diCodes: list.join("|") };
}

/**
 * Score sends: total sent, institution codes (pipe-separated, each once) and
 * the dedupe key: the order id when there is one, else the sorted codes, so
 * the same send is counted once.
 */
export function scoreSends(
  institutionCodes: readonly unknown[] | null | undefined,
  orderId?: unknown,
): { totalSent: number; institutionCodes: string; dedupeKey: string } {
  const list = codes(institutionCodes);
  const id = orderId == null ? "" : String(orderId).trim();
  return { totalSent: list.length, institutionCodes: list.join("|"), dedupeKey: id || list.slice().sort().join("|") };
}

/** Score match: the matchType, trimmed and lower-cased; null when blank. */
export function scoreMatch(matchType: unknown): { matchType: string } | null {
  const s = matchType == null ? "" : String(matchType).trim().toLowerCase();
  return s ? { matchType: s } : null;
}

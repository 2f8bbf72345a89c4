import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  apScoreSends,
  apScoreView,
  SCORE_PORTAL_PAGES,
  scoreMatch,
  scorePortalPageName,
  scoreSends,
} from "../../../../../runtime-modules/modules/score-views/score-pages";

describe("score portal page names", () => {
  it.each([
    ["login", "login-page"],
    ["landing", "score-landing"],
    ["overview", "score-overview"],
    ["report", "score-report"],
    ["details", "score-details"],
    ["dashboardLatest", "dashboard:latest-shown"],
    ["dashboardComing", "dashboard:coming"],
    ["dashboardPending", "dashboard:pending"],
    ["dashboardNoScores", "dashboard:no-scores"],
    ["skillsInsight", "skills-insight"],
    ["testQuestions", "test-questions"],
    ["meritScholarship", "merit-scholarship-eligibility"],
    ["essayDetails", "essay-details"],
    ["assessmentLoading", "assessment-loading"],
    ["apPotential", "ap-potential"],
    ["scoreSends", "score-sends"],
    ["scoreSendsEmpty", "score-sends:empty"],
  ])('"Score portal pages": %s → %s', (page, name) => {
    expect(scorePortalPageName(page)).toBe(name);
  });

  it("the table has exactly the spec's 17 pages (dashboard counted once per state)", () => {
    expect(Object.keys(SCORE_PORTAL_PAGES)).toHaveLength(17);
  });

  it("web-style separator, unknown pages", () => {
    expect(scorePortalPageName("dashboardPending", "/")).toBe("dashboard/pending");
    expect(scorePortalPageName("nope")).toBeNull();
    expect(scorePortalPageName("toString")).toBeNull();
  });
});

describe("AP score view", () => {
  it('"AP score view: maxApTestYear"', () => {
    expect(apScoreView([2021, "2023", 2022])).toEqual({ maxApTestYear: 2023 });
    expect(apScoreView([" 2019 "])).toEqual({ maxApTestYear: 2019 });
    expect(apScoreView(["23", null, "x", 20245])).toEqual({});
    expect(apScoreView([])).toEqual({});
    expect(apScoreView(undefined)).toEqual({});
  });
  it("maxApTestYear is the largest year (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1955, max: 2099 }), { minLength: 1 }), (years) => {
        expect(apScoreView(years).maxApTestYear).toBe(Math.max(...years));
      }),
    );
  });
});

describe("AP score sends and score sends", () => {
  it('"AP score send: total sent, DI codes"', () => {
    expect(apScoreSends(["1234", " 5678 ", "", null, "1234"])).toEqual({ totalSent: 2, diCodes: "1234|5678" });
    expect(apScoreSends([])).toEqual({ totalSent: 0, diCodes: "" });
  });
  it('"Score sends: total sent, institution codes, dedupe key": the order id', () => {
    expect(scoreSends(["3000", "1000"], "ord-9")).toEqual({ totalSent: 2, institutionCodes: "3000|1000", dedupeKey: "ord-9" });
  });
  it("score sends without an order id: the dedupe key is the sorted codes", () => {
    expect(scoreSends(["3000", "1000", "3000"])).toEqual({ totalSent: 2, institutionCodes: "3000|1000", dedupeKey: "1000|3000" });
    expect(scoreSends(["1000", "3000"]).dedupeKey).toBe(scoreSends(["3000", "1000"]).dedupeKey);
    expect(scoreSends(null, " ")).toEqual({ totalSent: 0, institutionCodes: "", dedupeKey: "" });
  });
});

describe("score match", () => {
  it('"Score match: matchType"', () => {
    expect(scoreMatch(" Exact ")).toEqual({ matchType: "exact" });
    expect(scoreMatch("")).toBeNull();
    expect(scoreMatch(undefined)).toBeNull();
  });
});

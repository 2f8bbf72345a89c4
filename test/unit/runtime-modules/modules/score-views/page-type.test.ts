import { describe, expect, it } from "vitest";
import { ScoreViewsModuleSchema } from "../../../../../generator/config/schemas/feature-modules.js";
import { scoreViewPageType } from "../../../../../runtime-modules/modules/score-views/page-type";

const hub = ScoreViewsModuleSchema.parse({ site: "hub" });
const report = ScoreViewsModuleSchema.parse({ site: "score-report" });
const reg = ScoreViewsModuleSchema.parse({ site: "registration" });

describe("scoreViewPageType", () => {
  it.each([
    ["sat-score-view", "sat-score-view"],
    ["psat-score-view", "psat-score-view"],
    ["sat-score-report-view", "sat-score-report-view"],
    ["PSAT-Score-Report-View", "psat-score-report-view"],
    ["home", null],
    [undefined, null],
    ["constructor", null],
    ["__proto__", null],
  ])('"Hub site: pages coded as SAT or PSAT score view or score report view": page code %s → %s', (code, type) => {
    expect(scoreViewPageType(hub, "/pages/anything", code)).toBe(type);
  });

  it("hub: a site-configured page code", () => {
    const custom = ScoreViewsModuleSchema.parse({ site: "hub", hubPageCodes: { "sat-scores": "sat-score-view" } });
    expect(scoreViewPageType(custom, "/", "sat-scores")).toBe("sat-score-view");
    expect(scoreViewPageType(custom, "/", "sat-score-view")).toBeNull();
  });

  it.each([
    ["/scores/", "score-report"],
    ["/sat/scores/2024", "score-report"],
    ["/SAT/Scores/x", "score-report"],
    ["/viewscore", "score-report"],
    ["/psat/viewscore/", "score-report"],
    ["/sat/viewscore", "score-report"],
    ["/scores/details", "score-details"],
    ["/sat/scores/details/123", "score-details"],
    ["/viewscore/overview", "score-details"],
    ["/scores", null],
    ["/myscores/x", null],
    ["/viewscores", null],
    ["/viewscore/other", null],
    ["/", null],
  ])('"Score-report site: paths containing /scores/ or ending in viewscore, and /scores/details or /viewscore/overview": %s → %s', (path, type) => {
    expect(scoreViewPageType(report, path)).toBe(type);
  });

  it("score-report site ignores page codes", () => {
    expect(scoreViewPageType(report, "/home", "sat-score-view")).toBeNull();
  });

  it.each([
    ["/register", "registration-flow"],
    ["/register/datetc/choosecenter", "registration-flow"],
    ["/register/paymentConfirmation", "registration-flow"],
    ["/dashboard", "dashboard"],
    ["/dashboard/", "dashboard"],
    ["/Dashboard/scores", "dashboard"],
    ["/registered", null],
    ["/", null],
    ["/scores/", null],
  ])('"Registration site: the registration flow or the dashboard page": %s → %s', (path, type) => {
    expect(scoreViewPageType(reg, path)).toBe(type);
  });

  it('"Elsewhere a warning is logged": null on a hub page without a score page code and on other site paths', () => {
    expect(scoreViewPageType(hub, "/scores/", "home")).toBeNull();
    expect(scoreViewPageType(reg, "/account")).toBeNull();
  });
});

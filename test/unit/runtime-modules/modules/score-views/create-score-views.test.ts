import { afterEach, describe, expect, it } from "vitest";
import { vi } from "vitest";
import { ScoreViewsModuleSchema } from "../../../../../generator/config/schemas/feature-modules.js";
import {
  ASMT_EVENT_ID_NOT_FOUND,
  LATEST_SCORE_NOT_AVAILABLE,
  MODULE_FAILED,
  NO_SCORES_FOUND,
  NOT_ON_SCORE_VIEW_PAGE,
  UNRECOGNIZED_SCORE_VIEW,
} from "../../../../../runtime-modules/core/messages";
import { createScoreViews, SCORE_VIEW_EVENT_TYPE } from "../../../../../runtime-modules/modules/score-views/create-score-views";
import { registry } from "../../../../../runtime-modules/registry";
import { featureServices, flush } from "../feature-services";

function setup(url: string, settings: Record<string, unknown>, preload: Record<string, unknown>[] = []) {
  const h = featureServices(ScoreViewsModuleSchema.parse(settings), { url, preload });
  const instance = createScoreViews(h.services);
  return { ...h, commands: instance.commands! };
}

const sat = {
  admin_event: { asmt_event_id: "5501", event_start_dt: "2024-10-05", asmt_family_cd: 1, event_title: "SAT", admin_yyyymm: "202410", asmt_id: "99" },
  assessmentIndicators: { scoreAvailableInd: "Y" },
  satRegId: "ab12",
};
const psat = {
  admin_event: {
    asmt_event_id: 7001,
    event_start_dt: "2023-10-11T08:00:00",
    asmt_family_cd: "3",
    event_title: "PSAT/NMSQT Contract",
    admin_yyyymm: 202310,
    asmt_id: 12,
  },
  assessmentIndicators: { scoreAvailableInd: true },
};
const unrecognized = {
  admin_event: { asmt_event_id: "8100", asmt_family_cd: 3, event_title: "PSAT Practice Round", admin_yyyymm: "202404" },
  assessmentIndicators: { scoreAvailableInd: "Y" },
};
const notAvailable = { admin_event: { asmt_event_id: "8200", asmt_family_cd: 1, event_title: "SAT" }, assessmentIndicators: { scoreAvailableInd: "N" } };
const noEventId = { admin_event: { asmt_family_cd: 1, event_title: "SAT" }, assessmentIndicators: { scoreAvailableInd: "Y" } };
const mixed = [sat, notAvailable, psat, noEventId, unrecognized, { ...sat }];

const SAT_VARS = {
  events: "event24,event118:5501",
  eVar60: "sat-202410-99",
  eVar61: "5501",
  eVar62: "sat",
  eVar63: "20241005",
  eVar64: "not-avail",
  eVar65: "not-avail",
  eVar66: "not-avail",
  prop60: "score-details",
};
const PSAT_VARS = {
  events: "event88,event119:7001",
  eVar60: "psat-nmsqt-c-202310-12",
  eVar61: "7001",
  eVar62: "psat-nmsqt-c",
  eVar63: "20231011",
  eVar64: "not-avail",
  eVar65: "not-avail",
  eVar66: "not-avail",
  prop60: "score-details",
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("createScoreViews", () => {
  it("its event type is the marker in the module's manifest (module.ts); its commands are the ones its manifest lists", () => {
    const { commands } = setup("https://scores.kiwi.example/scores/details", { site: "score-report" });
    expect(registry.scoreViews.markers).toEqual([SCORE_VIEW_EVENT_TYPE]);
    expect(Object.keys(commands).sort()).toEqual([...registry.scoreViews.commands].sort());
    expect(registry.scoreViews.provides).toEqual([]);
  });

  it("a mixed list on a score-report page: exactly one SAT and one PSAT view, the catalogue's logs in order, then the score data is reset", () => {
    const h = setup("https://scores.kiwi.example/scores/details", { site: "score-report" });
    h.start();
    h.push({ event: "score-view", scores: mixed });
    expect(h.events().map((e) => [e.name, e.eventType, e.variables])).toEqual([
      ["score view:sat:sat-202410-99", "kiwi.scoreView", SAT_VARS],
      ["score view:psat:psat-nmsqt-c-202310-12", "kiwi.scoreView", PSAT_VARS],
    ]);
    expect(h.logs()).toEqual([
      ["info", LATEST_SCORE_NOT_AVAILABLE],
      ["warn", ASMT_EVENT_ID_NOT_FOUND],
      ["warn", UNRECOGNIZED_SCORE_VIEW],
    ]);
    expect(h.dataLayer.get("scores")).toBeNull();
    expect((h.win.kiwiDataLayer as unknown[]).slice(-1)).toEqual([{ scores: null }]);
  });

  it("pushes made before the bundle loaded are processed when it starts", () => {
    const h = setup("https://scores.kiwi.example/scores/details", { site: "score-report" }, [{ event: "score-view", scores: [sat] }]);
    expect(h.events()).toEqual([]);
    h.start();
    expect(h.events().map((e) => e.variables.events)).toEqual(["event24,event118:5501"]);
    expect(h.dataLayer.get("scores")).toBeNull();
  });

  it("score-report site: paths containing /scores/ or ending in viewscore, /scores/details, /viewscore/overview", () => {
    for (const [path, type] of [
      ["/scores/details", "score-details"],
      ["/viewscore/overview", "score-details"],
      ["/student/scores/2024", "score-report"],
      ["/viewscore", "score-report"],
      ["/app/ViewScore/", "score-report"],
    ]) {
      const h = setup("https://scores.kiwi.example" + path, { site: "score-report" });
      h.start();
      h.push({ event: "score-view", scores: [sat] });
      expect(
        h.events().map((e) => e.variables.prop60),
        path,
      ).toEqual([type]);
      vi.unstubAllGlobals();
    }
  });

  it("elsewhere: 'Not on a page where we expect to track SAT/PSAT Score Views', nothing sent, the data is left alone", () => {
    const h = setup("https://scores.kiwi.example/account/settings", { site: "score-report" });
    h.start();
    h.push({ event: "score-view", scores: [sat, psat] });
    expect(h.events()).toEqual([]);
    expect(h.logs()).toEqual([["warn", NOT_ON_SCORE_VIEW_PAGE]]);
    expect(h.dataLayer.get("scores")).toHaveLength(2);
    expect(h.commands.pageType()).toBeNull();
  });

  it("'No scores found to process/track' for an empty, missing or non-list scores field", () => {
    const h = setup("https://scores.kiwi.example/scores/details", { site: "score-report" });
    h.start();
    h.push({ event: "score-view", scores: [] });
    h.push({ event: "score-view" });
    h.push({ event: "score-view", scores: { admin_event: {} } });
    expect(h.events()).toEqual([]);
    expect(h.logs()).toEqual([
      ["info", NO_SCORES_FOUND],
      ["info", NO_SCORES_FOUND],
      ["info", NO_SCORES_FOUND],
    ]);
  });

  it("an SPA: the page type is the one of the path when the scores are pushed", () => {
    const h = setup("https://scores.kiwi.example/home", { site: "score-report" });
    h.start();
    h.navigate("/scores/details");
    h.push({ event: "score-view", scores: [sat] });
    expect(h.events()).toHaveLength(1);
    expect(h.commands.pageType()).toBe("score-details");
  });

  it("hub: the page code of the push, else pageCode in the data layer (a page-view push)", () => {
    const h = setup("https://kiwihub.kiwi.example/pages/scores", { site: "hub" });
    h.start();
    h.push({ event: "score-view", scores: [sat] });
    expect(h.logs()).toEqual([["warn", NOT_ON_SCORE_VIEW_PAGE]]);
    h.push({ event: "score-view", pageCode: "psat-score-report-view", scores: [psat] });
    h.push({ event: "page-view", pageCode: "SAT-Score-View" });
    h.push({ event: "score-view", scores: [sat] });
    expect(h.events().map((e) => [e.variables.events, e.variables.prop60])).toEqual([
      ["event88,event119:7001", "psat-score-report-view"],
      ["event24,event118:5501", "sat-score-view"],
    ]);
  });

  it("hub: configured page codes", () => {
    const h = setup("https://kiwihub.kiwi.example/pages/x", { site: "hub", hubPageCodes: { "my-sat-scores": "sat-score-view" } }, [
      { pageCode: "my-sat-scores" },
    ]);
    h.start();
    h.push({ event: "score-view", scores: [sat] });
    expect(h.events().map((e) => e.variables.prop60)).toEqual(["sat-score-view"]);
  });

  it("registration site: the registration flow and the dashboard", () => {
    for (const [path, type] of [
      ["/register/datetc/choosedate", "registration-flow"],
      ["/dashboard", "dashboard"],
      ["/help", null],
    ] as const) {
      const h = setup("https://satreg.kiwi.example" + path, { site: "registration" });
      h.start();
      h.push({ event: "score-view", scores: [sat] });
      expect(
        h.events().map((e) => e.variables.prop60),
        path,
      ).toEqual(type ? [type] : []);
      vi.unstubAllGlobals();
    }
  });

  it("legacy events (before March 2023): SAT deduper is the uppercased registration id, sent as eVar67; PSAT deduper is variant-year-season", () => {
    const h = setup("https://scores.kiwi.example/scores/details", { site: "score-report" });
    h.start();
    h.push({
      event: "score-view",
      scores: [
        { ...sat, admin_event: { ...sat.admin_event, asmt_event_id: "300", admin_yyyymm: "202203", event_title: "SAT School Day" }, satRegId: "ab12cd" },
        {
          admin_event: { asmt_event_id: "301", asmt_family_cd: 3, event_title: "PSAT 8/9", admin_yyyymm: "202210", asmt_id: "5" },
          assessmentIndicators: { scoreAvailableInd: "1" },
        },
        {
          admin_event: { asmt_event_id: "302", asmt_family_cd: 3, event_title: "PSAT 8/9", admin_yyyymm: "202210", asmt_id: "5" },
          assessmentIndicators: { scoreAvailableInd: "1" },
        },
      ],
    });
    expect(h.events().map((e) => [e.variables.events, e.variables.eVar60, e.variables.eVar67])).toEqual([
      ["event24,event118:AB12CD", "sat-school-day-202203-99", "AB12CD"],
      ["event88,event119:psat-89-2022f", "psat-89-t-202210-5", undefined],
    ]);
  });

  it("command track() processes the scores in the data layer now", () => {
    const h = setup("https://scores.kiwi.example/scores/details", { site: "score-report" }, [{ scores: [sat, psat] }]);
    h.start();
    expect(h.events()).toEqual([]);
    expect(h.commands.track()).toBe(2);
    expect(h.events()).toHaveLength(2);
    expect(h.dataLayer.get("scores")).toBeNull();
    expect(h.commands.track()).toBe(0);
    expect(h.logs()).toEqual([["info", NO_SCORES_FOUND]]);
  });

  it("ignores other pushes, and the reset push itself", () => {
    const h = setup("https://scores.kiwi.example/scores/details", { site: "score-report" });
    h.start();
    h.push({ event: "search", scores: [sat] });
    h.push({ scores: [sat] });
    expect(h.events()).toEqual([]);
    expect(h.logs()).toEqual([]);
  });

  it("never throws into the page: a failing send is logged", async () => {
    const h = setup("https://scores.kiwi.example/scores/details", { site: "score-report" });
    h.start();
    h.failSends();
    expect(() => h.push({ event: "score-view", scores: [sat] })).not.toThrow();
    expect(h.log.entries.map((e) => [e.message, (e.data as { module?: string })?.module])).toEqual([[MODULE_FAILED, "scoreViews"]]);
    await flush();
  });
});

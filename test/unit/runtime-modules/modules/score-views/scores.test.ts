import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ASMT_EVENT_ID_NOT_FOUND,
  LATEST_SCORE_NOT_AVAILABLE,
  NO_SCORES_FOUND,
  NOT_ON_SCORE_VIEW_PAGE,
  UNRECOGNIZED_SCORE_VIEW,
} from "../../../../../runtime-modules/core/messages";
import {
  adminSeason,
  contractSuffix,
  isLegacyEvent,
  isScoreAvailable,
  legacyRegId,
  processScores,
  psatLegacyKey,
  psatVariant,
  SCORE_DATA_RESET,
  scoreAdminType,
  scoreYyyymm,
  type ScoreRecord,
} from "../../../../../runtime-modules/modules/score-views/scores";
import { ORG_VARIABLES } from "../../helpers/variables";

function score(event: Record<string, unknown>, available: unknown = "Y", satRegId: string | null = "ab12cd"): ScoreRecord {
  return { admin_event: event as ScoreRecord["admin_event"], assessmentIndicators: { scoreAvailableInd: available }, satRegId };
}

const sat = (over: Record<string, unknown> = {}) =>
  score({ asmt_event_id: 501, event_start_dt: "2023-08-26", asmt_family_cd: 1, event_title: "SAT", admin_yyyymm: "202308", asmt_id: 99, ...over });
const psat = (over: Record<string, unknown> = {}) =>
  score({
    asmt_event_id: 777,
    event_start_dt: "2023-10-11T08:00:00",
    asmt_family_cd: "3",
    event_title: "PSAT/NMSQT",
    admin_yyyymm: 202310,
    asmt_id: 12,
    ...over,
  });

describe("score families and admin types", () => {
  it.each([
    [1, "SAT", { family: "sat", adminType: "sat", base: "sat" }],
    [1, "SAT School Day", { family: "sat", adminType: "sat-school-day", base: "sat-school-day" }],
    ["1", "Spring sat schoolday", { family: "sat", adminType: "sat-school-day", base: "sat-school-day" }],
    [2, "SAT Subject Test Biology", { family: "sat", adminType: "sat-subject-test", base: "sat-subject-test" }],
    [3, "PSAT/NMSQT", { family: "psat", adminType: "psat-nmsqt-t", base: "psat-nmsqt" }],
    [3, "PSAT 10", { family: "psat", adminType: "psat-10-t", base: "psat-10" }],
    [3, "PSAT 8/9", { family: "psat", adminType: "psat-89-t", base: "psat-89" }],
    [3, "PSAT/NMSQT Contract", { family: "psat", adminType: "psat-nmsqt-c", base: "psat-nmsqt" }],
    [3, "PSAT 10 (contract)", { family: "psat", adminType: "psat-10-c", base: "psat-10" }],
    [3, "PSAT 8/9 Contract", { family: "psat", adminType: "psat-89-c", base: "psat-89" }],
    [3, "PSAT 100", null],
    [3, "PSAT", null],
    [3, "", null],
    [4, "AP", null],
    [null, "SAT", null],
    [undefined, undefined, null],
  ])('"Family code 1 is SAT (School Day suffix from title), 2 is SAT Subject Test, 3 is PSAT": family %s, title %s', (family, title, expected) => {
    expect(scoreAdminType(family, title)).toEqual(expected);
  });

  it('"PSAT variants: PSAT/NMSQT, PSAT 10, PSAT 8/9"', () => {
    expect(psatVariant("2023 PSAT/NMSQT")).toBe("psat-nmsqt");
    expect(psatVariant("PSAT 10")).toBe("psat-10");
    expect(psatVariant("PSAT 8/9")).toBe("psat-89");
    expect(psatVariant("SAT")).toBeNull();
  });

  it('"contract suffix -c else -t"', () => {
    expect(contractSuffix("PSAT 10 Contract")).toBe("-c");
    expect(contractSuffix("PSAT 10")).toBe("-t");
  });
});

describe("admin season and the March 2023 boundary", () => {
  it.each([
    ["202301", "s"],
    ["202305", "s"],
    ["202306", "f"],
    ["202312", "f"],
    ["20230531", "s"],
    ["20230601", "f"],
  ])('"Admin season: before June s, else f": %s → %s', (yyyymm, season) => {
    expect(adminSeason(yyyymm)).toBe(season);
  });

  it("admin season over every month (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2000, max: 2099 }), fc.integer({ min: 1, max: 12 }), (y, m) => {
        const yyyymm = String(y) + (m < 10 ? "0" : "") + m;
        expect(adminSeason(yyyymm)).toBe(m < 6 ? "s" : "f");
      }),
    );
  });

  it.each([
    ["202302", true],
    ["202212", true],
    ["202303", false],
    ["202304", false],
    ["", false],
  ])('"events before March 2023": %s → %s', (yyyymm, legacy) => {
    expect(isLegacyEvent(yyyymm)).toBe(legacy);
  });

  it('"Legacy registration id only for events before March 2023 (uppercased)"', () => {
    expect(legacyRegId("ab12cd", "202302")).toBe("AB12CD");
    expect(legacyRegId("ab12cd", "202303")).toBeUndefined();
    expect(legacyRegId(undefined, "202302")).toBeUndefined();
    expect(legacyRegId("", "202201")).toBeUndefined();
  });

  it('"PSAT legacy dedupe key for events before March 2023 with suffix s for months before June else f"', () => {
    expect(psatLegacyKey("psat-10", "202205")).toBe("psat-10-2022s");
    expect(psatLegacyKey("psat-10", "202206")).toBe("psat-10-2022f");
    expect(psatLegacyKey("psat-nmsqt", "202302")).toBe("psat-nmsqt-2023s");
    expect(psatLegacyKey("psat-nmsqt", "202303")).toBeUndefined();
  });

  it("legacy key and season over random admin months (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2015, max: 2030 }), fc.integer({ min: 1, max: 12 }), (y, m) => {
        const yyyymm = String(y) + (m < 10 ? "0" : "") + m;
        const legacy = y < 2023 || (y === 2023 && m < 3);
        const key = psatLegacyKey("psat-89", yyyymm);
        expect(key).toBe(legacy ? "psat-89-" + y + (m < 6 ? "s" : "f") : undefined);
        expect(legacyRegId("x1", yyyymm)).toBe(legacy ? "X1" : undefined);
      }),
    );
  });

  it("the admin month is admin_yyyymm, else the month of event_start_dt", () => {
    expect(scoreYyyymm({ admin_yyyymm: "202305", event_start_dt: "2023-06-03" })).toBe("202305");
    expect(scoreYyyymm({ admin_yyyymm: 202305 })).toBe("202305");
    expect(scoreYyyymm({ admin_yyyymm: "2023-05", event_start_dt: "2023-06-03" })).toBe("202306");
    expect(scoreYyyymm({ admin_yyyymm: "202313", event_start_dt: "2023/06/03" })).toBe("202306");
    expect(scoreYyyymm({})).toBe("");
  });

  it("scoreAvailableInd: true, 1, Y, yes, true, 1 are available", () => {
    for (const v of [true, 1, "Y", "y", "yes", "TRUE", "1"]) expect(isScoreAvailable(v), String(v)).toBe(true);
    for (const v of [false, 0, "N", "", null, undefined, "maybe"]) expect(isScoreAvailable(v), String(v)).toBe(false);
  });
});

describe("processScores", () => {
  const ctx = { pageType: "score-report" as const };

  it('"Score view events: SAT 24 and 118; PSAT 88 and 119"', () => {
    // The numbers are the catalogue's (analyticsVariables.scoreViews.events in sites/_org.yaml).
    expect(ORG_VARIABLES.scoreViews.events).toEqual({ sat: ["event24", "event118"], psat: ["event88", "event119"] });
  });

  it("a list of mixed SAT, PSAT and unrecognised scores gives exactly these events and logs", () => {
    const scores = [
      sat(),
      psat(),
      score({ asmt_event_id: 9, asmt_family_cd: 4, event_title: "AP Biology", admin_yyyymm: "202305", asmt_id: 1 }),
      score({ asmt_event_id: 10, asmt_family_cd: 3, event_title: "PreACT", admin_yyyymm: "202305", asmt_id: 1 }),
      sat({ asmt_event_id: 502 }),
      { ...sat({ asmt_event_id: 503 }), assessmentIndicators: { scoreAvailableInd: "N" } },
      sat({ asmt_event_id: null }),
      psat({ asmt_event_id: 778, event_title: "PSAT 8/9 Contract", admin_yyyymm: "202202", event_start_dt: "2022-02-15", asmt_id: 13 }),
      sat({ asmt_event_id: 400, event_title: "SAT School Day", admin_yyyymm: "202302", event_start_dt: "2023/02/28", asmt_id: 7 }),
    ];
    expect(processScores(scores, ctx)).toEqual({
      events: [
        {
          family: "sat",
          pageType: "score-report",
          asmtEventId: "501",
          adminTypeCode: "sat-202308-99",
          deduper: "501",
          adminType: "sat",
          adminDate: "20230826",
          registrantType: "not-avail",
          fwStatus: "not-avail",
          scoreBand: "not-avail",
        },
        {
          family: "psat",
          pageType: "score-report",
          asmtEventId: "777",
          adminTypeCode: "psat-nmsqt-t-202310-12",
          deduper: "777",
          adminType: "psat-nmsqt-t",
          adminDate: "20231011",
          registrantType: "not-avail",
          fwStatus: "not-avail",
          scoreBand: "not-avail",
        },
        {
          family: "sat",
          pageType: "score-report",
          asmtEventId: "502",
          adminTypeCode: "sat-202308-99",
          deduper: "502",
          adminType: "sat",
          adminDate: "20230826",
          registrantType: "not-avail",
          fwStatus: "not-avail",
          scoreBand: "not-avail",
        },
        {
          family: "psat",
          pageType: "score-report",
          asmtEventId: "778",
          adminTypeCode: "psat-89-c-202202-13",
          deduper: "psat-89-2022s",
          adminType: "psat-89-c",
          adminDate: "20220215",
          registrantType: "not-avail",
          fwStatus: "not-avail",
          scoreBand: "not-avail",
          legacyRegId: "AB12CD",
        },
        {
          family: "sat",
          pageType: "score-report",
          asmtEventId: "400",
          adminTypeCode: "sat-school-day-202302-7",
          deduper: "AB12CD",
          adminType: "sat-school-day",
          adminDate: "20230228",
          registrantType: "not-avail",
          fwStatus: "not-avail",
          scoreBand: "not-avail",
          legacyRegId: "AB12CD",
        },
      ],
      logs: [
        { level: "warn", message: UNRECOGNIZED_SCORE_VIEW },
        { level: "warn", message: UNRECOGNIZED_SCORE_VIEW },
        { level: "info", message: LATEST_SCORE_NOT_AVAILABLE },
        { level: "warn", message: ASMT_EVENT_ID_NOT_FOUND },
      ],
    });
  });

  it('"Latest score not available": no indicator, or not available (checked before the event id)', () => {
    expect(processScores([{ ...sat(), assessmentIndicators: null }], ctx).logs).toEqual([{ level: "info", message: LATEST_SCORE_NOT_AVAILABLE }]);
    expect(processScores([score({ asmt_family_cd: 9 }, "N")], ctx).logs).toEqual([{ level: "info", message: LATEST_SCORE_NOT_AVAILABLE }]);
  });

  it('"admin_event.asmt_event_id not found for this score": missing, null, blank or no admin_event', () => {
    const logs = processScores(
      [sat({ asmt_event_id: undefined }), sat({ asmt_event_id: "  " }), { assessmentIndicators: { scoreAvailableInd: true } }],
      ctx,
    ).logs;
    expect(logs).toEqual(Array(3).fill({ level: "warn", message: ASMT_EVENT_ID_NOT_FOUND }));
  });

  it('"No scores found to process/track": empty, null or undefined list', () => {
    for (const scores of [[], null, undefined]) expect(processScores(scores, ctx)).toEqual({ events: [], logs: [{ level: "info", message: NO_SCORES_FOUND }] });
  });

  it('"Not on a page where we expect to track SAT/PSAT Score Views": no page type, nothing processed', () => {
    expect(processScores([sat(), psat()], { pageType: null })).toEqual({ events: [], logs: [{ level: "warn", message: NOT_ON_SCORE_VIEW_PAGE }] });
  });

  it("deduper per score: the same score twice in one batch is tracked once; the same event id in SAT and PSAT both", () => {
    const { events } = processScores([sat(), sat(), psat({ asmt_event_id: 501 })], ctx);
    expect(events.map((e) => e.family + ":" + e.deduper)).toEqual(["sat:501", "psat:501"]);
  });

  it("PSAT legacy key dedupes two pre-March-2023 PSAT scores of the same variant and season", () => {
    const a = psat({ asmt_event_id: 1, admin_yyyymm: "202210", event_title: "PSAT/NMSQT" });
    const b = psat({ asmt_event_id: 2, admin_yyyymm: "202211", event_title: "PSAT/NMSQT Contract" });
    expect(processScores([a, b], ctx).events.map((e) => e.deduper)).toEqual(["psat-nmsqt-2022f"]);
  });

  it("the boundary: February 2023 uses legacy keys, March 2023 the event id", () => {
    const feb = processScores([psat({ admin_yyyymm: "202302" }), sat({ admin_yyyymm: "202302" })], ctx).events;
    const mar = processScores([psat({ admin_yyyymm: "202303" }), sat({ admin_yyyymm: "202303" })], ctx).events;
    expect(feb.map((e) => [e.deduper, e.legacyRegId])).toEqual([
      ["psat-nmsqt-2023s", "AB12CD"],
      ["AB12CD", "AB12CD"],
    ]);
    expect(mar.map((e) => [e.deduper, e.legacyRegId])).toEqual([
      ["777", undefined],
      ["501", undefined],
    ]);
  });

  it("a pre-March-2023 SAT score without satRegId is deduped by its event id", () => {
    const s = score({ asmt_event_id: 42, asmt_family_cd: 1, event_title: "SAT", admin_yyyymm: "202211", asmt_id: 3 }, true, null);
    expect(processScores([s], ctx).events[0]).toMatchObject({ deduper: "42", adminTypeCode: "sat-202211-3" });
    expect(processScores([s], ctx).events[0].legacyRegId).toBeUndefined();
  });

  it("never throws on malformed records; every input gives an event or a log (property)", () => {
    const rec = fc.record(
      {
        admin_event: fc.option(
          fc.record(
            {
              asmt_event_id: fc.option(fc.oneof(fc.integer(), fc.string())),
              event_start_dt: fc.option(fc.string()),
              asmt_family_cd: fc.option(fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constantFrom("1", "2", "3"))),
              event_title: fc.option(fc.constantFrom("SAT", "SAT School Day", "PSAT 10", "PSAT/NMSQT Contract", "PSAT 8/9", "x")),
              admin_yyyymm: fc.option(fc.oneof(fc.integer({ min: 201001, max: 203012 }), fc.string())),
              asmt_id: fc.option(fc.integer()),
            },
            { requiredKeys: [] },
          ),
        ),
        assessmentIndicators: fc.option(fc.record({ scoreAvailableInd: fc.constantFrom(true, false, "Y", "N", 1, 0) })),
        satRegId: fc.option(fc.string()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(rec, { minLength: 1, maxLength: 8 }), (scores) => {
        const { events, logs } = processScores(scores as ScoreRecord[], ctx);
        expect(events.length + logs.length).toBeLessThanOrEqual(scores.length);
        for (const e of events) {
          expect(e.asmtEventId).not.toBe("");
          expect(["sat", "psat"]).toContain(e.family);
          expect(e.adminTypeCode.indexOf(e.adminType + "-")).toBe(0);
        }
      }),
    );
  });

  it('"After score tracking, score data in the data layer is reset": the reset push', () => {
    expect(SCORE_DATA_RESET).toEqual({ scores: null });
  });
});

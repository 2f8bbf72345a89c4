import type { LogLevel } from "../../core/types";
import { ASMT_EVENT_ID_NOT_FOUND, LATEST_SCORE_NOT_AVAILABLE, NO_SCORES_FOUND, NOT_ON_SCORE_VIEW_PAGE, UNRECOGNIZED_SCORE_VIEW } from "../../core/messages";
import { toYyyymmdd } from "../sat-funnel/dates";
import type { ScoreViewPageType } from "./page-type";

/** The admin_event of a score record. */
export interface AdminEvent {
  asmt_event_id?: string | number | null;
  event_start_dt?: string | null;
  asmt_family_cd?: string | number | null;
  event_title?: string | null;
  admin_yyyymm?: string | number | null;
  asmt_id?: string | number | null;
}

/** A score record as the score pages put it in the data layer (spec section 3). */
export interface ScoreRecord {
  admin_event?: AdminEvent | null;
  assessmentIndicators?: { scoreAvailableInd?: unknown } | null;
  satRegId?: string | null;
}

export type ScoreFamily = "sat" | "psat";

/** registrantType, fwStatus and scoreBand of a score view are always 'not-avail'. */
export const NOT_AVAIL = "not-avail";

/** Events before this admin month (March 2023) get the legacy registration id and the PSAT legacy dedupe key. */
export const LEGACY_BEFORE = "202303";

/**
 * "After score tracking, score data in the data layer is reset": the wiring
 * pushes this once a batch has been processed (key name: placeholder to confirm).
 */
export const SCORE_DATA_RESET = { scores: null } as const;

export interface ScoreViewEvent {
  /** Which events it counts (analyticsVariables.scoreViews.events: section 9's SAT 24 and 118, PSAT 88 and 119). */
  family: ScoreFamily;
  pageType: ScoreViewPageType;
  asmtEventId: string;
  /** type-yyyymm-assessmentId */
  adminTypeCode: string;
  deduper: string;
  adminType: string;
  /** yyyymmdd of event_start_dt */
  adminDate: string;
  registrantType: typeof NOT_AVAIL;
  fwStatus: typeof NOT_AVAIL;
  scoreBand: typeof NOT_AVAIL;
  /** Only for events before March 2023: satRegId uppercased. */
  legacyRegId?: string;
}

export interface ScoreLog {
  level: LogLevel;
  message: string;
}

/** Admin season: months before June are "s", June onwards "f" (yyyymm or yyyymmdd). */
export function adminSeason(yyyymm: string): "s" | "f" {
  return +yyyymm.slice(4, 6) < 6 ? "s" : "f";
}

/** Contract suffix: "-c" when the title carries the Contract marker, else "-t". */
export function contractSuffix(title: string): "-c" | "-t" {
  return /contract/i.test(title) ? "-c" : "-t";
}

/** The PSAT variant in an event title: PSAT/NMSQT, PSAT 10, PSAT 8/9; null for anything else. */
export function psatVariant(title: string): "psat-nmsqt" | "psat-10" | "psat-89" | null {
  return /psat\s*\/\s*nmsqt/i.test(title)
    ? "psat-nmsqt"
    : /psat\s*10(?!\d)/i.test(title)
      ? "psat-10"
      : /psat\s*8\s*\/\s*9(?!\d)/i.test(title)
        ? "psat-89"
        : null;
}

/**
 * Family and admin type of a score: family 1 SAT ("sat", "sat-school-day"
 * from the title), 2 SAT Subject Test ("sat-subject-test", tracked with the
 * SAT events), 3 PSAT (variant plus contract suffix, e.g. "psat-nmsqt-t").
 * `base` is the admin type without the contract suffix. Null: unrecognized.
 */
export function scoreAdminType(familyCd: unknown, title: unknown): { family: ScoreFamily; adminType: string; base: string } | null {
  const t = title == null ? "" : String(title);
  const f = String(familyCd);
  if (f === "1" || f === "2") {
    const type = f === "2" ? "sat-subject-test" : /school\s*day/i.test(t) ? "sat-school-day" : "sat";
    return { family: "sat", adminType: type, base: type };
  }
  const variant = f === "3" ? psatVariant(t) : null;
  return variant ? { family: "psat", adminType: variant + contractSuffix(t), base: variant } : null;
}

/** The score's admin month yyyymm: admin_yyyymm, else from event_start_dt; "" when neither is a date. */
export function scoreYyyymm(event: AdminEvent): string {
  const m = String(event.admin_yyyymm == null ? "" : event.admin_yyyymm);
  return /^\d{4}(0[1-9]|1[0-2])$/.test(m) ? m : toYyyymmdd(event.event_start_dt).slice(0, 6);
}

/** Whether an event of this month is before March 2023 (an unknown month is not). */
export function isLegacyEvent(yyyymm: string): boolean {
  return yyyymm !== "" && yyyymm < LEGACY_BEFORE;
}

/** Legacy registration id: only for events before March 2023, uppercased. */
export function legacyRegId(satRegId: unknown, yyyymm: string): string | undefined {
  return isLegacyEvent(yyyymm) && satRegId ? String(satRegId).toUpperCase() : undefined;
}

/** PSAT legacy dedupe key (events before March 2023): variant-yyyy plus season, e.g. "psat-nmsqt-2022f". */
export function psatLegacyKey(variant: string, yyyymm: string): string | undefined {
  return isLegacyEvent(yyyymm) ? variant + "-" + yyyymm.slice(0, 4) + adminSeason(yyyymm) : undefined;
}

/** Whether scoreAvailableInd says the score is available (true, 1, "Y", "yes", "true", "1"). */
export function isScoreAvailable(indicator: unknown): boolean {
  return indicator === true || indicator === 1 || /^(y|yes|true|1)$/i.test(String(indicator));
}

/**
 * The score views to track on this page, and what to log. In order, per
 * score: an available score (else info 'Latest score not available'), an
 * asmt_event_id (else warn 'admin_event.asmt_event_id not found for this
 * score'), a recognized family/title (else warn 'Unrecognized Score View
 * found (not tracked)'). A score whose family and deduper were already
 * tracked in this batch is skipped. No page type: warn 'Not on a page where
 * we expect to track SAT/PSAT Score Views'; no scores: info 'No scores found
 * to process/track'.
 *
 * deduper: events before March 2023 use the legacy key (PSAT: psatLegacyKey;
 * SAT: the legacy registration id, when there is one), otherwise the
 * asmt_event_id.
 */
export function processScores(
  scores: readonly ScoreRecord[] | null | undefined,
  context: { pageType: ScoreViewPageType | null },
): { events: ScoreViewEvent[]; logs: ScoreLog[] } {
  const events: ScoreViewEvent[] = [];
  const logs: ScoreLog[] = [];
  const log = (level: LogLevel, message: string) => logs.push({ level, message });
  const pageType = context.pageType;
  if (!pageType) log("warn", NOT_ON_SCORE_VIEW_PAGE);
  else if (!scores || !scores.length) log("info", NO_SCORES_FOUND);
  else {
    const seen: string[] = [];
    for (const score of scores) {
      const ev: AdminEvent = (score && score.admin_event) || {};
      const id = ev.asmt_event_id == null ? "" : String(ev.asmt_event_id).trim();
      const kind = scoreAdminType(ev.asmt_family_cd, ev.event_title);
      if (!isScoreAvailable(score && score.assessmentIndicators && score.assessmentIndicators.scoreAvailableInd)) log("info", LATEST_SCORE_NOT_AVAILABLE);
      else if (!id) log("warn", ASMT_EVENT_ID_NOT_FOUND);
      else if (!kind) log("warn", UNRECOGNIZED_SCORE_VIEW);
      else {
        const yyyymm = scoreYyyymm(ev);
        const regId = legacyRegId(score.satRegId, yyyymm);
        const deduper = (kind.family === "psat" ? psatLegacyKey(kind.base, yyyymm) : regId) || id;
        if (seen.indexOf(kind.family + deduper) >= 0) continue;
        seen.push(kind.family + deduper);
        const event: ScoreViewEvent = {
          family: kind.family,
          pageType,
          asmtEventId: id,
          adminTypeCode: kind.adminType + "-" + yyyymm + "-" + (ev.asmt_id == null ? "" : ev.asmt_id),
          deduper,
          adminType: kind.adminType,
          adminDate: toYyyymmdd(ev.event_start_dt),
          registrantType: NOT_AVAIL,
          fwStatus: NOT_AVAIL,
          scoreBand: NOT_AVAIL,
        };
        if (regId) event.legacyRegId = regId;
        events.push(event);
      }
    }
  }
  return { events, logs };
}

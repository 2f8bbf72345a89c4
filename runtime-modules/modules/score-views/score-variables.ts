import type { ScoreViewEvent } from "./scores";

/**
 * The analytics variables of one SAT/PSAT score view (docs/modules.md). The
 * events are section 9's (SAT 24 and 118, PSAT 88 and 119); the second is
 * serialized with the deduper ("event118:5501") so a score is counted once.
 * The eVar/prop numbers are placeholders to confirm with the analytics team.
 */
export function scoreViewVariables(view: ScoreViewEvent): Record<string, string> {
  const vars: Record<string, string> = { events: view.events[0] + "," + view.events[1] + ":" + view.deduper, prop60: view.pageType };
  // eVar60-67: admin type code, assessment event id, admin type, admin date, registrantType, fwStatus, scoreBand, legacy registration id.
  [view.adminTypeCode, view.asmtEventId, view.adminType, view.adminDate, view.registrantType, view.fwStatus, view.scoreBand, view.legacyRegId].forEach(
    (value, i) => {
      if (value) vars["eVar" + (60 + i)] = value;
    },
  );
  return vars;
}

/** The interaction name of a score view: "score view:sat:sat-202410-99". */
export function scoreViewName(view: ScoreViewEvent): string {
  return "score view:" + view.family + ":" + view.adminTypeCode;
}

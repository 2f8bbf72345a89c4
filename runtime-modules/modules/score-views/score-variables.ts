import type { ScoreViewEvent } from "./scores";
import type { AnalyticsVariables } from "../../../generator/config/schemas/variables.js";

export type ScoreViewNames = AnalyticsVariables["scoreViews"];

/**
 * The analytics variables of one SAT/PSAT score view (docs/modules.md). The
 * numbers are the catalogue's (analyticsVariables.scoreViews in
 * sites/_org.yaml): the events are section 9's (SAT 24 and 118, PSAT 88 and
 * 119); the second is serialized with the deduper (event118:5501 for deduper 5501) so a
 * score is counted once.
 */
export function scoreViewVariables(view: ScoreViewEvent, names: ScoreViewNames): Record<string, string> {
  const events = names.events[view.family];
  const vars: Record<string, string> = { events: events[0] + "," + events[1] + ":" + view.deduper, [names.pageType]: view.pageType };
  for (const field of Object.keys(names.variables) as Array<keyof ScoreViewNames["variables"]>) if (view[field]) vars[names.variables[field]] = view[field]!;
  return vars;
}

/** The interaction name of a score view: "score view:sat:sat-202410-99". */
export function scoreViewName(view: ScoreViewEvent): string {
  return "score view:" + view.family + ":" + view.adminTypeCode;
}

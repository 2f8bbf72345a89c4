import type { ScoreViewsModuleConfig } from "../../../generator/config/schemas/feature-modules.js";
import type { ModuleInstance, ModuleServices } from "../../core/types";
import { moduleEventListener } from "../../core/module-events";
import { currentPath } from "../sat-funnel/page-path";
import { scoreViewPageType, type ScoreViewPageType } from "./page-type";
import { scoreViewName, scoreViewVariables } from "./score-variables";
import { processScores, type ScoreRecord } from "./scores";

/** The interaction type of a score view; also the module's marker in registry.ts. */
export const SCORE_VIEW_EVENT_TYPE = "kiwi.scoreView";
/** The data-layer event the score pages push: `{ event: "score-view", scores: [...] }`. */
export const SCORE_VIEW_PUSH = "score-view";

const MODULE = "scoreViews";

/**
 * SAT/PSAT score views (spec sections 2, 3, 5, 8, 9). Listens for
 * `score-view` pushes; on a page where score views are tracked (the page
 * type of config.site: hub page code, score-report path, registration flow
 * or dashboard) each available, recognised score is sent once as a
 * `kiwi.scoreView` interaction (events 24/118 for SAT, 88/119 for PSAT, the
 * second serialized with the deduper), the rest is logged with the
 * catalogue's messages, and the score data in the data layer is then reset
 * (`{ scores: null }`). The hub's page code is the push's `pageCode`, else
 * `pageCode` in the data layer.
 *
 * Commands: `track()` processes the `scores` in the data layer now (returns
 * how many score views were sent); `pageType()` is this page's score-view
 * page type or null.
 */
export function createScoreViews(services: ModuleServices<ScoreViewsModuleConfig>): ModuleInstance {
  const { config, log, dataLayer, analytics } = services;
  // The variable numbers (analyticsVariables.scoreViews in sites/_org.yaml; kept while the module is enabled).
  const names = services.bundle.analyticsVariables.scoreViews!;

  function pageType(pageCode?: unknown): ScoreViewPageType | null {
    const code = pageCode == null || pageCode === "" ? dataLayer.get("pageCode") : pageCode;
    return scoreViewPageType(config, currentPath(services.win, services.page.path), code == null ? undefined : String(code));
  }

  function track(scores: unknown, pageCode?: unknown): number {
    const list = Array.isArray(scores) ? (scores as ScoreRecord[]) : null;
    const type = pageType(pageCode);
    const result = processScores(list, { pageType: type });
    for (const entry of result.logs) log[entry.level](entry.message);
    for (const view of result.events)
      analytics.event({ name: scoreViewName(view), eventType: SCORE_VIEW_EVENT_TYPE, linkType: "other", variables: scoreViewVariables(view, names) });
    // "After score tracking, score data in the data layer is reset."
    if (type && list && list.length) dataLayer.push({ scores: null });
    return result.events.length;
  }

  dataLayer.on(moduleEventListener(log, MODULE, { [SCORE_VIEW_PUSH]: (push) => void track(push.scores, push.pageCode) }));

  return {
    commands: {
      track: () => track(dataLayer.get("scores")),
      pageType: () => pageType(),
    },
  };
}

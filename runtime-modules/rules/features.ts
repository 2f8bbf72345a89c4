import * as actions from "./actions";
import * as conditions from "./conditions";
import * as events from "./events";
import * as dataElements from "./data-elements";
import type { ActionTable } from "./actions";
import type { ConditionTable } from "./conditions";
import type { EventTable } from "./events";
import { configOverrides, datastreamOverride, personalization, thirdPartyCookies } from "../edge/features";
import type { EdgeFeatures } from "../edge/features";
import { createSampling } from "../identity/sampling";
import { fetchCredential, type CredentialFeature } from "../identity/credentials";

/**
 * The rule features a bundle carries: the condition, action and event-source
 * functions its rules use, by type. A production bundle's core gets only
 * those: the generated core entry (generator/bundle/features.ts, entry.ts)
 * imports each used type's function, exported under the type's name from
 * conditions.ts, actions.ts or events.ts, and hands boot the table; rollup
 * leaves the others out.
 */
export interface RuleFeatures {
  conditions: ConditionTable;
  actions: ActionTable;
  events: EventTable;
  /** The Edge client's paths the bundle's config turns on (edge/features.ts); none without it. */
  edge?: EdgeFeatures;
  /** Data-element options with code of their own: `lists` (unique, sort, reduce), only where a data element uses one. */
  elements?: { lists?: dataElements.Lists };
  /** The sampling service (identity/sampling.ts): only where an enabled tag is sampled (generator/bundle/features.ts); boot creates services.sampling from it. */
  sampling?: { createSampling: typeof createSampling };
  /** The credential request and fetch (identity/credentials.ts): only where the environment has a credential service (serviceUrl); boot hands it to the identity. */
  credentials?: CredentialFeature;
}

/**
 * Every feature (for tests and the typed entries; never imported by boot, so
 * never bundled). `Required<…>` makes a type of the schema without its function
 * a compile error: a new condition, action or event source is added here too.
 */
export function allRuleFeatures(): {
  conditions: Required<ConditionTable>;
  actions: Required<ActionTable>;
  events: Required<EventTable>;
  edge: Required<EdgeFeatures>;
  elements: { lists: dataElements.Lists };
  sampling: { createSampling: typeof createSampling };
  credentials: CredentialFeature;
} {
  return {
    conditions: {
      host: conditions.host,
      path: conditions.path,
      query: conditions.query,
      cookie: conditions.cookie,
      dataElement: conditions.dataElement,
      dateAge: conditions.dateAge,
      consent: conditions.consent,
      sampling: conditions.sampling,
      loggedIn: conditions.loggedIn,
      env: conditions.env,
      not: conditions.not,
      allOf: conditions.allOf,
      anyOf: conditions.anyOf,
    },
    actions: {
      sendPageView: actions.sendPageView,
      sendEvent: actions.sendEvent,
      setVariables: actions.setVariables,
      loadScript: actions.loadScript,
      pixel: actions.pixel,
      pushDataLayer: actions.pushDataLayer,
      command: actions.command,
      log: actions.log,
      sessionTimer: actions.sessionTimer,
      tagStatus: actions.tagStatus,
      trafficTouch: actions.trafficTouch,
    },
    events: {
      domReady: events.domReady,
      windowLoaded: events.windowLoaded,
      click: events.click,
      routeChange: events.routeChange,
      elementExists: events.elementExists,
      timer: events.timer,
      noPush: events.noPush,
    },
    edge: { thirdPartyCookies, datastreamOverride, configOverrides, personalization },
    elements: { lists: dataElements.lists },
    sampling: { createSampling },
    credentials: { fetchCredential },
  };
}

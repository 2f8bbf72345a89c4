import { tagAllowed, type EdgeContext } from "./context";
import type { Obj } from "./protocol";
import type { Job } from "./request";
import { contextXdm } from "./protocol";
import { VERSION } from "../core/version";
import { isObject } from "../core/is-object";

/** The gate's tag code of personalisation (a performance tag: spec section 9, "Performance tags (analytics, personalization, monitoring)"). */
export const PERSONALIZATION_TAG = "personalization";
/** The data-layer event a decision is applied as (docs/events.md). */
export const DECISION_EVENT = "personalization-decision";
/** alloy's display notification event type. */
export const DISPLAY_EVENT = "decisioning.propositionDisplay";
const PAGE_VIEW = "web.webpagedetails.pageViews";
/** The item schemas alloy asks for with decision scopes (2.30: its createQueryDetails without the page-wide scope). */
const SCHEMAS = "default-content-item html-content-item json-content-item redirect-item ruleset-item message/in-app message/content-card";

/** The key of the displayed-proposition history "personalization storage on" keeps in localStorage (our format, docs/edge.md). */
export function storageKey(orgId: string): string {
  return "sitetags.personalization." + orgId.replace("@", "_");
}

/**
 * Personalisation on the Edge protocol (spec section 7: "proposition fetch
 * (scope capture_ddl)"; section 9: "personalization storage on"), an Edge
 * client path only bundles whose `analytics.personalization` is set carry
 * (features.ts). For one request: when it is a page view and the gate allows
 * the performance tag `personalization` (cb-disable-personalization too),
 * its event asks for the configured decision scopes, as alloy does
 * (`events[0].query.personalization {schemas, decisionScopes}`); the answer's
 * `personalization:decisions` propositions for those scopes are applied,
 * each as a data-layer push `personalization-decision` (scope, proposition
 * id, the items' content) that YAML rules and data elements read, then their
 * display is notified in one `decisioning.propositionDisplay` event
 * (`_experience.decisioning.propositions [{id, scope, scopeDetails}]`,
 * `propositionEventType {display: 1}`), and with storage on each display is
 * counted in localStorage, which is touched only then (storage off: the
 * history is removed after the answer). Called by the request (request.ts) before it is
 * sent: it edits the job's payload and takes the answer through its done().
 */
export function personalization(ctx: EdgeContext, job: Job, request: (job: Job, resolve: (status?: number) => void) => void): void {
  const o = ctx.config.analytics.personalization;
  const event = job.payload.events?.[0];
  if (!o || event?.xdm?.eventType !== PAGE_VIEW) return;
  const { win, monitor } = ctx;
  if (!tagAllowed(ctx, PERSONALIZATION_TAG, "performance")) return;
  event.query = { personalization: { schemas: SCHEMAS.split(" ").map((s) => "https://ns.adobe.com/personalization/" + s), decisionScopes: o.decisionScopes } };
  const done = job.done;
  job.done = (status, answer) => {
    done(status, answer);
    if (!status || !answer) return;
    // localStorage only now, after the answer, and with storage on only when a proposition was shown: a first visit's
    // page view touches none (issue #21: the first access of a page blocks for milliseconds).
    const key = storageKey(ctx.config.analytics.orgId);
    if (!o.storage) ctx.storage()?.removeItem(key);
    const shown: Obj[] = [];
    for (const handle of answer.handle || [])
      if (handle?.type === "personalization:decisions")
        for (const p of (handle.payload || []) as Obj[]) {
          if (!isObject(p) || !p.id || o.decisionScopes.indexOf(p.scope as string) < 0) continue;
          const content = (Array.isArray(p.items) ? p.items : []).map((i: Obj) => i && i.data && i.data.content).filter((c: unknown) => c !== undefined);
          const layer = (win as unknown as Record<string, { push?: (item: Obj) => void } | undefined>)[ctx.config.dataLayerName];
          layer?.push?.({ event: DECISION_EVENT, scope: p.scope, propositionId: p.id, content });
          shown.push({ id: p.id, scope: p.scope, scopeDetails: p.scopeDetails });
        }
    if (!shown.length) return;
    monitor.emit("personalization", { propositions: shown.map((s) => s.id) });
    const storage = o.storage && ctx.storage();
    if (storage) {
      let history: Obj;
      try {
        history = JSON.parse(storage.getItem(key) || "{}") || {};
      } catch (e) {
        history = {};
      }
      for (const s of shown) history[s.id] = { count: (history[s.id]?.count || 0) + 1, last: Date.now() };
      storage.setItem(key, JSON.stringify(history));
    }
    const xdm = contextXdm(win, ctx.page(), new Date(), VERSION, ctx.storage);
    xdm.eventType = DISPLAY_EVENT;
    xdm._experience = { decisioning: { propositions: shown, propositionEventType: { display: 1 } } };
    request({ action: "interact", payload: { events: [{ xdm }] }, created: Date.now(), done() {} }, () => {});
  };
}

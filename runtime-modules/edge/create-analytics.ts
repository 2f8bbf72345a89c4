import type { Analytics } from "../core/types";
import type { Obj } from "./protocol";
import { VERSION } from "../core/version";
import {
  BEFORE_SEND_HOOK_FAILED,
  CONSENT_DECLINED,
  CONSENT_PENDING,
  EVENT_CANCELED,
  IDENTITY_COOKIE_NOT_FOUND,
  NETWORK_REQUEST_FAILED,
} from "../core/messages";
import { errorText } from "../core/log";
import { cleanOverrides, contextXdm } from "./protocol";
import { createEdgeContext, type AnalyticsDeps } from "./context";
import { isObject } from "../core/is-object";
import { mergeInto } from "../core/merge";
import { createTransport } from "./transport";
import { fnv1a32Hex } from "./protocol";
import { createRequests, type Job } from "./request";
import { createSendQueue } from "./send-queue";

export { DESTINATION_COOKIES_TAG } from "./request";
export type { AnalyticsDeps } from "./context";

type SdkConsent = "pending" | "in" | "out";

/** The Edge client: the page's Analytics, plus start() (boot calls it once): listeners and the first set-consent. */
export interface EdgeClient extends Analytics {
  start(): void;
}

/**
 * The page hook that may change or cancel an event before it is sent
 * (alloy's onBeforeEventSend): gets `{ xdm, data }`, may edit or replace
 * both, returns false to cancel.
 */
export const BEFORE_SEND_HOOK = "sitetagsOnBeforeEventSend";

/**
 * The Edge client, wire-compatible with @adobe/alloy (shared/edge-protocol.md,
 * docs/edge.md), composed as alloy's core is: the transport (transport.ts),
 * the requests with their retries (request.ts), with the consent sync, the
 * identity gate and the page lifecycle here (their few
 * lines cost fewer bytes in this closure than as factories of their own,
 * issue #21). Building it sends nothing; start() does. Never throws; every
 * promise resolves (with the HTTP status on success, undefined otherwise).
 */
export function createAnalytics(deps: AnalyticsDeps): EdgeClient {
  const ctx = createEdgeContext(deps);
  const { win, log } = ctx;
  const pageVariables: Record<string, string> = {};
  /** XDM fields of every record (setVariables' xdm: the visitor's identity). */
  let pageXdm: Obj = {};
  /** Hit-scoped variables set by setVariables (success events, products): on the next beacon only, so an order counts once. */
  let onceVariables: Record<string, string> = {};

  /** Retries waiting for their delay (request.ts): run at once when the page is hidden. */
  const retrying: Array<() => void> = [];
  const queue = createSendQueue(() => ctx.leaving);
  const send = createRequests(ctx, createTransport(win), queue, retrying);
  // The identity gate (alloy's): only one request goes out before the visitor has an identity cookie; the rest wait for its answer.
  const hasIdentity = () => !!ctx.readJar()[ctx.identity];
  let pending = false;
  const held: Array<() => void> = [];
  const release = () => held.splice(0).forEach((f) => f());
  function gate(job: Job): void {
    if (ctx.leaving || hasIdentity()) {
      send(job);
    } else if (pending) {
      held.push(() => gate(job));
    } else {
      pending = true;
      send(job).then((status) => {
        pending = false;
        // As alloy: only a successful answer that set no identity cookie is worth the warning (a failure logged its own).
        if (status && !hasIdentity()) log.warn(IDENTITY_COOKIE_NOT_FOUND);
        release();
      });
    }
  }
  // The SDK consent and its sync with the edge (alloy's consent component): events wait while it is pending or a
  // set-consent is out; one set-consent at a time, not sent again when its hash is stored.
  const { identity } = ctx;
  const consentCookie = ctx.prefix + "consent";
  /** Events waiting for SDK consent, or for the set-consent request in flight. */
  const waiting: Job[] = [];
  let busy = false;
  /** The consent changed again while a set-consent was out. */
  let again = false;
  let sent: SdkConsent = "pending";
  let pendingLogged = false;
  const key = "com.adobe.alloy." + ctx.prefix.slice(7, -1) + ".consentHashes.Adobe.1.0";
  /**
   * The hash of the last consent the edge answered, not yet in storage: written when the page is hidden or left
   * (hidden()), or at once on a hidden page. A first visit's first localStorage access blocks the main thread for
   * milliseconds (edge-profile, issue #21); the hash is only read by a later page, so this page need not pay it.
   */
  let unstored: string | undefined;

  function store(): void {
    const hash = unstored;
    unstored = undefined;
    try {
      if (hash) ctx.storage()?.setItem(key, hash);
    } catch (e) {
      // Storage full or blocked: the consent is sent again next time.
    }
  }

  /**
   * SDK consent: the consent machine's; while it is pending and the banner has
   * not reported yet, the stored kndctr consent cookie when the identity
   * cookie exists (a returning visitor's page view need not wait for the
   * banner). Once the banner has reported groups, they alone decide: a stale
   * "in" cookie never sends while the banner denies performance.
   */
  function sdk(): SdkConsent {
    const machine = ctx.consent.sdk();
    if (machine !== "pending" || ctx.consent.reported()) return machine;
    const c = ctx.readJar();
    const stored = c[identity] && /general=(in|out)/.exec(c[consentCookie] || "");
    return stored ? (stored[1] as SdkConsent) : "pending";
  }

  function submit(job: Job): void {
    const consent = sdk();
    if (consent === "out") {
      log.warn(CONSENT_DECLINED);
      job.done();
    } else if (consent === "pending" || (busy && !ctx.leaving)) {
      if (consent === "pending" && !pendingLogged) log.info(CONSENT_PENDING);
      pendingLogged = consent === "pending";
      waiting.push(job);
    } else if (!beforeSend(job.payload.events[0])) {
      job.done();
    } else {
      gate(job);
    }
  }

  /** Queued events go on in, are dropped (and counted) on out. */
  function drain(consent: SdkConsent): void {
    const jobs = waiting.splice(0);
    if (consent === "out" && jobs.length) log.warn(CONSENT_DECLINED, { events: jobs.length });
    for (const job of jobs) consent === "in" ? submit(job) : job.done();
  }

  /** After a consent change: queued events go on in, are dropped on out. */
  function releaseWaiting(): void {
    const consent = sdk();
    if (!busy && consent !== "pending") drain(consent);
  }

  /** The visitor's choice changed: privacy/set-consent unless the same consent was already sent (hash in localStorage). */
  function changed(): void {
    // One set-consent at a time (as alloy queues them): a change while one is out is sent after its answer, if still a change.
    if (busy) return void (again = true);
    const consent = ctx.consent.sdk();
    if (consent === "pending" || consent === sent) return releaseWaiting();
    sent = consent;
    const value = { general: consent };
    const hash = fnv1a32Hex(JSON.stringify({ value }));
    // A hash only stands while both cookies exist: without them (a first visit) storage is not touched (issue #21).
    const c = ctx.readJar();
    const stands = c[identity] && c[consentCookie];
    if (stands && (unstored || ctx.storage()?.getItem(key)) === hash) return releaseWaiting();
    busy = true;
    gate({
      action: "privacy/set-consent",
      payload: { consent: [{ standard: "Adobe", version: "1.0", value }] },
      created: Date.now(),
      done(status) {
        if (status) unstored = hash;
        if (ctx.hidden) store();
        busy = false;
        if (again) {
          again = false;
          return changed();
        }
        // A task later: a page being unloaded aborts the request, and its pagehide handler must see the queue first.
        ctx.win.setTimeout(releaseWaiting, 0);
      },
    });
  }

  /** The page unloads: waiting events go on in, are dropped on out, are reported on pending. */
  function leaveConsent(): void {
    const consent = sdk();
    // On out: declined while set-consent(out) was still out, these were never to be sent.
    if (consent !== "pending") drain(consent);
    else if (waiting.length) log.info(CONSENT_PENDING, { events: waiting.length });
  }
  const doc = win.document;
  // The page lifecycle: ctx.hidden (another tab, or unloading) and ctx.leaving (pagehide: unloaded or cached).
  function visibility(e: Event): void {
    ctx.hidden = e.type === "pagehide" || doc.visibilityState === "hidden";
    if (e.type === "pagehide") ctx.leaving = true;
    else if (!ctx.hidden) ctx.leaving = false;
    if (!ctx.hidden) return;
    // Hidden: scheduled retries go now (by sendBeacon once the visitor has an identity). Unloading (pagehide): events
    // waiting for identity or set-consent go too; merely hidden they wait for those answers, which still arrive, as alloy's do.
    if (ctx.leaving) {
      // What waits in the send queue goes first, by beacon once the visitor has an identity.
      queue.flush();
      leaveConsent();
      release();
    }
    retrying.slice().forEach((f) => f());
    store();
  }

  /** Runs the page's onBeforeEventSend hook; false when it cancels (or throws). Empty xdm/data are dropped. */
  function beforeSend(event: Obj): boolean {
    const hook = (win as unknown as Record<string, unknown>)[BEFORE_SEND_HOOK];
    if (typeof hook === "function") {
      const content = { xdm: event.xdm || {}, data: event.data || {} };
      try {
        if (hook(content) === false) {
          log.info(EVENT_CANCELED);
          return false;
        }
      } catch (e) {
        log.error(BEFORE_SEND_HOOK_FAILED, errorText(e));
        return false;
      }
      event.xdm = content.xdm;
      event.data = content.data;
    }
    for (const k of ["xdm", "data"]) if (!isObject(event[k]) || !Object.keys(event[k]).length) delete event[k];
    return true;
  }

  function track(ours: Obj, user: Obj | undefined, variables: Record<string, string> | undefined, contextData?: Obj): Promise<unknown> {
    return new Promise((resolve) => {
      const xdm = mergeInto(mergeInto(mergeInto(contextXdm(win, deps.page(), new Date(), VERSION, ctx.storage), pageXdm), ours), user);
      const own = variables || {};
      const once = onceVariables;
      onceVariables = {};
      const analytics: Obj = { ...pageVariables, ...once };
      for (const k in own) {
        const v = own[k];
        // An empty value (a data element without one) leaves the variable out of this beacon, as alloy and AppMeasurement
        // leave an empty variable out: never sent as "", nor the page's older value; the hit's events and products stay.
        if (v == null || v === "") once[k] || delete analytics[k];
        // Events set for this beacon and the call's own add up ("purchase,event61").
        else analytics[k] = k === "events" && once.events && once.events !== v ? once.events + "," + v : v;
      }
      const event: Obj = { xdm, data: { __adobe: { analytics } } };
      if (contextData) analytics.contextData = contextData;
      if (!Object.keys(analytics).length) delete event.data;
      const job: Job = { action: "interact", payload: { events: [event] }, created: Date.now(), done: resolve };
      submit(job);
    }).catch((e) => log.warn(NETWORK_REQUEST_FAILED, errorText(e)));
  }

  return {
    start() {
      // Capture phase: before the page's own handlers, which may send events on their way out.
      win.addEventListener("pagehide", visibility, true);
      win.addEventListener("pageshow", visibility, true);
      doc.addEventListener("visibilitychange", visibility, true);
      // A consent hash only stands while both the identity and the consent cookie exist (as in alloy), and is read only
      // then (changed). alloy drops stale hashes here when they do not; that would touch storage on a first visit
      // (issue #21), and is not needed: the cookies come into being only from an answer to a set-consent that
      // this page sent (without them a hash is never trusted), and that answer writes the fresh hash over the stale one.
      ctx.consent.onChange(changed);
      changed();
    },
    pageView({ name, variables, xdm }) {
      return track({ eventType: "web.webpagedetails.pageViews", web: { webPageDetails: { name: name || deps.pageName() } } }, xdm, variables);
    },
    event({ name, eventType, linkType, url, variables, xdm, activityMap: m }) {
      const interaction: Obj = { name, type: linkType, URL: url || deps.page().href, linkClicks: { value: 1 } };
      // A click's Activity Map data where alloy's click collection puts it (region in the xdm too).
      if (m) interaction.region = m.region;
      const context = m && { a: { activitymap: { page: m.page || deps.pageName(), link: m.link, region: m.region, pageIDType: 1 } } };
      return track({ eventType, web: { webInteraction: interaction } }, xdm, variables, context);
    },
    setVariables(variables, xdm) {
      for (const k in variables) {
        if (variables[k] == null || variables[k] === "") delete pageVariables[k];
        // Several rules' events (or products) for the same beacon add up: each flag of a push its own success event.
        else if (k === "events" || k === "products") onceVariables[k] = onceVariables[k] ? onceVariables[k] + "," + variables[k] : variables[k];
        else pageVariables[k] = variables[k];
      }
      // An empty value (undefined, null, "", an object left empty) removes its field.
      // No xdm (most setVariables actions): the page's xdm stays as it is, already clean.
      if (xdm !== undefined) pageXdm = cleanOverrides(mergeInto(pageXdm, xdm)) || {};
    },
  };
}

import type { BundleConfig } from "../../generator/config/bundle-config.js";
import type { Analytics, ConsentGate, Cookies, Logger, Monitor, PageInfo } from "../core/types";
import type { Obj } from "./protocol";
import { VERSION } from "../core/version";
import { BEFORE_SEND_HOOK_FAILED, CONSENT_DECLINED, CONSENT_PENDING, EVENT_CANCELED, IDENTITY_COOKIE_NOT_FOUND, NETWORK_REQUEST_FAILED } from "../core/messages";
import { errorText } from "../core/log";
import { cookieDomain } from "../core/cookies";
import { cookieWriteOptions, destinationCookieRule } from "../identity/cookie-rules";
import { uuid4 } from "./uuid";
import {
  BODY_TYPE,
  DEMDEX,
  MAX_RETRIES,
  RETRY_STATUSES,
  clampQueueTime,
  cleanOverrides,
  contextXdm,
  cookieText,
  edgeUrl,
  fnv1a32Hex,
  legacyEcid,
  linkEcid,
  readCookies,
  responseFailure,
  retryDelay,
  thirdPartyBrowser,
  utf8Length,
} from "./protocol";
import { isObject } from "../core/is-object";
import { mergeInto } from "../core/merge";

export interface AnalyticsDeps {
  config: BundleConfig;
  consent: ConsentGate;
  log: Logger;
  monitor: Monitor;
  page(): PageInfo;
  win: Window;
  /** The page name when a page view names none. */
  pageName(): string;
  /** Uniform [0, 1) for the retry jitter (default Math.random). */
  random?: () => number;
  /** Writes destination cookies (activation:push); without it they are not written. */
  cookies?: Cookies;
  /** Where document.cookie is read and written (boot's cookie jar); the document itself without it. */
  cookieJar?: { cookie: string };
}

/** The gate's tag code of destination cookies (a marketing tag: segments other tags read). */
export const DESTINATION_COOKIES_TAG = "destination-cookies";

/**
 * The page hook that may change or cancel an event before it is sent
 * (alloy's onBeforeEventSend): gets `{ xdm, data }`, may edit or replace
 * both, returns false to cancel.
 */
export const BEFORE_SEND_HOOK = "sitetagsOnBeforeEventSend";

/** One request to the edge: an event (interact/collect) or a consent change (privacy/set-consent). */
interface Job {
  action: string;
  payload: Obj;
  created: number;
  done(status?: number): void;
}

type SdkConsent = "pending" | "in" | "out";

interface Reply {
  status: number;
  text: string;
  header(name: string): string | null;
  /** Sent by sendBeacon (no answer to read: never retried). */
  beacon?: true;
}

/**
 * The Edge client, wire-compatible with @adobe/alloy (shared/edge-protocol.md,
 * docs/edge.md). Events queue while SDK consent is pending, wait for one
 * identity request before the visitor has an identity cookie, are retried on
 * 429/502/503/504, and go by sendBeacon to collect once the page is being
 * hidden. Never throws; every promise resolves (with the HTTP status on
 * success, undefined otherwise).
 */
export function createAnalytics(deps: AnalyticsDeps): Analytics {
  const { config, win, log, monitor } = deps;
  const a = config.analytics;
  const doc = win.document;
  const random = deps.random || Math.random;
  const org = a.orgId.replace("@", "_");
  const prefix = "kndctr_" + org + "_";
  const IDENTITY = prefix + "identity";
  const CONSENT = prefix + "consent";
  const AMCV = "AMCV_" + a.orgId;
  const hashPrefix = "com.adobe.alloy." + org + ".consentHashes.";
  const configId = a.datastreamOverride || a.datastreamId;
  const overrides = cleanOverrides(mergeInto({ com_adobe_analytics: { reportSuites: [a.reportSuite] } }, a.configOverrides));
  const thirdParty = !!a.thirdPartyCookies && thirdPartyBrowser(win.navigator.userAgent);
  const migrate = a.idMigration !== false;

  const pageVariables: Record<string, string> = {};
  /** Hit-scoped variables set by setVariables (success events, products): on the next beacon only, so an order counts once. */
  let onceVariables: Record<string, string> = {};
  /** The page is hidden (or unloaded): events go by sendBeacon once the visitor has an identity. */
  let hidden = false;
  /** pagehide: the page is being unloaded (or cached): nothing waits any more. */
  let leaving = false;
  /** A request without identity is out; others wait for its answer (held). */
  let identityPending = false;
  const held: Array<() => void> = [];
  /** Events waiting for SDK consent, or for the set-consent request in flight. */
  const waiting: Job[] = [];
  /** Scheduled retries, fired at once when the page is hidden. */
  const retries: Array<() => void> = [];
  let consentBusy = false;
  /** The consent changed again while a set-consent was out. */
  let consentAgain = false;
  let consentSent: SdkConsent = "pending";
  let pendingLogged = false;
  let demdexFailed = false;
  let keepaliveBytes = 0;

  const jar = deps.cookieJar || doc;
  const cookies = () => readCookies(jar.cookie);
  const hasIdentity = () => !!cookies()[IDENTITY];
  /** The ECID of the legacy cookies (s_ecid, then AMCV_{orgId}). */
  const legacy = (c: Record<string, string>) => legacyEcid(c.s_ecid || c[AMCV]);
  const apex = () => cookieDomain({ hostname: deps.page().host, protocol: win.location.protocol, apexDomain: config.apexDomain }) || "";
  const storage = (): Storage | undefined => {
    try {
      return win.localStorage;
    } catch (e) {
      return undefined;
    }
  };

  /**
   * SDK consent: the consent machine's; while it is pending and the banner has
   * not reported yet, the stored kndctr consent cookie when the identity
   * cookie exists (a returning visitor's page view need not wait for the
   * banner). Once the banner has reported groups, they alone decide: a stale
   * "in" cookie never sends while the banner denies performance.
   */
  function sdk(): SdkConsent {
    const machine = deps.consent.sdk();
    if (machine !== "pending" || deps.consent.reported()) return machine;
    const c = cookies();
    const stored = c[IDENTITY] && /general=(in|out)/.exec(c[CONSENT] || "");
    return stored ? (stored[1] as SdkConsent) : "pending";
  }

  /** Only one request goes out before the visitor has an identity cookie; the rest wait for its answer. */
  function gate(go: () => Promise<number | undefined>): void {
    if (leaving || hasIdentity()) {
      go();
    } else if (identityPending) {
      held.push(() => gate(go));
    } else {
      identityPending = true;
      go().then((status) => {
        identityPending = false;
        // As alloy: only a successful answer that set no identity cookie is worth the warning (a failure logged its own).
        if (status && !hasIdentity()) log.warn(IDENTITY_COOKIE_NOT_FOUND);
        held.splice(0).forEach((f) => f());
      });
    }
  }

  /** One attempt: sendBeacon (a 204 without answer) or fetch. Rejects on a network failure (or a browser without fetch). */
  function transmit(url: string, body: string, beacon: boolean): Promise<Reply> {
    return new Promise<Reply>((resolve) => {
      const nav = win.navigator;
      try {
        if (beacon && typeof nav.sendBeacon === "function" && nav.sendBeacon(url, new Blob([body], { type: BODY_TYPE }))) {
          return resolve({ status: 204, text: "", header: () => null, beacon: true });
        }
      } catch (e) {
        // A page's sendBeacon that throws refuses: fetch (keepalive) instead.
      }
      // keepalive: a request in flight outlives the page; browsers allow 64 KB of such bodies in flight.
      // Referer: the origin only (alloy: the full address), so that what the page address may carry (an e-mail, an id) and
      // the redaction keeps out of the body does not leave by the header; the edge reads the page from the XDM.
      const bytes = utf8Length(body);
      const keepalive = keepaliveBytes + bytes < 60000;
      if (keepalive) keepaliveBytes += bytes;
      resolve(
        win
          .fetch(url, { method: "POST", credentials: "include", cache: "no-cache", referrerPolicy: "strict-origin-when-cross-origin", headers: { "Content-Type": BODY_TYPE }, body, keepalive })
          .then((r) => r.text().then((text) => ({ status: r.status, text, header: (name: string) => r.headers.get(name) })))
          .finally(() => {
            if (keepalive) keepaliveBytes -= bytes;
          }),
      );
    });
  }

  /**
   * A cookie destination of an activation:push handle, as alloy writes it
   * (`spec {name, value, ttlDays}`), but by our cookie rules: the apex domain,
   * path /, Secure, SameSite=Lax, ttlDays or the configured default (10 days),
   * and only when the gate lets the marketing tag `destination-cookies` run.
   */
  function destination(item: Obj): void {
    const spec = item.type === "cookie" && item.spec;
    if (!isObject(spec) || typeof spec.name !== "string" || !spec.name || !deps.cookies) return;
    const d = deps.consent.decide(DESTINATION_COOKIES_TAG, "marketing");
    monitor.emit("tag", { tag: DESTINATION_COOKIES_TAG, state: d.allowed ? "allowed" : "blocked", reason: d.reason, consent: d.category, detail: d.detail });
    if (!d.allowed) return;
    const rule = destinationCookieRule(spec.name, spec.ttlDays, config.identity.cookies);
    deps.cookies.set(rule.name, spec.value == null ? "" : String(spec.value), cookieWriteOptions(rule));
  }

  /** Applies a successful answer: warnings and errors logged, state:store handles written as cookies, the ECID kept in the legacy cookie, cookie destinations written. */
  function apply(parsed: Obj | undefined): void {
    if (!parsed) return;
    for (const w of parsed.warnings || []) log.warn("The server responded with a warning:", w);
    for (const e of parsed.errors || []) log.warn("The server responded with a non-fatal error:", e);
    const domain = apex();
    const now = Date.now();
    for (const handle of parsed.handle) {
      for (const item of (handle && handle.payload) || []) {
        if (handle.type === "state:store") jar.cookie = cookieText(item.key, item.value, domain, item.maxAge, item.attrs && item.attrs.SameSite, now);
        else if (handle.type === "activation:push") destination(item);
        else if (migrate && handle.type === "identity:result" && item.namespace && item.namespace.code === "ECID" && legacy(cookies()) !== item.id) {
          jar.cookie = cookieText(AMCV, "MCMID|" + item.id, domain, config.identity.cookies.legacyIdDays * 86400, win.location.protocol === "https:" ? "None" : undefined, now);
        }
      }
    }
  }

  /**
   * Sends one job: builds URL and body once, retries with the same URL, body
   * and requestId; resolves when done with the answer's status when it
   * succeeded (undefined on a failure), never rejects.
   */
  function send(job: Job): Promise<number | undefined> {
    return new Promise<number | undefined>((resolve) => request(job, resolve)).catch((e) => {
      log.warn(NETWORK_REQUEST_FAILED, errorText(e));
      job.done();
      return undefined;
    });
  }

  function request(job: Job, resolve: (status: number | undefined) => void): void {
    const c = cookies();
    const identity = !!c[IDENTITY];
    const event = job.action === "interact";
    const requestId = uuid4(win.crypto);
    const domain = apex();
    let host = !identity && thirdParty && !demdexFailed ? DEMDEX : a.edgeDomain;
    const hint = c[prefix + "cluster"] || (c.mboxEdgeCluster && "t" + c.mboxEdgeCluster);
    const p = job.payload;
    // An adobe_mc link's ECID (at most 300 s old) first, as alloy adds it to every request; else the legacy cookies' for a visitor without identity.
    const ecid = linkEcid(win.location.search || "", win.location.hash || "", a.orgId, Date.now()) || (!identity && migrate && legacy(c));
    if (ecid) {
      const map = { ECID: [{ id: ecid }] };
      if (event) p.xdm = { identityMap: map };
      else p.identityMap = map;
    }
    p.query = { identity: { fetch: thirdParty ? ["ECID", "CORE"] : ["ECID"] } };
    const state: Obj = { domain, cookiesEnabled: true };
    if (!domain || host.slice(-domain.length) !== domain) {
      const entries = Object.keys(c)
        .filter((k) => !k.indexOf(prefix) || k === "at_qa_mode")
        .map((key) => ({ key, value: c[key] }));
      if (entries.length) state.entries = entries;
    }
    const meta: Obj = (p.meta = { state });
    if (event) meta.queueTimeMillis = clampQueueTime(Date.now() - job.created);
    if (overrides) meta.configOverrides = overrides;
    if (configId !== a.datastreamId) meta.sdkConfig = { datastream: { original: a.datastreamId } };
    const body = JSON.stringify(p);
    // Leaving the page: events by sendBeacon, to collect once the visitor has an identity (else interact, whose answer is lost).
    const url = (beacon: boolean) => edgeUrl(host, a.edgeBasePath, hint, beacon && identity ? "collect" : job.action, configId, requestId);
    // Hidden but not leaving (another tab): a visitor without identity waits for it by fetch, or each beacon would make a new ECID.
    const beaconNow = () => hidden && event && (identity || leaving);
    monitor.emit("beacon", { url: url(beaconNow()), requestId, eventType: event ? p.events[0].xdm && p.events[0].xdm.eventType : undefined, body });

    const finish = (reply?: Reply) => {
      let status: number | undefined;
      if (reply) {
        let parsed: Obj | undefined;
        try {
          parsed = reply.text ? JSON.parse(reply.text) : undefined;
        } catch (e) {
          parsed = undefined;
        }
        const failure = responseFailure(reply.status, reply.text, parsed);
        if (failure) log.warn(failure);
        else {
          status = reply.status;
          try {
            apply(parsed);
          } catch (e) {
            log.warn(failure || "The server responded with a non-fatal error:", errorText(e));
          }
        }
      }
      job.done(status);
      resolve(status);
    };
    const attempt = (n: number, beacon: boolean): void => {
      transmit(url(beacon), body, beacon).then(
        (reply) => {
          // A beacon has no answer; its fetch fallback (sendBeacon missing or refusing) has one, retried as any.
          if (reply.beacon || n >= MAX_RETRIES || RETRY_STATUSES.indexOf(reply.status) < 0) return finish(reply);
          const again = () => {
            win.clearTimeout(timer);
            retries.splice(retries.indexOf(again), 1);
            attempt(n + 1, beaconNow());
          };
          const timer = win.setTimeout(again, retryDelay(reply.header("Retry-After"), n, random, Date.now()));
          retries.push(again);
        },
        (e) => {
          // The third-party host failed (blocked): the edge domain for good, sent once more.
          if (host === DEMDEX) {
            demdexFailed = true;
            host = a.edgeDomain;
            return attempt(n, beacon);
          }
          log.warn(NETWORK_REQUEST_FAILED, errorText(e));
          finish();
        },
      );
    };
    attempt(0, beaconNow());
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

  /** An event (or a released one): dropped on out, queued on pending or while set-consent is out, else sent. */
  function submit(job: Job): void {
    const consent = sdk();
    if (consent === "out") {
      log.warn(CONSENT_DECLINED);
      job.done();
    } else if (consent === "pending" || (consentBusy && !leaving)) {
      if (consent === "pending" && !pendingLogged) log.info(CONSENT_PENDING);
      pendingLogged = consent === "pending";
      waiting.push(job);
    } else if (!beforeSend(job.payload.events[0])) {
      job.done();
    } else {
      gate(() => send(job));
    }
  }

  /** After a consent change: queued events go on in, are dropped on out. */
  function release(): void {
    const consent = sdk();
    if (consentBusy || consent === "pending") return;
    const jobs = waiting.splice(0);
    if (consent === "out" && jobs.length) log.warn(CONSENT_DECLINED, { events: jobs.length });
    for (const job of jobs) consent === "in" ? submit(job) : job.done();
  }

  /** The visitor's choice changed: privacy/set-consent unless the same consent was already sent (hash in localStorage). */
  function consentChanged(): void {
    // One set-consent at a time (as alloy queues them): a change while one is out is sent after its answer, if still a change.
    if (consentBusy) return void (consentAgain = true);
    const consent = deps.consent.sdk();
    if (consent === "pending" || consent === consentSent) return release();
    consentSent = consent;
    const value = { general: consent };
    const key = hashPrefix + "Adobe.1.0";
    const hash = fnv1a32Hex(JSON.stringify({ value }));
    const store = storage();
    if (store && store.getItem(key) === hash) return release();
    consentBusy = true;
    const job: Job = {
      action: "privacy/set-consent",
      payload: { consent: [{ standard: "Adobe", version: "1.0", value }] },
      created: Date.now(),
      done(status) {
        try {
          if (status && store) store.setItem(key, hash);
        } catch (e) {
          // Storage full or blocked: the consent is sent again next time.
        }
        consentBusy = false;
        if (consentAgain) {
          consentAgain = false;
          return consentChanged();
        }
        // A task later: a page being unloaded aborts the request, and its pagehide handler must see the queue first.
        win.setTimeout(release, 0);
      },
    };
    gate(() => send(job));
  }

  /**
   * Hidden: scheduled retries go now (by sendBeacon once the visitor has an
   * identity). Unloading (pagehide): events waiting for identity or
   * set-consent go too; merely hidden they wait for those answers, which
   * still arrive, as alloy's do.
   */
  function visibility(e: Event): void {
    hidden = e.type === "pagehide" || doc.visibilityState === "hidden";
    if (e.type === "pagehide") leaving = true;
    else if (!hidden) leaving = false;
    if (!hidden) return;
    if (leaving) {
      const consent = sdk();
      if (consent === "in") waiting.splice(0).forEach(submit);
      else if (consent === "out" && waiting.length) {
        // Declined while set-consent(out) was still out: these were never to be sent.
        log.warn(CONSENT_DECLINED, { events: waiting.length });
        waiting.splice(0).forEach((job) => job.done());
      } else if (waiting.length) log.info(CONSENT_PENDING, { events: waiting.length });
      held.splice(0).forEach((f) => f());
    }
    retries.slice().forEach((f) => f());
  }

  // A consent hash only stands while both the identity and the consent cookie exist (as in alloy).
  const start = cookies();
  const store = storage();
  if (store && !(start[IDENTITY] && start[CONSENT])) {
    try {
      for (const k of Object.keys(store)) if (!k.indexOf(hashPrefix)) store.removeItem(k);
    } catch (e) {
      // Storage blocked.
    }
  }
  // Capture phase: before the page's own handlers, which may send events on their way out.
  win.addEventListener("pagehide", visibility, true);
  win.addEventListener("pageshow", visibility, true);
  doc.addEventListener("visibilitychange", visibility, true);
  deps.consent.onChange(consentChanged);
  consentChanged();

  function track(ours: Obj, user: Obj | undefined, variables: Record<string, string> | undefined, contextData?: Obj): Promise<unknown> {
    return new Promise((resolve) => {
      const xdm = mergeInto(mergeInto(contextXdm(win, deps.page(), new Date(), VERSION, storage()), ours), user);
      const own = variables || {};
      const once = onceVariables;
      onceVariables = {};
      const analytics: Record<string, string> = { ...pageVariables, ...once, ...own };
      // Events set for this beacon and the call's own add up ("purchase,event61").
      if (once.events && own.events && once.events !== own.events) analytics.events = once.events + "," + own.events;
      const event: Obj = { xdm, data: { __adobe: { analytics } } };
      if (contextData) event.data.__adobe.analytics.contextData = contextData;
      if (!Object.keys(event.data.__adobe.analytics).length) delete event.data;
      submit({ action: "interact", payload: { events: [event] }, created: Date.now(), done: resolve });
    }).catch((e) => log.warn(NETWORK_REQUEST_FAILED, errorText(e)));
  }

  return {
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
    setVariables(variables) {
      for (const k of Object.keys(variables)) {
        if (k === "events" || k === "products") onceVariables[k] = variables[k];
        else pageVariables[k] = variables[k];
      }
    },
  };
}

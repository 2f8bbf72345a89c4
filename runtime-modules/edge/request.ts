import { tagAllowed, type EdgeContext } from "./context";
import type { Obj } from "./protocol";
import type { Reply, Transmit } from "./transport";
import type { SendQueue } from "./send-queue";
import { NETWORK_REQUEST_FAILED } from "../core/messages";
import { errorText } from "../core/log";
import { isObject } from "../core/is-object";
import { cookieWriteOptions, destinationCookieRule } from "../identity/cookie-rules";
import { uuid4 } from "./uuid";
import {
  clampQueueTime,
  cleanOverrides,
  cookieText,
  edgeUrl,
  legacyEcid,
  linkEcid,
  MAX_RETRIES,
  responseFailure,
  RETRY_STATUSES,
  retryDelay,
} from "./protocol";

/** One request to the edge: an event (interact/collect) or a consent change (privacy/set-consent). */
export interface Job {
  action: string;
  payload: Obj;
  created: number;
  /** The answer's status when it succeeded, and its parsed body. */
  done(status?: number, answer?: Obj): void;
}

const NON_FATAL = "The server responded with a non-fatal error:";

/** The gate's tag code of destination cookies (a marketing tag: segments other tags read). */
export const DESTINATION_COOKIES_TAG = "destination-cookies";

/**
 * Sends jobs: builds URL and body once, retries with the same URL, body and
 * requestId; each send resolves when done with the answer's status when it
 * succeeded (undefined on a failure), never rejects. A successful answer is
 * applied: cookies, the legacy ECID, cookie destinations, logged warnings.
 */
export function createRequests(ctx: EdgeContext, transmit: Transmit, queue: SendQueue, retrying: Array<() => void>): (job: Job) => Promise<number | undefined> {
  const { config, win, log, monitor, jar, prefix } = ctx;
  const a = config.analytics;
  const amcv = "AMCV_" + a.orgId;
  // The config-driven paths: their code is in the bundle only when its config turns them on (features.ts).
  const features = ctx.features || {};
  const base: Obj = { com_adobe_analytics: { reportSuites: [a.reportSuite] } };
  const overrides = cleanOverrides(features.configOverrides ? features.configOverrides(a, base) : base);
  // The third-party host ("" when off).
  const personalize = features.personalization;
  const third = features.thirdPartyCookies;
  const thirdHost = (a.thirdPartyCookies && third && third(win.navigator.userAgent)) || "";
  const migrate = a.idMigration !== false;
  let demdexFailed = false;
  /** The ECID of the legacy cookies (s_ecid, then AMCV_{orgId}). */
  const legacy = (c: Record<string, string>) => legacyEcid(c.s_ecid || c[amcv]);

  /**
   * A cookie destination of an activation:push handle, as alloy writes it
   * (`spec {name, value, ttlDays}`), but by our cookie rules: the apex domain,
   * path /, Secure, SameSite=Lax, ttlDays or the configured default (10 days),
   * and only when the gate lets the marketing tag `destination-cookies` run.
   */
  function destination(item: Obj): void {
    const spec = item.type === "cookie" && item.spec;
    if (!isObject(spec) || typeof spec.name !== "string" || !spec.name || !ctx.cookies) return;
    if (!tagAllowed(ctx, DESTINATION_COOKIES_TAG, "marketing")) return;
    const rule = destinationCookieRule(spec.name, spec.ttlDays, config.identity.cookies);
    ctx.cookies.set(rule.name, spec.value == null ? "" : String(spec.value), cookieWriteOptions(rule));
  }

  /** Applies a successful answer: warnings and errors logged, state:store handles written as cookies, the ECID kept in the legacy cookie, cookie destinations written. */
  function apply(parsed: Obj | undefined): void {
    if (!parsed) return;
    for (const w of parsed.warnings || []) log.warn("The server responded with a warning:", w);
    for (const e of parsed.errors || []) log.warn(NON_FATAL, e);
    const domain = ctx.apex();
    const now = Date.now();
    for (const handle of parsed.handle) {
      for (const item of handle?.payload || []) {
        if (handle.type === "state:store") jar.cookie = cookieText(item.key, item.value, domain, item.maxAge, item.attrs?.SameSite, now);
        else if (handle.type === "activation:push") destination(item);
        else if (migrate && handle.type === "identity:result" && item.namespace?.code === "ECID" && legacy(ctx.readJar()) !== item.id) {
          jar.cookie = cookieText(
            amcv,
            "MCMID|" + item.id,
            domain,
            config.identity.cookies.legacyIdDays * 86400,
            win.location.protocol === "https:" ? "None" : undefined,
            now,
          );
        }
      }
    }
  }

  function request(job: Job, resolve: (status: number | undefined) => void): void {
    // Personalisation (features.ts): a page view's proposition fetch; its answer comes to the job's done.
    if (personalize) personalize(ctx, job, request);
    const c = ctx.readJar();
    const identity = !!c[ctx.identity];
    // The closures below hold only the request (URL parts, the serialised body), not the job's payload.
    const action = job.action;
    const done = job.done;
    const event = action === "interact";
    const requestId = uuid4(win.crypto);
    const domain = ctx.apex();
    let host = !identity && thirdHost && !demdexFailed ? thirdHost : a.edgeDomain;
    const hint = c[prefix + "cluster"] || (c.mboxEdgeCluster && "t" + c.mboxEdgeCluster);
    const p = job.payload;
    // An adobe_mc link's ECID (at most 300 s old) first, as alloy adds it to every request; else the legacy cookies' for a visitor without identity.
    const ecid = linkEcid(win.location.search || "", win.location.hash || "", a.orgId, Date.now()) || (!identity && migrate && legacy(c));
    if (ecid) {
      const map = { ECID: [{ id: ecid }] };
      if (event) p.xdm = { identityMap: map };
      else p.identityMap = map;
    }
    p.query = { identity: { fetch: thirdHost ? ["ECID", "CORE"] : ["ECID"] } };
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
    const configId = features.datastreamOverride ? features.datastreamOverride(a, meta) : a.datastreamId;
    const body = JSON.stringify(p);
    // Leaving the page: events by sendBeacon, to collect once the visitor has an identity (else interact, whose answer is lost).
    const url = (beacon: boolean) => edgeUrl(host, a.edgeBasePath, hint, beacon && identity ? "collect" : action, configId, requestId);
    // Hidden but not leaving (another tab): a visitor without identity waits for it by fetch, or each beacon would make a new ECID.
    const beaconNow = () => ctx.hidden && event && (identity || ctx.leaving);
    monitor.emit("beacon", { url: url(beaconNow()), requestId, eventType: p.events?.[0].xdm?.eventType, body });

    const finish = (reply?: Reply) => {
      let status: number | undefined;
      let parsed: Obj | undefined;
      if (reply) {
        try {
          if (reply.text) parsed = JSON.parse(reply.text);
        } catch (e) {
          // Not JSON: no parsed body (parsed stays undefined).
        }
        const failure = responseFailure(reply.status, reply.text, parsed);
        if (failure) log.warn(failure);
        else {
          status = reply.status;
          try {
            apply(parsed);
          } catch (e) {
            log.warn(NON_FATAL, errorText(e));
          }
        }
      }
      done(status, parsed);
      resolve(status);
    };
    // Each attempt waits its turn in the send queue; whether it goes by beacon is decided when it goes.
    const attempt = (n: number): void =>
      queue.run(() => {
        const beacon = beaconNow();
        return transmit(url(beacon), body, beacon).then(
          // A beacon has no answer; its fetch fallback (sendBeacon missing or refusing) has one, retried as any: 429/502/503/504,
          // at most MAX_RETRIES times, after the delay (Retry-After, else 1000 + 1000·n ms ± 30 %), or when the page is hidden
          // (the client runs what waits in `retrying`).
          (reply) => {
            if (reply.beacon || n >= MAX_RETRIES || RETRY_STATUSES.indexOf(reply.status) < 0) return finish(reply);
            const go = () => {
              win.clearTimeout(timer);
              retrying.splice(retrying.indexOf(go), 1);
              attempt(n + 1);
            };
            const timer = win.setTimeout(go, retryDelay(reply.header!("Retry-After"), n, ctx.random || Math.random, Date.now()));
            retrying.push(go);
          },
          (e) => {
            // The third-party host failed (blocked): the edge domain for good, sent once more.
            if (thirdHost && host === thirdHost) {
              demdexFailed = true;
              host = a.edgeDomain;
              return attempt(n);
            }
            log.warn(NETWORK_REQUEST_FAILED, errorText(e));
            finish();
          },
        );
      });
    attempt(0);
  }

  return (job) => {
    const done = job.done;
    return new Promise<number | undefined>((resolve) => request(job, resolve)).catch((e) => {
      log.warn(NETWORK_REQUEST_FAILED, errorText(e));
      done();
      return undefined;
    });
  };
}

import type { EdgeContext } from "./context";
import type { Job } from "./request";
import { CONSENT_DECLINED, CONSENT_PENDING } from "../core/messages";
import { fnv1a32Hex } from "./protocol";

type SdkConsent = "pending" | "in" | "out";

export interface ConsentSync {
  /** An event (or a released one): dropped on out, queued on pending or while set-consent is out, else sent. */
  submit(job: Job): void;
  /** The page unloads: waiting events go on in, are dropped on out, are reported on pending. */
  leave(): void;
  /** Listens to consent changes and sends the current one. */
  start(): void;
  /** The page is hidden or left: the answered consent's hash is stored now (the only storage a first visit needs). */
  hidden(): void;
}

/**
 * The SDK consent and its sync with the edge (alloy's consent component):
 * events wait while it is pending or a set-consent is out; one set-consent
 * at a time, not sent again when its hash is stored. dispatch sends a job
 * (through the identity gate); ready runs the page's onBeforeEventSend
 * (false drops the event).
 */
export function createConsentSync(ctx: EdgeContext, dispatch: (job: Job) => void, ready: (job: Job) => boolean): ConsentSync {
  const { log, identity } = ctx;
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
    } else if (!ready(job)) {
      job.done();
    } else {
      dispatch(job);
    }
  }

  /** Queued events go on in, are dropped (and counted) on out. */
  function drain(consent: SdkConsent): void {
    const jobs = waiting.splice(0);
    if (consent === "out" && jobs.length) log.warn(CONSENT_DECLINED, { events: jobs.length });
    for (const job of jobs) consent === "in" ? submit(job) : job.done();
  }

  /** After a consent change: queued events go on in, are dropped on out. */
  function release(): void {
    const consent = sdk();
    if (!busy && consent !== "pending") drain(consent);
  }

  /** The visitor's choice changed: privacy/set-consent unless the same consent was already sent (hash in localStorage). */
  function changed(): void {
    // One set-consent at a time (as alloy queues them): a change while one is out is sent after its answer, if still a change.
    if (busy) return void (again = true);
    const consent = ctx.consent.sdk();
    if (consent === "pending" || consent === sent) return release();
    sent = consent;
    const value = { general: consent };
    const hash = fnv1a32Hex(JSON.stringify({ value }));
    // A hash only stands while both cookies exist: without them (a first visit) storage is not touched (issue #21).
    const c = ctx.readJar();
    const stands = c[identity] && c[consentCookie];
    if (stands && (unstored || ctx.storage()?.getItem(key)) === hash) return release();
    busy = true;
    dispatch({
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
        ctx.win.setTimeout(release, 0);
      },
    });
  }

  return {
    submit,
    leave() {
      const consent = sdk();
      // On out: declined while set-consent(out) was still out, these were never to be sent.
      if (consent !== "pending") drain(consent);
      else if (waiting.length) log.info(CONSENT_PENDING, { events: waiting.length });
    },
    start() {
      // A consent hash only stands while both the identity and the consent cookie exist (as in alloy), and is read only
      // then (changed). alloy drops stale hashes here when they do not; that would touch storage on a first visit
      // (issue #21), and is not needed: the cookies come into being only from an answer to a set-consent that
      // this page sent (without them a hash is never trusted), and that answer writes the fresh hash over the stale one.
      ctx.consent.onChange(changed);
      changed();
    },
    hidden: store,
  };
}

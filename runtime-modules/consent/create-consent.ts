import type { BundleConfig, ConsentCategory } from "../../generator/config/bundle-config.js";
import type { ConsentGate, LoadScript, Logger, Monitor, TagDecisionReport } from "../core/types";
import type { ConsentState } from "./state";
import type { TagStatus } from "./tag-status";
import {
  CONSENT_HOOK_FAILED,
  MODULE_FAILED,
  SCRIPT_EMBEDDING_FAILED,
  TAGS_EMBED_SKIPPED_NO_CONSENT,
  CONSENT_BANNER_CONFIG_FAILED,
  CONSENT_BANNER_TIMEOUT,
} from "../core/messages";
import { errorText } from "../core/log";
import { readCookie } from "../core/cookies";
import { bannerPlan, bannerPlanEvent } from "./banner-plan";
import { consentReducer, initialConsentState } from "./state";
import { categoryAllowed } from "./state";
import { sdkConsent, type SdkConsent } from "./sdk-consent";
import { decideTag } from "./tag-gate";
import { readTagStatus } from "./tag-status";
import { privacyConsentChanges, type PrivacyConsentChange } from "./privacy-change";

/** The banner's window event (OneTrust style) fired when the visitor's choice changes. */
export const CONSENT_EVENT = "consent.onetrust";
/** `?cb-refresh` forces a fresh evaluation of stored tag statuses. */
export const REFRESH_PARAM = "cb-refresh";
export const STATUS_PREFIX = "sitetags:tag:";
/**
 * Session cookie (host-only, like sessionStorage) that says a tag status is kept this session: without it
 * decide() does not touch sessionStorage, so a first visit's startup touches no storage (issue #21).
 */
export const STATUS_COOKIE = "sitetags_tag_status";

type ConsentWindow = Window & { OnetrustActiveGroups?: string; OptanonWrapper?: (...args: unknown[]) => unknown };

export interface ConsentDeps {
  config: BundleConfig;
  win: ConsentWindow;
  log: Logger;
  monitor: Monitor;
  loadScript: LoadScript;
  /** User ids of the signed-in visitor, for the user-name-in-URL check. */
  userIds?: () => readonly string[];
  /** document.cookie, or boot's jar of it (one snapshot per held section). */
  jar?: { cookie: string };
}

export interface Consent extends ConsentGate {
  /** Loads the banner (or skips it) and starts the startup wait. */
  start(): void;
  /** Called with each privacy consent change (status, region, type, action source). */
  onPrivacyChange(listener: (changes: PrivacyConsentChange[]) => void): void;
  state(): ConsentState;
}

/**
 * Consent as a state machine (consent/state.ts) fed by the banner's standard
 * browser API: the active-groups string, the OptanonWrapper callback and the
 * consent-changed event. Every tag passes one gate (consent/tag-gate.ts);
 * a tag waiting for consent loads once, when its category is granted.
 */
export function createConsent(deps: ConsentDeps): Consent {
  const { config, win, log, monitor } = deps;
  const jar = deps.jar || win.document;
  let state = initialConsentState(config.consent.groups);
  const changeListeners: Array<() => void> = [];
  const privacyListeners: Array<(changes: PrivacyConsentChange[]) => void> = [];
  let hooked = false;
  /** The visitor is acting in the banner (its consent event is being handled). */
  let acting = false;

  function dispatch(event: Parameters<typeof consentReducer>[1], actionSource = "banner"): void {
    const previous = state;
    state = consentReducer(state, event);
    if (state === previous) return;
    monitor.emit("consent", { event: event.type, groups: state.groups, banner: state.banner, sdk: sdkConsent(state) });
    // Release what waited for this consent first, then record the change.
    for (const l of changeListeners.slice()) guard(l);
    // The banner's first report on a page restores the visitor's earlier choice (or its defaults): not a change. Later
    // ones are, and so is a report that comes with the visitor's own decision (the banner's consent event).
    const restored = previous.groups === null && !previous.decided && !acting;
    const changes = restored ? [] : privacyConsentChanges(previous, state, { actionSource });
    if (changes.length) for (const l of privacyListeners) guard(() => l(changes));
  }

  function guard(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      log.error(MODULE_FAILED, errorText(e));
    }
  }

  function readGroups(): void {
    let groups: string | undefined;
    try {
      groups = win.OnetrustActiveGroups;
    } catch (e) {
      log.warn(CONSENT_HOOK_FAILED, errorText(e));
      return;
    }
    if (typeof groups === "string") dispatch({ type: "groups-updated", groups });
  }

  function hook(): void {
    if (hooked) return;
    hooked = true;
    try {
      win.addEventListener(CONSENT_EVENT, () => {
        acting = true;
        try {
          readGroups();
          dispatch({ type: "banner-closed" });
        } finally {
          acting = false;
        }
      });
      const previous = win.OptanonWrapper;
      win.OptanonWrapper = function (this: unknown) {
        try {
          // The banner calls OptanonWrapper with whatever it passes: forward it all, as the page's own handler expects.
          // eslint-disable-next-line prefer-rest-params
          if (typeof previous === "function") return previous.apply(this, arguments as unknown as unknown[]);
        } finally {
          readGroups();
        }
      };
    } catch (e) {
      log.error(CONSENT_HOOK_FAILED, errorText(e));
    }
  }

  function storage(): Storage | undefined {
    try {
      return win.sessionStorage;
    } catch {
      return undefined;
    }
  }

  function decide(tagCode: string, category?: ConsentCategory): TagDecisionReport {
    const force = new URLSearchParams(win.location.search).has(REFRESH_PARAM);
    let store: Storage | undefined;
    let stored: TagStatus | undefined;
    try {
      if (force || readCookie(jar.cookie, STATUS_COOKIE)) store = storage();
      stored = readTagStatus(JSON.parse(store?.getItem(STATUS_PREFIX + tagCode) || "null"));
    } catch {
      stored = undefined;
    }
    let gpc = false;
    try {
      gpc = (win.navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
    } catch {
      // No readable signal: gpc stays false.
    }
    const decision = decideTag({
      tagCode,
      category,
      consent: state,
      site: config.site,
      page: { host: win.location.hostname, query: win.location.search, referrer: win.document.referrer },
      userAgent: win.navigator.userAgent,
      gpc,
      userIds: deps.userIds ? deps.userIds() : [],
      settings: { defaultCategory: config.consent.defaultCategory, exclusions: config.exclusions, syntheticsUserAgent: config.consent.syntheticsUserAgent },
      stored,
      force,
    });
    // A page-level refusal (query parameter, synthetics, configuration, legal) is kept for the session.
    try {
      if (decision.status.status === "disabled" && decision.reason !== "stored-status") {
        (store || storage())?.setItem(STATUS_PREFIX + tagCode, JSON.stringify(decision.status));
        // A session cookie on this host only, like sessionStorage.
        if (!store) jar.cookie = STATUS_COOKIE + "=1; path=/";
      } else if (force || decision.allowed) store?.removeItem(STATUS_PREFIX + tagCode);
    } catch {
      /* storage blocked: decide again next page */
    }
    return { allowed: decision.allowed, reason: decision.reason, category: decision.category, detail: decision.detail };
  }

  const gate: Consent = {
    allows: (category) => categoryAllowed(state, category),
    whenAllowed(category, callback) {
      if (categoryAllowed(state, category)) return guard(callback);
      hook();
      const check = () => {
        if (!categoryAllowed(state, category)) return;
        changeListeners.splice(changeListeners.indexOf(check), 1);
        guard(callback);
      };
      changeListeners.push(check);
    },
    decide,
    whenTagAllowed(tagCode, category, load, blocked) {
      let done = false;
      const attempt = (): boolean => {
        const d = decide(tagCode, category);
        const waiting = !d.allowed && d.reason === "consent-category";
        monitor.emit("tag", {
          tag: tagCode,
          state: d.allowed ? "allowed" : waiting ? "waiting" : "blocked",
          reason: d.reason,
          consent: d.category,
          detail: d.detail,
        });
        if (d.allowed) {
          done = true;
          guard(load);
          return true;
        }
        log.info(TAGS_EMBED_SKIPPED_NO_CONSENT, waiting ? { tag: tagCode, consent: d.category } : { tag: tagCode, reason: d.reason, detail: d.detail });
        if (waiting) return false;
        // Blocked for good (a switch, an exclusion list, the privacy signal): the caller need not wait.
        if (blocked) guard(blocked);
        return true;
      };
      if (attempt()) return;
      hook();
      // Waiting for consent: try again on each change, load once.
      const check = () => {
        if (done || !categoryAllowed(state, category ?? config.consent.defaultCategory)) return;
        changeListeners.splice(changeListeners.indexOf(check), 1);
        attempt();
      };
      changeListeners.push(check);
    },
    sdk: (): SdkConsent => sdkConsent(state),
    reported: () => state.groups !== null,
    onChange: (listener) => void changeListeners.push(() => listener()),
    onPrivacyChange: (listener) => void privacyListeners.push(listener),
    state: () => state,
    start() {
      if (config.site.internal) {
        dispatch({ type: "internal-site" });
        return;
      }
      hook();
      readGroups();
      const plan = bannerPlan({
        internal: config.site.internal,
        host: win.location.hostname,
        query: win.location.search,
        banner: config.consent.banner,
        privacyHostPattern: config.consent.privacyHostPattern,
      });
      monitor.emit("banner", { plan: plan.action, reason: "reason" in plan ? plan.reason : undefined });
      const event = bannerPlanEvent(plan);
      if (plan.action === "fail") log.error(CONSENT_BANNER_CONFIG_FAILED, { missing: plan.missing });
      if (event) {
        dispatch(event);
        return;
      }
      if (plan.action !== "load") return;
      const failed = (e: unknown) => {
        log.error(SCRIPT_EMBEDDING_FAILED, { tag: "consent-banner", error: errorText(e) });
        dispatch({ type: "banner-failed", reason: "error" });
      };
      // The banner's script element a task later: its insertion (milliseconds of main thread) no longer delays the
      // set-consent request of a first visit nor a returning visitor's page view, which leave in this task and its
      // microtasks (edge-profile, issue #21). The groups and the banner's callbacks are read and hooked above, now.
      win.setTimeout(() => {
        try {
          deps.loadScript(plan.src, { id: "sitetags-consent-banner", attributes: plan.attributes }).then(() => dispatch({ type: "banner-loaded" }), failed);
        } catch (e) {
          failed(e);
        }
      }, 0);
      // "Startup waits at most 4500 ms for … consent, then goes on."
      win.setTimeout(() => {
        if (state.groups === null && state.banner !== "closed") {
          log.warn(CONSENT_BANNER_TIMEOUT, { ms: config.timing.startupWait });
          dispatch({ type: "banner-failed", reason: "timeout" });
        }
      }, config.timing.startupWait);
    },
  };
  return gate;
}

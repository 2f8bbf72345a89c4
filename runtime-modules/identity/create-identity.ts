import type { BundleConfig } from "../../generator/config/bundle-config.js";
import type { ConsentGate, Cookies, LoadScript, Logger, Monitor, ProvidedValues } from "../core/types";
import { IDENTITY_VALUE_DROPPED, SCRIPT_EMBEDDING_FAILED, SIGN_IN_DATA_NOT_FOUND } from "../core/messages";
import { errorText } from "../core/log";
import { decodeJwtPayload } from "./jwt";
import { parseSession, signInData } from "./source";
import { mergeSignInFacts, type SignInFacts } from "./sign-in-facts";
import { buildIdentityProfile, provideProfile, type IdentityProfile } from "./profile";
import { loginState, nextLoginRecord, parseLoginRecord, resetLoginRecord, visitorType, type LoginRecord } from "./login-state";
import type { CredentialFeature } from "./credentials";
import { cookieAllowed, cookieRules, cookieWriteOptions } from "./cookie-rules";
import { cbWebEvent } from "./web-event";
import { pageIdentity } from "./page-identity";

export interface IdentityDeps {
  config: BundleConfig;
  win: Window;
  cookies: Cookies;
  consent: ConsentGate;
  values: ProvidedValues;
  log: Logger;
  monitor: Monitor;
  now?: () => Date;
  loadScript?: LoadScript;
  /** The data layer's computed state (the documented page-view push carries page.flowCode and page.pageCode). */
  dataLayer?: () => { get(path: string): unknown } | undefined;
  /**
   * The credential request and fetch (credentials.ts), only in bundles whose environment has a credential service
   * (generator/bundle/features.ts): without it a signed-in visitor is identified from the sign-in data alone.
   */
  credentials?: CredentialFeature;
}

const PREVIOUS_PAGE_KEY = "sitetags:previous-page";
const COUNTED_KEY = "sitetags:counted";

export interface Identity {
  /** Settles when the startup sequence is done: identified or anonymous, at most timing.startupWait after boot. */
  ready: Promise<void>;
  state(): "identified" | "anonymous";
  profile(): IdentityProfile | undefined;
  /** User ids of the signed-in visitor (for the user-name-in-URL check). */
  userIds(): string[];
  /** A data-layer listener: the identity push merges the page's checked values into the signed-in visitor's profile. */
  push(push: Record<string, unknown>, event: string | undefined): void;
}

function decodeCookie(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The consent-gated startup sequence: detects a signed-in visitor from the
 * sign-in cookies (session and token, the token's payload decoded locally),
 * obtains the temporary credential (once performance consent allows a call,
 * up to 3 attempts 100 ms apart), and settles identified (credential found)
 * or anonymous (identity cleared, stored user data reset). Boot waits for it
 * at most timing.startupWait (4500 ms), then goes on. The profile, login
 * state and visitor type become provided values for data elements.
 */
export function createIdentity(deps: IdentityDeps): Identity {
  const { config, win, cookies, values, log, monitor } = deps;
  const now = deps.now ?? (() => new Date());
  const settings = config.identity;
  let state: "identified" | "anonymous" = "anonymous";
  let profile: IdentityProfile | undefined;
  /** The identity pushes' checked values so far: they win over the sign-in cookies' (docs/identity.md). */
  const pageFacts: SignInFacts = {};

  const session = parseSession(decodeCookie(cookies.get(settings.cookies.signInSession)));
  const token = decodeJwtPayload(cookies.get(settings.cookies.signInToken));
  const data = signInData(session, token);
  if (!data.found) log.info(SIGN_IN_DATA_NOT_FOUND);

  // The login record is read only when a sign-in cookie or the record's own cookie says there is one: a visitor who
  // never signed in has none (it would read as an empty record), and a first visit touches no storage (issue #21).
  // Storage is then taken as available (Chromium blocks it only with cookies, and then no record is kept anyway).
  const recordCookie = settings.cookies.loginRecord;
  const kept = data.found || cookies.get(recordCookie) !== undefined;
  let storage: Storage | undefined;
  let record: LoginRecord | null = null;
  if (kept)
    try {
      storage = win.localStorage;
      record = parseLoginRecord(storage.getItem(settings.loginRecordKey));
    } catch {
      record = null;
    }
  const available = !kept || !!storage;
  const today = now();
  const loggedIn = data.found;
  const justLoggedIn = nextLoginRecord(record, loggedIn, today).justLoggedIn;
  values.provide("loggedIn", () => loggedIn);
  values.provide("loginState", () => loginState(loggedIn, record, today));
  values.provide("visitorType", () => visitorType(available, record, today));
  provideProfile(values, () => profile);

  function save(next: LoginRecord): void {
    record = next;
    // Without a record to overwrite, the next one is empty (never signed in): nothing to keep.
    if (!kept) return;
    try {
      storage?.setItem(settings.loginRecordKey, JSON.stringify(next));
      if (justLoggedIn || cookies.get(recordCookie) === undefined) cookies.set(recordCookie, "1", { maxAgeSeconds: settings.cookies.loginRecordDays * 86400 });
    } catch {
      /* no storage: visitor type Unknown */
    }
  }

  function anonymous(): void {
    state = "anonymous";
    profile = undefined;
    const next = nextLoginRecord(record, loggedIn, today).record;
    // "Anonymous: identity cleared, stored user data reset" — when there was user data to reset.
    save(!loggedIn && next.firstLogin !== undefined ? resetLoginRecord(next, today) : next);
  }

  function identified(): void {
    state = "identified";
    profile = buildIdentityProfile(
      data.found ? data.source : "Catapult",
      Object.assign(mergeSignInFacts(session, token), pageFacts),
      today,
      cookies.get(settings.fpid.cookie),
    );
    save(nextLoginRecord(record, true, today).record);
  }

  // "A login is counted unless the previous page name was a security check. A registration counts when a
  // register or migrate flow reaches success or the thank-you path; then login is true."
  // The previous page name matters only to a login on this page: read then, not at startup (no storage on a first visit).
  const previousPageName = () => {
    try {
      return (justLoggedIn && win.sessionStorage.getItem(PREVIOUS_PAGE_KEY)) || undefined;
    } catch {
      return undefined;
    }
  };
  try {
    win.addEventListener("pagehide", () => {
      try {
        const name = values.get("pageName");
        if (typeof name === "string") win.sessionStorage.setItem(PREVIOUS_PAGE_KEY, name);
      } catch {
        /* storage blocked */
      }
    });
  } catch {
    /* no window events: no previous page name next time */
  }
  // "none" is nothing to send (undefined). A registration is counted once: the page (path, flow, step) that counted it is
  // kept for the session, so a reload counts nothing.
  let last: string | undefined;
  let lastType: string | undefined;
  const webEvent = () => {
    const state = deps.dataLayer?.();
    const flow = state && String(state.get("page.flowCode") ?? "");
    const step = state && String(state.get("page.pageCode") ?? "");
    let type: string | undefined = cbWebEvent({
      appId: config.site.appId,
      justLoggedIn,
      previousPageName: previousPageName(),
      flow,
      step,
      path: win.location.pathname,
      legacy: !!profile?.legacy,
      thankYouPath: settings.thankYouPath,
      securityCheckPage: settings.securityCheckPage,
    }).type;
    const key = type + " " + win.location.pathname + " " + flow + " " + step;
    if (last === key) return lastType;
    if (type === "none") type = undefined;
    else if (type !== "login")
      try {
        if (win.sessionStorage.getItem(COUNTED_KEY) === key) type = undefined;
        else win.sessionStorage.setItem(COUNTED_KEY, key);
      } catch {
        /* no storage: counted on this page */
      }
    last = key;
    return (lastType = type);
  };
  values.provide("cbWebEvent", webEvent);
  // identity.webEventEvents: a login's event, and a completed registration's (or migration's, or match's) with its login's.
  // Read by the org rule `identity` on the page view only (the identity push's rule does not set it): counted once.
  values.provide("cbWebEventEvents", () => {
    const type = webEvent();
    const counts: Record<string, string | undefined> = settings.webEventEvents || {};
    return (type && [counts.login, type !== "login" && counts[type]].filter(Boolean).join(",")) || undefined;
  });

  // The first-party id script fpid.js, keyed by stage, behind the gate as a performance tag. Its element a task later,
  // as the banner's: the insertion no longer delays a first visit's set-consent request (edge-profile, issue #21); the
  // script is async and this page view never waited for it (its cookie is read above, set for the next one).
  if (deps.loadScript) {
    const { src, stageParam } = settings.fpid;
    const failed = (e: unknown) => log.warn(SCRIPT_EMBEDDING_FAILED, { tag: "fpid", error: errorText(e) });
    deps.consent.whenTagAllowed("fpid", "performance", () =>
      win.setTimeout(() => {
        try {
          deps.loadScript!(src + (src.indexOf("?") < 0 ? "?" : "&") + stageParam + "=" + encodeURIComponent(config.env), { id: "sitetags-fpid" }).catch(failed);
        } catch (e) {
          failed(e);
        }
      }, 0),
    );
  }

  // The lifetime cookie, 60 days, only with performance consent.
  const rules = cookieRules(settings.cookies, config.analytics.orgId);
  deps.consent.whenAllowed("performance", () => {
    if (cookieAllowed(rules.lifetime, deps.consent.allows) && cookies.get(rules.lifetime.name) === undefined)
      cookies.set(rules.lifetime.name, String(today.getTime()), cookieWriteOptions(rules.lifetime));
  });

  const credentials = deps.credentials;
  const fetchCredential =
    loggedIn && credentials
      ? credentials.fetchCredential(
          {
            settings: settings.credentials,
            env: config.env,
            tokenType: String(token?.typ ?? token?.tokenType ?? ""),
            sessionId: String(session?.sessionId ?? session?.sid ?? token?.sid ?? ""),
            random: Math.random,
          },
          win,
          log,
        )
      : undefined;

  const sequence = new Promise<void>((resolve) => {
    if (!loggedIn) {
      anonymous();
      return resolve();
    }
    if (!fetchCredential) {
      // No credential service for this environment (or no session id): the sign-in data is what we have.
      identified();
      return resolve();
    }
    deps.consent.whenAllowed("performance", () =>
      fetchCredential().then((found) => {
        if (found) {
          identified();
          monitor.emit("identity", { state, source: profile?.source });
        } else anonymous();
        resolve();
      }),
    );
  });

  const ready = new Promise<void>((resolve) => {
    let timer: number | undefined;
    try {
      timer = win.setTimeout(resolve, config.timing.startupWait);
    } catch {
      resolve();
    }
    sequence.then(
      () => {
        try {
          if (timer !== undefined) win.clearTimeout(timer);
        } catch {
          /* nothing to clear */
        }
        resolve();
      },
      () => resolve(),
    );
  });
  ready.then(() => monitor.emit("identity", { state, loginState: values.get("loginState"), visitorType: values.get("visitorType") }));

  return {
    ready,
    state: () => state,
    profile: () => profile,
    userIds: () => (profile ? [profile.accountId, profile.hashedId].filter((id): id is string => !!id) : []),
    // The data layer starts once the startup sequence has settled: the state is known. An anonymous visitor's records
    // carry no identity ("Not-logged-in users are labelled 'Not Logged In'"), whatever the page says.
    push(push, event) {
      if (event !== "identity") return;
      const { facts, dropped } = pageIdentity(push);
      for (const field of dropped) log.warn(IDENTITY_VALUE_DROPPED, { field, value: push[field] });
      Object.assign(pageFacts, facts);
      if (state === "identified") identified();
    },
  };
}

/**
 * A fake browser for the Edge client's unit tests: document.cookie with
 * expiry, localStorage, visibility and page-lifecycle events, fetch answered
 * from a script (Response objects), sendBeacon recorded, a consent gate
 * whose SDK consent a test sets. Timers are the global ones (vi fake timers).
 */
import { vi } from "vitest";
import { createAnalytics, type AnalyticsDeps } from "../../../../runtime-modules/edge/create-analytics";
import type { ConsentGate, LogEntry } from "../../../../runtime-modules/core/types";
import type { BundleConfig } from "../../../../generator/config/bundle-config.js";
import { bundleConfig } from "../helpers/config";
import { allRuleFeatures } from "../../../../runtime-modules/rules/features";

export const ORG = "ABC123@AdobeOrg";
export const IDENTITY = "kndctr_ABC123_AdobeOrg_identity";
export const CONSENT_COOKIE = "kndctr_ABC123_AdobeOrg_consent";
export const CLUSTER = "kndctr_ABC123_AdobeOrg_cluster";
export const HASH_KEY = "com.adobe.alloy.ABC123_AdobeOrg.consentHashes.Adobe.1.0";
/** alloy's hash of {value: {general: "in"}}. */
export const IN_HASH = "e385c3ab";
export const CHROME_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

export interface SentRequest {
  url: string;
  /** fetch or sendBeacon */
  via: "fetch" | "beacon";
  init?: RequestInit;
  body: string;
  json: any;
  action: string;
  requestId: string;
  host: string;
}

/** How the fake edge answers one request. */
export type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | Error | ((request: SentRequest) => Answer);

export interface FakeEdgeOptions {
  url?: string;
  referrer?: string;
  cookies?: Record<string, string>;
  storage?: Record<string, string>;
  sdk?: "pending" | "in" | "out";
  /** The banner has already reported groups (default false). */
  reported?: boolean;
  analytics?: Partial<BundleConfig["analytics"]>;
  /** identity.cookies settings over the defaults (legacyIdDays, destinationDays, ...). */
  identityCookies?: Partial<BundleConfig["identity"]["cookies"]>;
  userAgent?: string;
  sendBeacon?: false | ((url: string, data: Blob) => boolean);
  random?: () => number;
  /** When true, every successful answer carries a state:store identity cookie unless the request had one. */
  konductor?: boolean;
}

export function fakeEdge(options: FakeEdgeOptions = {}) {
  const page = new URL(options.url ?? "https://www.kiwi.example/scores?x=1");
  const cookies = { ...options.cookies };
  const store: Record<string, string> = { ...options.storage };
  // A returning visitor (identity cookie) who consented earlier: the consent cookie and hash exist, no set-consent.
  if (options.sdk === undefined && cookies[IDENTITY] && !(CONSENT_COOKIE in cookies) && !(HASH_KEY in store)) {
    cookies[CONSENT_COOKIE] = "general=in";
    store[HASH_KEY] = IN_HASH;
  }
  const jar = new Map<string, { value: string; expires?: number }>(Object.entries(cookies).map(([k, v]) => [k, { value: v }]));
  const cookieWrites: string[] = [];
  const listeners: Record<string, Array<(e: { type: string }) => void>> = {};
  const sent: SentRequest[] = [];
  const answers: Answer[] = [];
  const pending: Array<() => void> = [];
  let hold = false;
  let sdk = options.sdk ?? "in";
  /** Whether the banner has reported groups (setConsent, or options.reported). */
  let reported = options.reported ?? false;
  const consentListeners: Array<() => void> = [];
  const entries: LogEntry[] = [];

  const cookieHeader = () =>
    [...jar.entries()]
      .filter(([, c]) => c.expires === undefined || c.expires > Date.now())
      .map(([k, c]) => `${k}=${c.value}`)
      .join("; ");

  const document = {
    referrer: options.referrer ?? "https://search.example/",
    visibilityState: "visible" as DocumentVisibilityState,
    documentElement: { clientWidth: 1200, clientHeight: 700 },
    get cookie() {
      return cookieHeader();
    },
    set cookie(text: string) {
      cookieWrites.push(text);
      const [pair, ...attrs] = text.split(";").map((s) => s.trim());
      const eq = pair.indexOf("=");
      const expires = attrs.find((a) => /^expires=/i.test(a));
      jar.set(pair.slice(0, eq), { value: pair.slice(eq + 1), expires: expires ? Date.parse(expires.slice(8)) : undefined });
    },
    addEventListener(type: string, fn: (e: { type: string }) => void) {
      (listeners[type] ||= []).push(fn);
    },
  };

  function record(url: string, via: "fetch" | "beacon", body: string, init?: RequestInit): SentRequest {
    const u = new URL(url);
    const request: SentRequest = {
      url,
      via,
      init,
      body,
      json: body ? JSON.parse(body) : undefined,
      action: u.pathname.replace(/^.*\/v1\//, ""),
      requestId: u.searchParams.get("requestId")!,
      host: u.hostname,
    };
    sent.push(request);
    return request;
  }

  function respond(request: SentRequest): Response {
    let answer: Answer = answers.shift() ?? { status: 200, body: { requestId: request.requestId, handle: [] } };
    while (typeof answer === "function") answer = answer(request);
    if (answer instanceof Error) throw answer;
    const body = answer.body;
    if (options.konductor && answer.status < 300 && body && typeof body === "object" && !jar.has(IDENTITY)) {
      const b = body as { handle: Array<Record<string, unknown>> };
      b.handle = [...b.handle, { type: "state:store", payload: [{ key: IDENTITY, value: "CiYxMjM0", maxAge: 34128000, attrs: { SameSite: "None" } }] }];
    }
    const text = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
    const headers = new Headers(answer.headers);
    return { status: answer.status, text: () => Promise.resolve(text), headers } as unknown as Response;
  }

  const win = {
    document,
    location: { protocol: page.protocol, hostname: page.hostname, href: page.href, search: page.search, hash: page.hash },
    navigator: {
      userAgent: options.userAgent ?? "Mozilla/5.0 (test)",
      sendBeacon:
        options.sendBeacon === false
          ? undefined
          : (url: string, data: Blob) => {
              const request = record(url, "beacon", "", undefined);
              const result = options.sendBeacon ? options.sendBeacon(url, data) : true;
              void data.text().then((t) => {
                request.body = t;
                request.json = JSON.parse(t);
                (request as SentRequest & { blobType?: string }).blobType = data.type;
              });
              if (!result) sent.splice(sent.indexOf(request), 1);
              return result;
            },
    },
    screen: { width: 1440, height: 900, orientation: { type: "landscape-primary" } },
    matchMedia: () => ({ matches: false }),
    crypto: globalThis.crypto,
    localStorage: {
      getItem: (k: string) => (k in store ? store[k] : null),
      setItem: (k: string, v: string) => void (store[k] = String(v)),
      removeItem: (k: string) => void delete store[k],
      get length() {
        return Object.keys(store).length;
      },
    },
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (t: ReturnType<typeof setTimeout>) => clearTimeout(t),
    fetch: vi.fn((url: string, init: RequestInit) => {
      const request = record(url, "fetch", String(init.body), init);
      return new Promise<Response>((resolve, reject) => {
        const go = () => {
          try {
            resolve(respond(request));
          } catch (e) {
            reject(e);
          }
        };
        if (hold) pending.push(go);
        else queueMicrotask(go);
      });
    }),
    addEventListener(type: string, fn: (e: { type: string }) => void) {
      (listeners[type] ||= []).push(fn);
    },
  };
  // Object.keys(localStorage) lists the stored keys, as in a browser.
  Object.defineProperty(win, "localStorage", {
    value: new Proxy(win.localStorage, {
      ownKeys: () => Object.keys(store),
      getOwnPropertyDescriptor: (t, k) =>
        typeof k === "string" && k in store ? { configurable: true, enumerable: true, value: store[k] } : Reflect.getOwnPropertyDescriptor(t, k),
    }),
  });

  const consent: ConsentGate = {
    allows: () => sdk === "in",
    whenAllowed: (_c, cb) => cb(),
    decide: () => ({ allowed: true, reason: "consent-given", category: "performance" }),
    whenTagAllowed: (_t, _c, load) => load(),
    sdk: () => sdk,
    reported: () => reported,
    onChange: (l) => void consentListeners.push(l),
  };

  const log = {
    enabled: false,
    debug: (message: string, data?: unknown) => void entries.push({ level: "debug", message, data, t: 0 }),
    info: (message: string, data?: unknown) => void entries.push({ level: "info", message, data, t: 0 }),
    warn: (message: string, data?: unknown) => void entries.push({ level: "warn", message, data, t: 0 }),
    error: (message: string, data?: unknown) => void entries.push({ level: "error", message, data, t: 0 }),
  };
  const monitorEvents: Array<Record<string, unknown>> = [];

  const base = bundleConfig();
  const config: BundleConfig = {
    ...base,
    analytics: { ...base.analytics, edgeDomain: "edge.kiwi.example", ...options.analytics },
    identity: { ...base.identity, cookies: { ...base.identity.cookies, ...options.identityCookies } },
  };
  const deps: AnalyticsDeps = {
    config,
    consent,
    log,
    monitor: { emit: (type, detail) => void monitorEvents.push({ type, ...detail }) },
    page: () => ({ host: page.hostname, path: page.pathname, query: page.searchParams, hash: page.hash, referrer: document.referrer, href: page.href }),
    win: win as unknown as Window,
    pageName: () => "scores:home",
    random: options.random ?? (() => 0.5),
    // Every config-driven path, as allRuleFeatures() hands boot in the tests: the config decides.
    features: allRuleFeatures().edge,
  };

  return {
    win,
    document,
    jar,
    cookieWrites,
    store,
    sent,
    entries,
    monitorEvents,
    config,
    /** A new client on this page (a new page load keeps cookies and storage). */
    /** A new client, not started: building it must send nothing and listen to nothing. */
    build: () => createAnalytics(deps),
    /** The number of page-lifecycle listeners registered. */
    listenerCount: () => Object.values(listeners).reduce((n, l) => n + l.length, 0),
    consentListenerCount: () => consentListeners.length,
    start() {
      const client = createAnalytics(deps);
      client.start();
      return client;
    },
    /** Queues answers for the next fetches, in order. */
    answer: (...a: Answer[]) => void answers.push(...a),
    /** Holds fetch answers (to observe what is in flight). */
    hold() {
      hold = true;
    },
    /** Answers the held fetches (later ones are held too until stopHolding()). */
    release() {
      pending.splice(0).forEach((go) => go());
    },
    stopHolding() {
      hold = false;
      pending.splice(0).forEach((go) => go());
    },
    /** Changes the SDK consent and tells the listeners (as the consent machine does). */
    /** The banner reports: the SDK consent it gives (pending: groups without performance, not closed yet). */
    setConsent(value: "pending" | "in" | "out") {
      sdk = value;
      reported = true;
      consentListeners.forEach((l) => l());
    },
    /** Fires a page-lifecycle event: "hidden" (visibilitychange), "pagehide", "visible". */
    lifecycle(what: "hidden" | "visible" | "pagehide") {
      if (what === "pagehide") return (listeners.pagehide || []).forEach((f) => f({ type: "pagehide" }));
      document.visibilityState = what;
      (listeners.visibilitychange || []).forEach((f) => f({ type: "visibilitychange" }));
    },
    messages: () => entries.map((e) => e.message),
  };
}

/** Lets promise callbacks (the fake fetch's microtasks) and zero-delay timers run (the tests use vi fake timers). */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    for (let j = 0; j < 10; j++) await new Promise<void>((resolve) => queueMicrotask(resolve));
    if (vi.isFakeTimers()) await vi.advanceTimersByTimeAsync(0);
  }
}

import type { BundleConfig, ConsentCategory } from "../../generator/config/bundle-config.js";
import type { ConsentGate, Cookies, Logger, Monitor, PageInfo } from "../core/types";
import { cookieDomain, readCookies } from "../core/cookies";
import type { EdgeFeatures } from "./features";

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
  /** The config-driven paths the bundle carries (features.ts); none without it. */
  features?: EdgeFeatures;
}

/** The services the Edge client's parts share: the page's, plus the visitor's cookies and storage, and the page state. */
export interface EdgeContext extends AnalyticsDeps {
  /** kndctr_{org with @ → _}_: the prefix of the edge's cookies. */
  prefix: string;
  /** The identity cookie's name. */
  identity: string;
  /** Where document.cookie is read and written. */
  jar: { cookie: string };
  /** The visitor's cookies, by name. */
  readJar(): Record<string, string>;
  storage(): Storage | undefined;
  /** The apex domain of cookies ("" when none). */
  apex(): string;
  /** The page is hidden (or unloaded): events go by sendBeacon once the visitor has an identity. */
  hidden: boolean;
  /** pagehide: the page is being unloaded (or cached): nothing waits any more. */
  leaving: boolean;
}

/**
 * Whether the consent gate lets an Edge path's tag run (destination cookies, personalisation), its decision reported to
 * the monitor as the gate's other decisions are: `{ type: "tag", tag, state: "allowed" | "blocked", reason, consent, detail }`.
 */
export function tagAllowed(ctx: Pick<EdgeContext, "consent" | "monitor">, tag: string, category: ConsentCategory): boolean {
  const d = ctx.consent.decide(tag, category);
  ctx.monitor.emit("tag", { tag, state: d.allowed ? "allowed" : "blocked", reason: d.reason, consent: d.category, detail: d.detail });
  return d.allowed;
}

export function createEdgeContext(deps: AnalyticsDeps): EdgeContext {
  const { win, config } = deps;
  const jar = deps.cookieJar || win.document;
  const prefix = "kndctr_" + config.analytics.orgId.replace("@", "_") + "_";
  // The last document.cookie text and its table: a record reads the cookies several times, parsed once while unchanged.
  let text: string | undefined;
  let table: Record<string, string> = {};
  return {
    ...deps,
    prefix,
    identity: prefix + "identity",
    jar,
    readJar() {
      const now = jar.cookie;
      return now === text ? table : (table = readCookies((text = now)));
    },
    storage() {
      try {
        return win.localStorage;
      } catch (e) {
        return undefined;
      }
    },
    apex: () => cookieDomain({ hostname: deps.page().host, protocol: win.location.protocol, apexDomain: config.apexDomain }) || "",
    hidden: false,
    leaving: false,
  };
}

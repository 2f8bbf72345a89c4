/**
 * What travels between the three parts of the preview:
 *
 *  - the mock page's bridge (preview/page/bridge.js, in the page under its
 *    CSP) and the app, by postMessage: BridgeMessage up, AppMessage down;
 *  - the preview server and the app: NetworkRecord over Server-Sent Events
 *    (/api/events), so the app sees every edge request, sendBeacon included;
 *  - the app's session: an ordered list of Entry, from which every panel
 *    is computed (and which a session export holds).
 */

/** A runtime monitor event (docs/runtime.md "Monitors"): `{ type, t, ...detail }`; `t` is ms since the page's navigation start. */
export interface MonitorEvent {
  type: string;
  t: number;
  [key: string]: unknown;
}

/** page: a document of a site host; asset: a script, image… of a site host (fpid.js); file: a download. */
export type NetworkKind = "edge" | "third-party" | "bundle" | "page" | "asset" | "file";

/** One request the preview server answered (for the mock edge: with its body). */
export interface NetworkRecord {
  seq: number;
  /** Date.now() on arrival. */
  time: number;
  kind: NetworkKind;
  host: string;
  method: string;
  /** The URL as the browser asked for it (no port). */
  url: string;
  path: string;
  query: Record<string, string>;
  /** Answered with (0: the connection was dropped on purpose). */
  status?: number;
  durationMs?: number;
  /** Request body as text (edge requests only). */
  body?: string;
  origin?: string;
  referer?: string;
  /** Sec-Fetch-Dest: script, image, iframe, empty (fetch / sendBeacon), document… */
  dest?: string;
  /** Sec-Fetch-Mode: cors (fetch), no-cors (sendBeacon with a text body, images), navigate… */
  mode?: string;
  /** The mock edge's behaviour when it answered. */
  edgeMode?: string;
  /** The page load that sent it while unloading (the bridge's unload cookie), for an edge request. */
  unloadOf?: string;
}

/** What the page's bridge reports about the page besides events (on request and after each action). */
export interface PageSnapshot {
  href: string;
  cookies: string;
  consentGroups: string | null;
  gpc: boolean;
  /** window.sitetags, if the bundle started. */
  sitetags?: { version?: string; site?: string; env?: string; modules?: string[]; commands?: Record<string, string[]>; logSize?: number };
  dataLayerLength: number;
  /** localStorage entries whose key starts with "sitetags" or "kiwi". */
  storage: Record<string, string>;
  /** Third-party scripts that ran (the preview's stub scripts record themselves). */
  thirdParty: string[];
}

/** Bridge → app. */
export type BridgeMessage =
  | { kind: "hello"; at: number; href: string; title: string; timeOrigin: number; nonce: boolean; csp: string; load?: string }
  | { kind: "monitor"; at: number; event: MonitorEvent }
  | { kind: "cookie"; at: number; text: string; by: "setup" | "page" }
  | { kind: "consent"; at: number; groups: string | null; via: string }
  | { kind: "csp"; at: number; directive: string; blockedURI: string; sourceFile?: string; sample?: string }
  | { kind: "error"; at: number; message: string; source?: string }
  | { kind: "snapshot"; at: number; snapshot: PageSnapshot }
  | { kind: "ack"; at: number; id: number; ok: boolean; error?: string }
  | { kind: "lifecycle"; at: number; state: LifecycleState }
  | { kind: "resources"; at: number; urls: string[] };

/** hidden / visible: the document's visibility; unload: its pagehide (it is going away). */
export type LifecycleState = "hidden" | "visible" | "unload";

/** App → bridge. `id` comes back in an ack. */
export type AppMessage =
  | { kind: "action"; id: number; action: string; value?: string }
  | { kind: "push"; id: number; data: unknown }
  | { kind: "consent"; id: number; groups: string | null; via: "event" | "OptanonWrapper" }
  | { kind: "track"; id: number; name: string; detail?: unknown }
  | { kind: "snapshot"; id: number };

/** The envelope of every postMessage, so that other messages are ignored. */
export const BRIDGE_SOURCE = "sitetags-preview-bridge";
export const APP_SOURCE = "sitetags-preview-app";

export interface BridgeEnvelope {
  source: typeof BRIDGE_SOURCE;
  /** The frame token of the setup the page was loaded with (stale pages are ignored). */
  frame: string;
  msg: BridgeMessage;
}

export interface AppEnvelope {
  source: typeof APP_SOURCE;
  msg: AppMessage;
}

/** One thing that happened in a preview session; `page` counts the documents loaded in the frame (1, 2, … after navigations). */
export type Entry =
  | { kind: "page"; page: number; at: number; href: string; title: string; timeOrigin: number; csp: string; load?: string }
  | { kind: "monitor"; page: number; at: number; event: MonitorEvent }
  | { kind: "cookie"; page: number; at: number; text: string; by: "setup" | "page" }
  | { kind: "consent"; page: number; at: number; groups: string | null; via: string }
  | { kind: "csp"; page: number; at: number; directive: string; blockedURI: string; sourceFile?: string; sample?: string }
  | { kind: "error"; page: number; at: number; message: string; source?: string }
  | { kind: "snapshot"; page: number; at: number; snapshot: PageSnapshot }
  | { kind: "action"; page: number; at: number; action: string; detail?: unknown; ok?: boolean; error?: string }
  | { kind: "network"; page: number; at: number; request: NetworkRecord }
  | { kind: "lifecycle"; page: number; at: number; state: LifecycleState };

/**
 * What the page's bridge applies before the bundle loads, passed as the
 * frame's window.name (JSON): not in the URL, the cookies or the referrer,
 * so the bundle sees the page exactly as in production.
 */
export interface PageSetup {
  v: 1;
  /** Token that tags this load's messages. */
  frame: string;
  /** The app's origin: the only one the bridge talks to. */
  parentOrigin: string;
  /** First visit: remove every cookie and storage entry the page can see first. */
  fresh: boolean;
  /** document.cookie assignments, in order (sign-in cookies, returning-visitor cookies, banner cookies). */
  cookies: string[];
  localStorage: Record<string, string>;
  /** window.OnetrustActiveGroups; null: the banner has not run (pre-opt-in). */
  consentGroups: string | null;
  /** navigator.globalPrivacyControl = true. */
  gpc: boolean;
  /** The documented debug switch (the cookie sitetags-debug=1). */
  debug: boolean;
  /** The bundle's data-layer global. */
  dataLayerName: string;
  /** Pushes made before the bundle loads (the page template's). */
  dataLayer: unknown[];
}

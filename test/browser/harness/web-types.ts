/**
 * The types of the test web (servers.ts): what it records of a request,
 * what a page, a third-party override and an edge answer can be, and the
 * TestWeb a test drives.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Origin } from "./cdn-origin.js";

export type RequestKind = "page" | "bundle" | "edge" | "credentials" | "video" | "third-party";

export interface RecordedRequest {
  /** Order of arrival since the last reset (0, 1, ...). */
  seq: number;
  /** Date.now() on arrival. */
  time: number;
  kind: RequestKind;
  protocol: "https" | "http";
  /** Host name without port. */
  host: string;
  method: string;
  /** Full URL as the browser asked for it (without the port the host rules add). */
  url: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Request body as UTF-8 text ("" when none). */
  body: string;
  /** The body parsed as JSON, when it is JSON. */
  json?: unknown;
  /** Status the server answered with (set once answered). */
  status?: number;
  /** Pages: the CSP nonce of this response. */
  nonce?: string;
}

/** Something servable as a bundle: what bundles.ts's buildBundle returns. */
export interface ServableBundle {
  /** dist-relative stable name, e.g. "qa/clep/sitetags.min.js". */
  alias: string;
  /** dist-relative content-addressed name, e.g. "qa/clep/sitetags.0123456789.min.js". */
  file: string;
  code: string;
  /** The bundle's deferred file (split task, issue #21): published beside it, e.g. "qa/clep/sitetags.defer.0123456789.min.js". */
  deferred?: { file: string; code: string };
}

export interface PageOptions {
  /** The bundle to embed: a built bundle (published on the CDN host) or any script URL. Omit for a page without it. */
  bundle?: ServableBundle | string;
  /** `<script async src=...>` instead of a plain blocking `<script src=...>`. */
  async?: boolean;
  /** Where the bundle's script tag goes (default head). */
  bundleIn?: "head" | "body";
  /** Content-Security-Policy header: true for STRICT_CSP, or a policy whose `{nonce}` is replaced. */
  csp?: boolean | string;
  /** Fixed nonce for every script tag of the page (default: random per response, recorded as the request's `nonce`). */
  nonce?: string;
  /** Inline scripts (with the nonce) before the bundle's tag. */
  before?: string[];
  /** Inline scripts (with the nonce) right after the bundle's tag. */
  after?: string[];
  /** Data-layer pushes made before the bundle loads. */
  dataLayer?: unknown[];
  /** Name of the data-layer global (default kiwiDataLayer, the catalogue's dataLayerName). */
  dataLayerName?: string;
  /** Set-Cookie header values sent with the page. */
  cookies?: string[];
  /** Extra markup at the end of head / body. */
  head?: string;
  body?: string;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

export interface ScriptOverride {
  status?: number;
  /** Response body (default: the self-recording script, or an error text for status >= 400). */
  body?: string;
  contentType?: string;
  /** Answer only after this long. */
  delayMs?: number;
  /** Answer only once this settles (a test holds a file back, e.g. a bundle's deferred file; the CDN host honours it too). */
  until?: Promise<unknown>;
}

export interface EdgeResponse {
  status: number;
  headers?: Record<string, string>;
  /** Object bodies are sent as JSON. Omit for no body. */
  body?: string | object;
  delayMs?: number;
  /** A fault instead of an answer: "reset" destroys the connection once the request is read; "hang" never answers (until the next reset). */
  fault?: "reset" | "hang";
}

export type RequestMatch = ((request: RecordedRequest) => boolean) | { host?: string; path?: string | RegExp; method?: string; kind?: RequestKind };

export interface TestWeb {
  httpsPort: number;
  httpPort: number;
  /**
   * Every request since the last reset, in order of arrival, except strays:
   * requests carrying an earlier test's marker cookie (a page the previous
   * test closed may still send its beacons on the way out).
   */
  readonly requests: RecordedRequest[];
  /** The marker cookie of the running test (HttpOnly, on the apex domain; browser.ts sets it in each new context; nextTest() changes it). */
  readonly marker: { name: string; value: string };
  /** Requests of earlier tests that arrived after their test ended (kept apart, for debugging). */
  readonly strays: RecordedRequest[];
  requestsTo(host: string): RecordedRequest[];
  /** Requests matching, in order. */
  find(match: RequestMatch): RecordedRequest[];
  /** The first request matching (already seen or still to come), as soon as it arrives (its answer may still be pending: `status` unset); rejects after timeoutMs (default 5000) listing what came. */
  waitForRequest(match: RequestMatch, options?: { timeoutMs?: number }): Promise<RecordedRequest>;
  /** Registers a page; returns the URL. */
  page(url: string, options?: PageOptions): string;
  /** Publishes a bundle on the CDN host; returns its URL. */
  serveBundle(bundle: ServableBundle): string;
  /** Changes how a third-party URL (query ignored) answers. */
  script(url: string, override: ScriptOverride): void;
  /** Puts a CDN in front of an origin server (cdn-origin.ts): the host's requests are forwarded to it. Stays until close. */
  origin(host: string, origin: Origin): void;
  edge: {
    /** Queues answers for the next edge requests (CORS preflights excepted), in order; then the default again. */
    respond(...responses: EdgeResponse[]): void;
    /** Decides every edge answer while set (queued answers go first). */
    handler?: (request: RecordedRequest) => EdgeResponse;
  };
  /**
   * The mock credential service (creds.kiwi.example, creds-ENV.kiwi.example: the catalogue's identity.credentials.serviceUrl).
   * Answers CORS preflights, and a GET with 200 `{"cbJwtToken": "mock-cb-jwt"}` unless `handler` answers otherwise.
   */
  credentials: {
    handler?: (request: RecordedRequest) => EdgeResponse;
  };
  /** Forgets requests, pages, script overrides and edge answers (bundles stay published). */
  reset(): void;
  /** Between tests (the harness's beforeEach): reset, and a new marker, so what earlier tests' pages still send is a stray. */
  nextTest(): void;
  close(): Promise<void>;
}

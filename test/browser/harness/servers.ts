/**
 * The local web the browser tests run against: one Node server, on an
 * ephemeral port for HTTPS (self-signed, see certs.ts) and another for plain
 * HTTP, routing every request by its Host header. Chromium maps all the
 * fictional names to it (browser.ts), so URLs look real: no ports, e.g.
 * https://clep-qa.kiwi.example/contact-us.
 *
 * Who answers what:
 * - `edge.kiwi.example`: the mock Adobe Edge endpoint. Records every request
 *   (fetch and navigator.sendBeacon alike, CORS preflights too) and answers
 *   200 `{"requestId": <the query's requestId>, "handle": []}` unless a test
 *   queued other answers (`web.edge.respond(...)`) or set `web.edge.handler`.
 * - `cdn.kiwi.example`: the bundles. `web.serveBundle(bundle)` (or a page's
 *   `bundle` option) publishes a built bundle at the URL the embed code uses,
 *   https://cdn.kiwi.example/ENV/SITE/sitetags.min.js, and under its
 *   content-addressed name; when a different bundle already holds the alias
 *   (a custom catalogue's clep/qa next to the real one), its hashed URL is
 *   used instead.
 * - other `*.kiwi.example` hosts, `localhost` and `127.0.0.1`: site pages,
 *   registered per URL with `web.page(url, options)` (exact path, or a path
 *   ending in `*` for a prefix) and rendered from one HTML template that
 *   embeds the bundle with `<script src nonce>`; unregistered pages are 404.
 * - `www.youtube.com` (and any *.youtube.com): the video platform, its
 *   iframe API (a mock of YT.Player) and embed pages (youtube.ts).
 * - any other host (chat.widgetvendor.example, survey.feedbackvendor.example,
 *   cdn.consentbanner.example, ...): a third party. Answers a script that
 *   records itself in the page, `(window.__thirdParty ||= []).push(URL)`,
 *   unless `web.script(url, { status, body, delayMs })` says otherwise.
 *
 * Every request lands in `web.requests` (with its body); await one with
 * `web.waitForRequest({ host, path })`. `web.reset()` forgets requests,
 * pages, script overrides and edge answers; `web.nextTest()` (the harness's
 * beforeEach) also changes the test marker, so that requests earlier tests'
 * pages send later (beacons on the way out) land in `web.strays`.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { testCertificate } from "./certs.js";
import { YOUTUBE_API_MOCK, youtubeEmbedPage } from "./youtube.js";
import { fetchFromOrigin, type Origin } from "./cdn-origin.js";

/** The organisation's apex domain in the catalogue (sites/_org.yaml). */
export const APEX = "kiwi.example";
export const EDGE_HOST = `edge.${APEX}`;
export const CDN_HOST = `cdn.${APEX}`;

/**
 * The strict policy of the contract's pages: nonce-based, 'strict-dynamic',
 * no 'unsafe-eval' (nor 'unsafe-inline'). `{nonce}` is replaced per response.
 */
export const STRICT_CSP = "script-src 'nonce-{nonce}' 'strict-dynamic'; object-src 'none'; base-uri 'none'";
/** Nonce only, no 'strict-dynamic': a script injected without the nonce is blocked. */
export const NONCE_ONLY_CSP = "script-src 'nonce-{nonce}'; object-src 'none'; base-uri 'none'";

export type RequestKind = "page" | "bundle" | "edge" | "video" | "third-party";

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
  /** Forgets requests, pages, script overrides and edge answers (bundles stay published). */
  reset(): void;
  /** Between tests (the harness's beforeEach): reset, and a new marker, so what earlier tests' pages still send is a stray. */
  nextTest(): void;
  close(): Promise<void>;
}

interface PageRoute {
  host: string;
  path: string;
  prefix: boolean;
  options: PageOptions;
}

/** Starts the servers on ephemeral ports of 127.0.0.1. */
export async function startServers(): Promise<TestWeb> {
  const { key, cert } = await testCertificate();
  const requests: RecordedRequest[] = [];
  const strays: RecordedRequest[] = [];
  const marker = { name: "__harness", value: randomUUID() };
  const waiters = new Set<{ match: (r: RecordedRequest) => boolean; resolve: (r: RecordedRequest) => void }>();
  let pages: PageRoute[] = [];
  let scripts = new Map<string, ScriptOverride>();
  let edgeQueue: EdgeResponse[] = [];
  /** Edge answers held back by a "hang" fault (destroyed on reset). */
  const hanging = new Set<ServerResponse>();
  const bundles = new Map<string, string>();
  const origins = new Map<string, Origin>();

  const web: TestWeb = {
    httpsPort: 0,
    httpPort: 0,
    requests,
    marker,
    strays,
    requestsTo: (host) => requests.filter((r) => r.host === host),
    find: (match) => requests.filter(toPredicate(match)),
    waitForRequest(match, options = {}) {
      const predicate = toPredicate(match);
      const seen = requests.find(predicate);
      if (seen) return Promise.resolve(seen);
      const timeoutMs = options.timeoutMs ?? 5000;
      return new Promise((resolve, reject) => {
        const waiter = {
          match: predicate,
          resolve: (r: RecordedRequest) => {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve(r);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          const list = requests.map((r) => `  ${r.method} ${r.url} -> ${r.status ?? "pending"}`).join("\n") || "  (none)";
          reject(new Error(`no request matching ${describeMatch(match)} within ${timeoutMs} ms; requests seen:\n${list}`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    page(url, options = {}) {
      const u = new URL(url);
      const prefix = u.pathname.endsWith("*");
      const route: PageRoute = { host: u.hostname, path: prefix ? u.pathname.slice(0, -1) : u.pathname, prefix, options };
      pages = pages.filter((p) => !(p.host === route.host && p.path === route.path && p.prefix === route.prefix));
      pages.push(route);
      return url;
    },
    serveBundle(bundle) {
      bundles.set(`/${bundle.file}`, bundle.code);
      const current = bundles.get(`/${bundle.alias}`);
      if (current === undefined || current === bundle.code) {
        bundles.set(`/${bundle.alias}`, bundle.code);
        return `https://${CDN_HOST}/${bundle.alias}`;
      }
      return `https://${CDN_HOST}/${bundle.file}`;
    },
    script(url, override) {
      const u = new URL(url);
      scripts.set(u.hostname + u.pathname, override);
    },
    origin(host, origin) {
      origins.set(host, origin);
    },
    edge: {
      respond: (...responses) => void edgeQueue.push(...responses),
      handler: undefined,
    },
    nextTest() {
      web.reset();
      strays.length = 0;
      marker.value = randomUUID();
    },
    reset() {
      requests.length = 0;
      pages = [];
      scripts = new Map();
      edgeQueue = [];
      web.edge.handler = undefined;
      for (const res of hanging) res.socket?.destroy();
      hanging.clear();
    },
    async close() {
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };

  function record(req: IncomingMessage, protocol: "https" | "http", body: string): RecordedRequest {
    const host = hostName(req.headers.host ?? "");
    const url = new URL(req.url ?? "/", `${protocol}://${req.headers.host ?? "unknown"}`);
    if (url.port && !isLocal(host)) url.port = "";
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    const entry: RecordedRequest = {
      seq: requests.length,
      time: Date.now(),
      kind: kindOf(host),
      protocol,
      host,
      method: req.method ?? "GET",
      url: url.href,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body,
      json,
    };
    const tag = new RegExp(`(?:^|;\\s*)${marker.name}=([^;]*)`).exec(String(req.headers.cookie ?? ""));
    if (tag && tag[1] !== marker.value) {
      strays.push(entry);
      return entry;
    }
    requests.push(entry);
    // Waiters wait for a request's arrival, not its answer: an edge answer held back for seconds must not hide the request.
    notify(entry);
    return entry;
  }

  function notify(entry: RecordedRequest) {
    for (const waiter of [...waiters]) if (waiter.match(entry)) waiter.resolve(entry);
  }

  function send(res: ServerResponse, entry: RecordedRequest, status: number, headers: Record<string, string | string[]>, body?: string) {
    entry.status = status;
    res.writeHead(status, { "cache-control": "no-store", ...headers });
    res.end(body);
    notify(entry);
  }

  function handle(protocol: "https" | "http") {
    return (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const entry = record(req, protocol, Buffer.concat(chunks).toString("utf8"));
        void answer(entry, res).catch((e: Error) => send(res, entry, 500, { "content-type": "text/plain" }, `test server error: ${e.message}`));
      });
    };
  }

  async function answer(entry: RecordedRequest, res: ServerResponse): Promise<void> {
    const origin = origins.get(entry.host);
    if (origin) {
      const got = await fetchFromOrigin(origin, entry.method, entry.path);
      entry.status = got.status;
      res.writeHead(got.status, got.headers);
      res.end(got.body);
      return notify(entry);
    }
    switch (entry.kind) {
      case "edge":
        return answerEdge(entry, res);
      case "bundle": {
        const code = bundles.get(entry.path);
        if (code === undefined) return send(res, entry, 404, { "content-type": "text/plain" }, `no bundle published at ${entry.path}`);
        return send(res, entry, 200, { "content-type": "text/javascript; charset=utf-8", "access-control-allow-origin": "*" }, code);
      }
      case "page":
        return answerPage(entry, res);
      case "video":
      case "third-party": {
        // A test's override first; without one, the video platform serves its mock API and embed pages (youtube.ts).
        if (entry.kind === "video" && !scripts.has(entry.host + entry.path)) return answerVideo(entry, res);
        const override = scripts.get(entry.host + entry.path) ?? {};
        if (override.delayMs) await sleep(override.delayMs);
        const status = override.status ?? 200;
        const body = override.body ?? (status >= 400 ? `${status} from the test server` : `(window.__thirdParty = window.__thirdParty || []).push(${JSON.stringify(entry.url)});\n`);
        return send(res, entry, status, { "content-type": override.contentType ?? "text/javascript; charset=utf-8", "access-control-allow-origin": "*" }, body);
      }
    }
  }

  function answerVideo(entry: RecordedRequest, res: ServerResponse) {
    if (entry.path === "/iframe_api") return send(res, entry, 200, { "content-type": "text/javascript; charset=utf-8" }, YOUTUBE_API_MOCK);
    if (entry.path.startsWith("/embed/")) return send(res, entry, 200, { "content-type": "text/html; charset=utf-8" }, youtubeEmbedPage(entry.path));
    return send(res, entry, 404, { "content-type": "text/plain" }, "not found");
  }

  async function answerEdge(entry: RecordedRequest, res: ServerResponse): Promise<void> {
    const origin = entry.headers.origin;
    const cors: Record<string, string> = origin ? { "access-control-allow-origin": origin, "access-control-allow-credentials": "true", vary: "Origin" } : {};
    if (entry.method === "OPTIONS") {
      return send(res, entry, 204, {
        ...cors,
        "access-control-allow-methods": "POST, GET, OPTIONS",
        "access-control-allow-headers": String(entry.headers["access-control-request-headers"] ?? "content-type"),
        "access-control-max-age": "600",
      });
    }
    const response: EdgeResponse = edgeQueue.shift() ?? web.edge.handler?.(entry) ?? { status: 200, body: { requestId: entry.query.requestId ?? randomUUID(), handle: [] } };
    if (response.fault === "reset") return void res.socket?.destroy();
    if (response.fault === "hang") return void hanging.add(res);
    if (response.delayMs) await sleep(response.delayMs);
    const body = response.body === undefined ? undefined : typeof response.body === "string" ? response.body : JSON.stringify(response.body);
    const type: Record<string, string> = body === undefined ? {} : { "content-type": typeof response.body === "string" ? "text/plain; charset=utf-8" : "application/json;charset=utf-8" };
    return send(res, entry, response.status, { ...cors, ...type, ...response.headers }, body);
  }

  function answerPage(entry: RecordedRequest, res: ServerResponse) {
    const route = findPage(pages, entry.host, entry.path);
    if (!route) {
      const status = entry.path === "/favicon.ico" ? 204 : 404;
      return send(res, entry, status, { "content-type": "text/plain" }, status === 404 ? `no page registered for ${entry.host}${entry.path}` : undefined);
    }
    const options = route.options;
    const nonce = options.nonce ?? randomBytes(16).toString("base64");
    entry.nonce = nonce;
    const headers: Record<string, string | string[]> = { "content-type": "text/html; charset=utf-8", ...options.headers };
    if (options.csp) headers["content-security-policy"] = (options.csp === true ? STRICT_CSP : options.csp).replace(/\{nonce\}/g, nonce);
    if (options.cookies?.length) headers["set-cookie"] = options.cookies;
    return send(res, entry, 200, headers, renderPage(options, entry, nonce, bundleUrl(options.bundle)));
  }

  function bundleUrl(bundle: PageOptions["bundle"]): string | undefined {
    if (bundle === undefined || typeof bundle === "string") return bundle;
    return web.serveBundle(bundle);
  }

  const servers: Server[] = [createHttpsServer({ key, cert }, handle("https")), createHttpServer(handle("http"))];
  for (const server of servers) server.keepAliveTimeout = 1000;
  const [httpsPort, httpPort] = await Promise.all(servers.map((server) => listen(server)));
  web.httpsPort = httpsPort;
  web.httpPort = httpPort;
  return web;
}

/** The page template: data layer, inline scripts and the bundle's tag, all carrying the nonce. */
function renderPage(options: PageOptions, entry: RecordedRequest, nonce: string, bundleSrc: string | undefined): string {
  const n = escapeAttr(nonce);
  const inline = (code: string) => `<script nonce="${n}">${code.replace(/<\/script/gi, "<\\/script")}</script>`;
  const scripts: string[] = [];
  if (options.dataLayer?.length) {
    const name = JSON.stringify(options.dataLayerName ?? "kiwiDataLayer");
    const pushes = options.dataLayer.map((item) => `w.push(${JSON.stringify(item).replace(/</g, "\\u003c")});`).join("");
    scripts.push(inline(`var w = window[${name}] = window[${name}] || [];${pushes}`));
  }
  for (const code of options.before ?? []) scripts.push(inline(code));
  if (bundleSrc) scripts.push(`<script src="${escapeAttr(bundleSrc)}" nonce="${n}"${options.async ? " async" : ""}></script>`);
  for (const code of options.after ?? []) scripts.push(inline(code));
  const inHead = (options.bundleIn ?? "head") === "head";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(entry.host + entry.path)}</title>
${inHead ? scripts.join("\n") : ""}
${options.head ?? ""}
</head>
<body>
<h1>${escapeHtml(entry.path)}</h1>
${options.body ?? ""}
${inHead ? "" : scripts.join("\n")}
</body>
</html>
`;
}

function findPage(pages: PageRoute[], host: string, path: string): PageRoute | undefined {
  const exact = pages.find((p) => !p.prefix && p.host === host && p.path === path);
  if (exact) return exact;
  return pages
    .filter((p) => p.prefix && p.host === host && path.startsWith(p.path))
    .sort((a, b) => b.path.length - a.path.length)[0];
}

function kindOf(host: string): RequestKind {
  if (host === EDGE_HOST) return "edge";
  if (host === CDN_HOST) return "bundle";
  if (host === "youtube.com" || host.endsWith(".youtube.com")) return "video";
  if (host === APEX || host.endsWith(`.${APEX}`) || isLocal(host)) return "page";
  return "third-party";
}

function isLocal(host: string): boolean {
  return host === "localhost" || host === "127.0.0.1";
}

function hostName(hostHeader: string): string {
  return hostHeader.replace(/:\d+$/, "").toLowerCase();
}

function toPredicate(match: RequestMatch): (r: RecordedRequest) => boolean {
  if (typeof match === "function") return match;
  return (r) =>
    (match.host === undefined || r.host === match.host) &&
    (match.method === undefined || r.method === match.method.toUpperCase()) &&
    (match.kind === undefined || r.kind === match.kind) &&
    (match.path === undefined || (typeof match.path === "string" ? r.path === match.path : match.path.test(r.path)));
}

function describeMatch(match: RequestMatch): string {
  if (typeof match === "function") return match.name || "the predicate";
  return JSON.stringify(match, (_k, v: unknown) => (v instanceof RegExp ? String(v) : v));
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttr(text: string): string {
  return escapeHtml(text).replace(/"/g, "&quot;");
}

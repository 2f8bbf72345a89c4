/**
 * The local web the browser tests run against: one Node server, on an
 * ephemeral port for HTTPS (self-signed, see certs.ts) and another for plain
 * HTTP, routing every request by its Host header. The servers, the host
 * roles, the edge's CORS and the third-party stand-in script are the local
 * fictional web's, shared with the preview (preview/server/fictional-web.ts). Chromium maps all the
 * fictional names to it (browser.ts), so URLs look real: no ports, e.g.
 * https://clep-qa.kiwi.example/contact-us.
 *
 * Who answers what:
 * - `edge.kiwi.example`: the mock Adobe Edge endpoint. Records every request
 *   (fetch and navigator.sendBeacon alike, CORS preflights too) and answers
 *   200 `{"requestId": <the query's requestId>, "handle": []}` unless a test
 *   queued other answers (`web.edge.respond(...)`) or set `web.edge.handler`.
 * - `creds.kiwi.example`, `creds-ENV.kiwi.example`: the mock credential
 *   service of the startup sequence (`web.credentials.handler`; default 200
 *   `{"cbJwtToken": "mock-cb-jwt"}`, CORS with credentials).
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
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  edgeCorsHeaders,
  edgePreflightHeaders,
  hostName,
  hostResolverRules,
  hostRole,
  isLocalHost,
  recordSelfScript,
  sleep,
  startWebServer,
  type WebProtocol,
} from "../../../preview/server/fictional-web";
import { testCertificate } from "./certs.js";
import { findPage, renderPage, type PageRoute } from "./pages.js";
import { describeMatch, toPredicate } from "./request-match.js";
import type { EdgeResponse, PageOptions, RecordedRequest, RequestKind, ScriptOverride, TestWeb } from "./web-types.js";
import { YOUTUBE_API_MOCK, youtubeEmbedPage } from "./youtube.js";
import { fetchFromOrigin, type Origin } from "./cdn-origin.js";

/** The organisation's apex domain in the catalogue (sites/_org.yaml). */
export const APEX = "kiwi.example";
export const EDGE_HOST = `edge.${APEX}`;
export const CDN_HOST = `cdn.${APEX}`;
/** The credential service's hosts in the catalogue (sites/_org.yaml envs.ENV.identity.credentials.serviceUrl). */
export const CREDENTIALS_HOST = /^creds(-[a-z]+)?\.kiwi\.example$/;

/**
 * The strict policy of the contract's pages: nonce-based, 'strict-dynamic',
 * no 'unsafe-eval' (nor 'unsafe-inline'). `{nonce}` is replaced per response.
 */
export const STRICT_CSP = "script-src 'nonce-{nonce}' 'strict-dynamic'; object-src 'none'; base-uri 'none'";
/** Nonce only, no 'strict-dynamic': a script injected without the nonce is blocked. */
export const NONCE_ONLY_CSP = "script-src 'nonce-{nonce}'; object-src 'none'; base-uri 'none'";

export * from "./web-types.js";

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
      if (bundle.deferred) bundles.set(`/${bundle.deferred.file}`, bundle.deferred.code);
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
    credentials: { handler: undefined },
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
      web.credentials.handler = undefined;
      for (const res of hanging) res.socket?.destroy();
      hanging.clear();
    },
    async close() {
      await servers.close();
    },
  };

  function record(req: IncomingMessage, protocol: WebProtocol, body: string): RecordedRequest {
    const host = hostName(req.headers.host ?? "");
    const url = new URL(req.url ?? "/", `${protocol}://${req.headers.host ?? "unknown"}`);
    if (url.port && !isLocalHost(host)) url.port = "";
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
      case "credentials":
        return answerCredentials(entry, res);
      case "bundle": {
        const code = bundles.get(entry.path);
        // A test's override of a CDN file (held back or failing: split task).
        const held = scripts.get(entry.host + entry.path);
        if (held) {
          await held.until;
          if (held.status !== undefined || held.body !== undefined)
            return send(
              res,
              entry,
              held.status ?? 200,
              { "content-type": "text/javascript; charset=utf-8", "access-control-allow-origin": "*" },
              held.body ?? "",
            );
        }
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
        await override.until;
        const status = override.status ?? 200;
        const body = override.body ?? (status >= 400 ? `${status} from the test server` : recordSelfScript(entry.url));
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
    const cors = edgeCorsHeaders(origin);
    if (entry.method === "OPTIONS") return send(res, entry, 204, edgePreflightHeaders(origin, entry.headers["access-control-request-headers"]));
    const response: EdgeResponse = edgeQueue.shift() ??
      web.edge.handler?.(entry) ?? { status: 200, body: { requestId: entry.query.requestId ?? randomUUID(), handle: [] } };
    if (response.fault === "reset") return void res.socket?.destroy();
    if (response.fault === "hang") return void hanging.add(res);
    if (response.delayMs) await sleep(response.delayMs);
    const body = response.body === undefined ? undefined : typeof response.body === "string" ? response.body : JSON.stringify(response.body);
    const type: Record<string, string> =
      body === undefined ? {} : { "content-type": typeof response.body === "string" ? "text/plain; charset=utf-8" : "application/json;charset=utf-8" };
    return send(res, entry, response.status, { ...cors, ...type, ...response.headers }, body);
  }

  /** The credential service: CORS with credentials (the call sends the sign-in cookies and an authorization header, so a preflight comes first). */
  async function answerCredentials(entry: RecordedRequest, res: ServerResponse): Promise<void> {
    const origin = entry.headers.origin;
    if (entry.method === "OPTIONS") return send(res, entry, 204, edgePreflightHeaders(origin, entry.headers["access-control-request-headers"]));
    const response: EdgeResponse = web.credentials.handler?.(entry) ?? { status: 200, body: { cbJwtToken: "mock-cb-jwt" } };
    if (response.fault === "reset") return void res.socket?.destroy();
    if (response.fault === "hang") return void hanging.add(res);
    if (response.delayMs) await sleep(response.delayMs);
    const body = response.body === undefined ? undefined : typeof response.body === "string" ? response.body : JSON.stringify(response.body);
    const type: Record<string, string> = body === undefined ? {} : { "content-type": typeof response.body === "string" ? "text/plain" : "application/json" };
    return send(res, entry, response.status, { ...edgeCorsHeaders(origin), ...type, ...response.headers }, body);
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

  // The entry is recorded before it is answered; an error while answering is a 500 that says so.
  const entries = new WeakMap<ServerResponse, RecordedRequest>();
  const servers = await startWebServer({
    key,
    cert,
    port: 0,
    http: true,
    keepAliveTimeoutMs: 1000,
    handler(req, res, body, protocol) {
      const entry = record(req, protocol, body.toString("utf8"));
      entries.set(res, entry);
      return answer(entry, res);
    },
    onError(res, e) {
      const entry = entries.get(res);
      if (entry) send(res, entry, 500, { "content-type": "text/plain" }, `test server error: ${e.message}`);
      else res.writeHead(500).end(`test server error: ${e.message}`);
    },
  });
  web.httpsPort = servers.httpsPort;
  web.httpPort = servers.httpPort;
  return web;
}

/** Chromium's --host-resolver-rules for the test web: every fictional name, and the video platform. */
export const testHostRules = (port: number): string => hostResolverRules(port, ["*.youtube.com"]);

function kindOf(host: string): RequestKind {
  if (host === "youtube.com" || host.endsWith(".youtube.com")) return "video";
  if (CREDENTIALS_HOST.test(host)) return "credentials";
  const role = hostRole(host, APEX);
  return role === "edge" ? "edge" : role === "cdn" ? "bundle" : role === "site" || role === "local" ? "page" : "third-party";
}

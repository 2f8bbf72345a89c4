/**
 * The preview server: one HTTPS port that answers for every fictional host
 * by the Host header (Chromium maps them all to it with
 * --host-resolver-rules, so URLs carry no port):
 *
 *   preview.kiwi.example   the React app (preview/dist) and its API:
 *                          /api/catalogue, /api/bundle, /api/stage,
 *                          /api/edge-mode, /api/events (Server-Sent Events of
 *                          every request below), /api/requests (polling)
 *   cdn.kiwi.example       the bundles of dist/ (manifest files and aliases)
 *   edge.kiwi.example      the mock edge (edge.ts); every request recorded
 *   site hosts             the mock page (mock-page.ts) with the bundle that
 *                          runs on that host, under a strict CSP; /files/* are
 *                          downloads
 *   any other host         a third party: stub script, 1x1 image or page
 *
 * `npm run preview` (scripts/preview.js) starts it; tests import
 * startPreview() and pass a dist and port 0.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { join } from "node:path";
import type { NetworkKind, NetworkRecord } from "../src/lib/protocol";
import { HOP_PARAM } from "../src/lib/state";
import { ensureAppBuilt, REPO_DIR } from "./app-build";
import { createStaticFiles, TYPES } from "./static-files";
import { previewCertificate } from "./certs";
import { DistSet, type DistSource, type LoadedBundle } from "./dists";
import { EDGE_MODES, edgeAnswer, type EdgeMode } from "./edge";
import { startProxy, type Upstream } from "./proxy";
import { CSP_POLICIES, cspHeader, embedTags, renderHopPage, renderInfoPage, renderMockPage, renderThirdPartyPage, type CspMode } from "./mock-page";

export interface PreviewOptions {
  /** The dist to serve (default: the repository's dist/). */
  distDir?: string;
  /** A second dist (e.g. a build of another branch), served beside the first as "compare". */
  compareDistDir?: string;
  /** HTTPS port (default 8443; 0 for any free port). */
  port?: number;
  /** Address to listen on (default 127.0.0.1). */
  bind?: string;
  /** Build the app when missing or stale (default true). */
  buildApp?: boolean;
  /** Build the app even when it is up to date. */
  rebuildApp?: boolean;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
  /** Proxy mode (proxy.ts): also listen as an HTTP proxy on this port (0: any free one) for Chromium's --proxy-server. */
  proxyPort?: number;
  /** Proxy mode: where a site host's real pages are (default: the host itself, port 443, for every site host of the manifest). */
  upstream?: (host: string) => Upstream | undefined;
}

export interface PreviewServer {
  port: number;
  apex: string;
  previewHost: string;
  /** The app's URL (hosts mapped by the browser, so no port). */
  url: string;
  /** Every request recorded so far (not the app's own). */
  readonly records: NetworkRecord[];
  dists: DistSet;
  /** Proxy mode: the proxy's port. */
  proxyPort?: number;
  /** The Chromium command line that opens the preview. */
  chromiumCommand(options?: { profileDir?: string; url?: string; binary?: string }): string;
  close(): Promise<void>;
}

const MAX_RECORDS = 5000;
const MAX_BODY = 256 * 1024;
/** The consent banner SDK's stand-in: no UI; on load it calls OptanonWrapper when a choice is on record, as the real SDK does. */
const BANNER_STUB = `(function () {
  if (typeof window.OnetrustActiveGroups === "string" && typeof window.OptanonWrapper === "function") {
    try { window.OptanonWrapper(); } catch (e) { /* the page's business */ }
  }
})();
`;
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

export async function startPreview(options: PreviewOptions = {}): Promise<PreviewServer> {
  const log = options.log ?? (() => undefined);
  const sources: DistSource[] = [{ label: "dist", dir: options.distDir ?? join(REPO_DIR, "dist") }];
  if (options.compareDistDir) sources.push({ label: "compare", dir: options.compareDistDir });
  const dists = new DistSet(sources);
  if (options.buildApp !== false) {
    const r = await ensureAppBuilt({ log, force: options.rebuildApp });
    if (r.built) log(`preview app built in ${r.ms} ms`);
  }
  const { key, cert } = await previewCertificate();
  const apex = dists.apex();
  const previewHost = `preview.${apex}`;
  const cdnHost = `cdn.${apex}`;

  const files = createStaticFiles();
  const records: NetworkRecord[] = [];
  const clients = new Set<ServerResponse>();
  const stages = new Map<string, { key?: string; csp: CspMode }>();
  const attempts = new Map<string, number>();
  let edgeMode: EdgeMode = "ok";
  let seq = 0;

  function publish(record: NetworkRecord) {
    records.push(record);
    if (records.length > MAX_RECORDS) records.splice(0, records.length - MAX_RECORDS);
    const frame = `id: ${record.seq}\nevent: request\ndata: ${JSON.stringify(record)}\n\n`;
    for (const c of clients) c.write(frame);
  }

  function kindOf(host: string): NetworkKind | "app" | "help" {
    if (host === previewHost) return "app";
    if (host === cdnHost) return "bundle";
    if (host === `edge.${apex}` || dists.edgeHosts().has(host)) return "edge";
    if (host === "localhost" || host === "127.0.0.1") return "help";
    if (host === apex || host.endsWith(`.${apex}`) || dists.knownHosts().has(host)) return "page";
    return "third-party";
  }

  async function handle(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    const hostHeader = String(req.headers.host ?? "");
    const host = hostHeader.replace(/:\d+$/, "").toLowerCase();
    const portSuffix = /:(\d+)$/.exec(hostHeader)?.[1];
    const url = new URL(req.url ?? "/", `https://${host}${portSuffix ? `:${portSuffix}` : ""}`);
    const kind = kindOf(host);
    if (kind === "app") return answerApp(req, res, url, body);
    if (kind === "help") return send(res, 200, { "content-type": TYPES[".html"] }, helpPage());

    let requestKind: NetworkKind = kind;
    const dest = header(req, "sec-fetch-dest");
    if (kind === "page" && url.pathname.startsWith("/files/")) requestKind = "file";
    else if (kind === "page" && dest && !["document", "iframe", "frame"].includes(dest) && url.pathname !== "/favicon.ico") requestKind = "asset";
    const record: NetworkRecord = {
      seq: ++seq,
      time: Date.now(),
      kind: requestKind,
      host,
      method: req.method ?? "GET",
      url: `https://${host}${url.pathname}${url.search}`,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      origin: header(req, "origin"),
      referer: header(req, "referer"),
      dest: header(req, "sec-fetch-dest"),
      mode: header(req, "sec-fetch-mode"),
    };
    if (requestKind === "edge") {
      record.body = body.subarray(0, MAX_BODY).toString("utf8");
      record.edgeMode = edgeMode;
      const unloadOf = /(?:^|;\s*)__sitetags_preview_unload=([^;]+)/.exec(header(req, "cookie") ?? "")?.[1];
      if (unloadOf) record.unloadOf = unloadOf;
    }
    const started = performance.now();
    let done = false;
    const finish = (status: number) => {
      if (done) return;
      done = true;
      record.status = status;
      record.durationMs = Math.round(performance.now() - started);
      publish(record);
    };
    res.on("finish", () => finish(res.statusCode));
    res.on("close", () => finish(res.writableFinished ? res.statusCode : 0));

    switch (requestKind) {
      case "bundle": {
        const file = dists.fileForCdnPath(url.pathname);
        if (!file) return send(res, 404, { "content-type": "text/plain", "access-control-allow-origin": "*" }, `no bundle at ${url.pathname} in the manifest`);
        return send(res, 200, { "content-type": TYPES[".js"], "access-control-allow-origin": "*", "cache-control": "no-store" }, readFileSync(file));
      }
      case "edge":
        return answerEdge(req, res, record);
      case "file":
        return send(res, 200, { "content-type": "application/pdf", "content-disposition": `attachment; filename="${url.pathname.split("/").pop()}"` }, "%PDF-1.4\n% sitetags preview: a stand-in download\n%%EOF\n");
      case "page":
        if (url.pathname === "/favicon.ico") return send(res, 204, {});
        return answerPage(res, host, url, portSuffix);
      case "asset":
        return answerAsset(res, host, record);
      default:
        return answerThirdParty(req, res, record);
    }
  }

  function answerPage(res: ServerResponse, host: string, url: URL, portSuffix: string | undefined) {
    const stage = stages.get(host);
    const bundle: LoadedBundle | undefined = (stage?.key ? dists.byKey(stage.key) : undefined) ?? dists.forHost(host);
    const csp = stage?.csp ?? "strict";
    const nonce = randomBytes(16).toString("base64");
    const headers: Record<string, string> = { "content-type": TYPES[".html"], "cache-control": "no-store" };
    const policy = cspHeader(csp, nonce);
    if (policy) headers["content-security-policy"] = policy;
    const src = bundle ? `https://${cdnHost}${portSuffix ? `:${portSuffix}` : ""}${dists.cdnPath(bundle)}` : undefined;
    const html = renderMockPage({
      host,
      path: url.pathname,
      nonce,
      csp,
      bundle: bundle && src ? { src, integrity: bundle.integrity, site: bundle.site, env: bundle.env, siteName: bundle.config?.site.name, dataLayerName: bundle.config?.dataLayerName ?? "kiwiDataLayer", apex } : undefined,
      missing: bundle ? undefined : `no bundle in the manifest runs on ${host}`,
    });
    send(res, 200, headers, html);
  }

  /**
   * A script or image of the site's own host: the first-party id script (the bundle's identity.fpid.src), which
   * writes its cookie as the real one would, or a script that records itself; images are 1x1.
   */
  function answerAsset(res: ServerResponse, host: string, record: NetworkRecord) {
    if (record.dest === "image") return send(res, 200, { "content-type": "image/gif" }, GIF);
    if (record.dest !== "script") return send(res, 204, { "access-control-allow-origin": "*" });
    const recordSelf = `(window.__thirdParty = window.__thirdParty || []).push(${JSON.stringify(record.url)});\n`;
    const bundle = dists.forHost(host);
    const fpid = (bundle?.config?.raw.identity as { fpid?: { src?: unknown; cookie?: unknown } } | undefined)?.fpid;
    const fpidPath = typeof fpid?.src === "string" ? fpid.src : "/fpid.js";
    if (record.path !== fpidPath) return send(res, 200, { "content-type": TYPES[".js"] }, recordSelf);
    const cookie = typeof fpid?.cookie === "string" ? fpid.cookie : "kiwi_fpid";
    const script = `${recordSelf}(function () {
  var name = ${JSON.stringify(cookie)};
  if (document.cookie.split("; ").some(function (c) { return c.indexOf(name + "=") === 0; })) return;
  var id = "fp-" + Math.random().toString(16).slice(2, 10) + Math.random().toString(16).slice(2, 10);
  document.cookie = name + "=" + id + "; path=/; domain=${apex}; max-age=34128000; secure; samesite=lax";
})();
`;
    return send(res, 200, { "content-type": TYPES[".js"] }, script);
  }

  async function answerEdge(req: IncomingMessage, res: ServerResponse, record: NetworkRecord) {
    const origin = header(req, "origin");
    const cors: Record<string, string> = origin ? { "access-control-allow-origin": origin, "access-control-allow-credentials": "true", vary: "Origin" } : {};
    if (record.method === "OPTIONS")
      return send(res, 204, { ...cors, "access-control-allow-methods": "POST, GET, OPTIONS", "access-control-allow-headers": header(req, "access-control-request-headers") ?? "content-type", "access-control-max-age": "600" });
    const requestId = record.query.requestId ?? "";
    const attempt = (attempts.get(requestId) ?? 0) + 1;
    attempts.set(requestId, attempt);
    if (attempts.size > 10000) attempts.clear();
    const answer = edgeAnswer(edgeMode, { query: record.query, attempt }, dists.orgIdFor(record.query.configId));
    if (answer.delayMs) await sleep(answer.delayMs);
    if (answer.drop) {
      res.socket?.destroy();
      return;
    }
    send(res, answer.status, { ...cors, ...answer.headers }, answer.body);
  }

  function answerThirdParty(req: IncomingMessage, res: ServerResponse, record: NetworkRecord) {
    const cors = { "access-control-allow-origin": "*" };
    const dest = record.dest ?? "";
    const hop = record.query[HOP_PARAM];
    if (hop && /^https:\/\//.test(hop)) return send(res, 200, { "content-type": TYPES[".html"], "cache-control": "no-store" }, renderHopPage(hop));
    if (dest === "image" || /\.(gif|png|jpe?g)$/i.test(record.path)) return send(res, 200, { ...cors, "content-type": "image/gif" }, GIF);
    if (dest === "iframe" || dest === "document" || dest === "frame") return send(res, 200, { "content-type": TYPES[".html"] }, renderThirdPartyPage(record.url));
    if (dest === "style") return send(res, 200, { ...cors, "content-type": TYPES[".css"] }, "/* third-party stub */\n");
    if (dest === "script" || /\.js$/i.test(record.path)) {
      const recordSelf = `(window.__thirdParty = window.__thirdParty || []).push(${JSON.stringify(record.url)});\n`;
      return send(res, 200, { ...cors, "content-type": TYPES[".js"] }, bannerScripts().has(record.url.replace(/\?.*/, "")) ? recordSelf + BANNER_STUB : recordSelf);
    }
    return send(res, 204, cors);
  }

  /** The consent banner script of every bundle (its stand-in calls OptanonWrapper like the real SDK; the preview's Banner buttons play the visitor). */
  function bannerScripts(): Set<string> {
    const out = new Set<string>();
    for (const b of dists.all()) {
      const banner = (b.config?.raw.consent as { banner?: { scriptSrc?: unknown } } | undefined)?.banner;
      if (typeof banner?.scriptSrc === "string") out.add(banner.scriptSrc.replace(/\?.*/, ""));
    }
    return out;
  }

  function catalogue() {
    return {
      apex,
      previewHost,
      cdnHost,
      edgeMode,
      edgeModes: EDGE_MODES,
      cspModes: Object.keys(CSP_POLICIES),
      dists: sources.map((s) => ({ label: s.label, dir: s.dir })),
      problems: dists.problems(),
      bundles: dists.all().map((b) => ({
        key: b.key,
        dist: b.dist,
        site: b.site,
        env: b.env,
        file: b.file,
        alias: b.alias,
        bytes: b.bytes,
        gzipBytes: b.gzipBytes,
        integrity: b.integrity,
        modules: b.modules,
        inputsHash: b.inputsHash,
        host: b.host,
        name: b.config?.site.name,
        internal: b.config?.site.internal ?? false,
        problem: b.problem,
      })),
    };
  }

  async function answerApp(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer) {
    const json = (status: number, value: unknown) => send(res, status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" }, JSON.stringify(value));
    const p = url.pathname;
    if (p === "/api/health") return json(200, { ok: true });
    if (p === "/api/catalogue") return json(200, catalogue());
    if (p === "/api/bundle") {
      const b = dists.byKey(url.searchParams.get("key") ?? "");
      if (!b) return json(404, { error: "no such bundle" });
      const { config, ...info } = b;
      return json(200, { info, config: config?.raw ?? null, problem: b.problem });
    }
    if (p === "/api/stage" && req.method === "POST") {
      const input = parseBody(body) as { host?: string; key?: string; csp?: string };
      if (!input.host) return json(400, { error: "host is required" });
      stages.set(input.host, { key: input.key, csp: (Object.keys(CSP_POLICIES).includes(input.csp ?? "") ? input.csp : "strict") as CspMode });
      return json(200, { ok: true });
    }
    if (p === "/api/edge-mode" && req.method === "POST") {
      const input = parseBody(body) as { mode?: string };
      if (!EDGE_MODES.includes(input.mode as EdgeMode)) return json(400, { error: `mode must be one of ${EDGE_MODES.join(", ")}` });
      edgeMode = input.mode as EdgeMode;
      return json(200, { mode: edgeMode });
    }
    if (p === "/api/requests") {
      const since = Number(url.searchParams.get("since") ?? 0);
      return json(200, { records: records.filter((r) => r.seq > since) });
    }
    if (p === "/api/events") {
      const since = Number(header(req, "last-event-id") ?? url.searchParams.get("since") ?? seq);
      res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", connection: "keep-alive" });
      res.write(`retry: 1000\nevent: hello\ndata: ${JSON.stringify({ seq })}\n\n`);
      for (const r of records) if (r.seq > since) res.write(`id: ${r.seq}\nevent: request\ndata: ${JSON.stringify(r)}\n\n`);
      clients.add(res);
      const ping = setInterval(() => res.write(": ping\n\n"), 15000);
      // The response's close (the request's fires as soon as its body is read).
      res.on("close", () => {
        clearInterval(ping);
        clients.delete(res);
      });
      return;
    }
    if (p.startsWith("/api/")) return json(404, { error: `no API ${p}` });
    // The guide the first screen links to (docs/preview.md and its screenshots).
    const doc = files.doc(p);
    if (doc) return send(res, doc.status, doc.headers, doc.body);
    return serveStatic(req, res, p);
  }

  function serveStatic(req: IncomingMessage, res: ServerResponse, path: string) {
    const file = files.app(path, header(req, "accept-encoding") ?? "");
    if (!file) return send(res, 503, { "content-type": TYPES[".html"] }, renderInfoPage("The preview app is not built", "<p>Run <code>npm run preview</code>: it builds the app (preview/dist) before it starts.</p>"));
    send(res, file.status, file.headers, file.body);
  }

  function helpPage() {
    return renderInfoPage(
      "sitetags preview",
      `<p>The preview answers by host name. Open it as <code>https://${previewHost}/</code> in a browser that maps the fictional hosts to this server:</p>
<pre>${escapeHtml(server.chromiumCommand())}</pre>
<p>Or map the names in <code>/etc/hosts</code> (see docs/preview.md).</p>`,
    );
  }

  const sockets = new Set<Socket>();
  const httpsServer: Server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      handle(req, res, Buffer.concat(chunks)).catch((e: Error) => {
        if (!res.headersSent) send(res, 500, { "content-type": "text/plain" }, `preview server error: ${e.message}`);
      });
    });
  });
  httpsServer.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  httpsServer.keepAliveTimeout = 5000;
  const port = await new Promise<number>((resolve, reject) => {
    httpsServer.once("error", reject);
    httpsServer.listen(options.port ?? 8443, options.bind ?? "127.0.0.1", () => resolve((httpsServer.address() as AddressInfo).port));
  });

  let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
  if (options.proxyPort !== undefined) {
    const upstream = options.upstream ?? ((host: string) => (dists.knownHosts().has(host) ? { host, port: 443 } : undefined));
    proxy = await startProxy(
      {
        previewPort: port,
        key,
        cert,
        upstream,
        log,
        replacement(host, csp) {
          const stage = stages.get(host);
          const b = (stage?.key ? dists.byKey(stage.key) : undefined) ?? dists.forHost(host);
          if (!b) return undefined;
          const bundle = { src: `https://${cdnHost}${dists.cdnPath(b)}`, integrity: b.integrity, site: b.site, env: b.env, dataLayerName: b.config?.dataLayerName ?? "kiwiDataLayer", apex };
          return (nonce) => embedTags({ nonce, csp, bundle });
        },
      },
      options.proxyPort,
      options.bind,
    );
  }

  const server: PreviewServer = {
    port,
    proxyPort: proxy?.port,
    apex,
    previewHost,
    url: `https://${previewHost}/`,
    records,
    dists,
    chromiumCommand(o = {}) {
      const profile = o.profileDir ?? "/tmp/sitetags-preview-profile";
      return `${o.binary ?? "chromium"} --user-data-dir=${profile} --host-resolver-rules="${hostRules(port)}" --ignore-certificate-errors ${o.url ?? server.url}`;
    },
    async close() {
      await proxy?.close();
      for (const c of clients) c.end();
      clients.clear();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => httpsServer.close(() => resolve()));
    },
  };
  return server;
}

/** Every fictional name (and the one search engine the referrer presets use) to the preview's port. */
export function hostRules(port: number): string {
  return `MAP *.example 127.0.0.1:${port},MAP www.google.com 127.0.0.1:${port}`;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body?: string | Buffer) {
  res.writeHead(status, headers);
  res.end(body);
}

function parseBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8")) as unknown;
  } catch {
    return {};
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

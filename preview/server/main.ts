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
 * The server, the host roles, the edge's CORS and the third-party stand-ins
 * are the local fictional web's, shared with the browser-test harness
 * (fictional-web.ts, certs.ts); the app's host is api.ts, assets and third
 * parties third-party.ts.
 *
 * `npm run preview` (scripts/preview.js) starts it; tests import
 * startPreview() and pass a dist and port 0.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import type { NetworkKind, NetworkRecord } from "../src/lib/protocol";
import { createAppApi, type PreviewState } from "./api";
import { ensureAppBuilt, REPO_DIR } from "./app-build";
import { createStaticFiles, TYPES } from "./static-files";
import { previewCertificate } from "./certs";
import { DistSet, type DistSource, type LoadedBundle } from "./dists";
import { edgeAnswer } from "./edge";
import { edgeCorsHeaders, edgePreflightHeaders, escapeHtml, header, hostName, hostResolverRules, hostRole, send, sleep, startWebServer } from "./fictional-web";
import { startProxy, type Upstream } from "./proxy";
import { cspHeader, embedTags, renderInfoPage, renderMockPage } from "./mock-page";
import { answerAsset, answerThirdParty } from "./third-party";

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
  const state: PreviewState = {
    apex,
    previewHost: `preview.${apex}`,
    cdnHost: `cdn.${apex}`,
    sources,
    dists,
    records: [],
    clients: new Set(),
    stages: new Map(),
    edgeMode: "ok",
    seq: 0,
  };
  const { previewHost, cdnHost, records, clients, stages } = state;
  const answerApp = createAppApi(state, createStaticFiles());
  const attempts = new Map<string, number>();

  function publish(record: NetworkRecord) {
    records.push(record);
    if (records.length > MAX_RECORDS) records.splice(0, records.length - MAX_RECORDS);
    const frame = `id: ${record.seq}\nevent: request\ndata: ${JSON.stringify(record)}\n\n`;
    for (const c of clients) c.write(frame);
  }

  function kindOf(host: string): NetworkKind | "app" | "help" {
    if (host === previewHost) return "app";
    const role = hostRole(host, apex);
    if (role === "cdn") return "bundle";
    if (role === "edge" || dists.edgeHosts().has(host)) return "edge";
    if (role === "local") return "help";
    if (role === "site" || dists.knownHosts().has(host)) return "page";
    return "third-party";
  }

  async function handle(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    const hostHeader = String(req.headers.host ?? "");
    const host = hostName(hostHeader);
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
      seq: ++state.seq,
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
      record.edgeMode = state.edgeMode;
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
        return send(
          res,
          200,
          { "content-type": "application/pdf", "content-disposition": `attachment; filename="${url.pathname.split("/").pop()}"` },
          "%PDF-1.4\n% sitetags preview: a stand-in download\n%%EOF\n",
        );
      case "page":
        if (url.pathname === "/favicon.ico") return send(res, 204, {});
        return answerPage(res, host, url, portSuffix);
      case "asset":
        return answerAsset(res, host, record, dists, apex);
      default:
        return answerThirdParty(res, record, dists);
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
      bundle:
        bundle && src
          ? {
              src,
              integrity: bundle.integrity,
              site: bundle.site,
              env: bundle.env,
              siteName: bundle.config?.site.name,
              dataLayerName: bundle.config?.dataLayerName ?? "kiwiDataLayer",
              apex,
            }
          : undefined,
      missing: bundle ? undefined : `no bundle in the manifest runs on ${host}`,
    });
    send(res, 200, headers, html);
  }

  async function answerEdge(req: IncomingMessage, res: ServerResponse, record: NetworkRecord) {
    const origin = header(req, "origin");
    if (record.method === "OPTIONS") return send(res, 204, edgePreflightHeaders(origin, header(req, "access-control-request-headers")));
    const requestId = record.query.requestId ?? "";
    const attempt = (attempts.get(requestId) ?? 0) + 1;
    attempts.set(requestId, attempt);
    if (attempts.size > 10000) attempts.clear();
    const answer = edgeAnswer(state.edgeMode, { query: record.query, attempt }, dists.orgIdFor(record.query.configId));
    if (answer.delayMs) await sleep(answer.delayMs);
    if (answer.drop) {
      res.socket?.destroy();
      return;
    }
    send(res, answer.status, { ...edgeCorsHeaders(origin), ...answer.headers }, answer.body);
  }

  function helpPage() {
    return renderInfoPage(
      "sitetags preview",
      `<p>The preview answers by host name. Open it as <code>https://${previewHost}/</code> in a browser that maps the fictional hosts to this server:</p>
<pre>${escapeHtml(server.chromiumCommand())}</pre>
<p>Or map the names in <code>/etc/hosts</code> (see docs/preview.md).</p>`,
    );
  }

  const web = await startWebServer({
    key,
    cert,
    port: options.port ?? 8443,
    bind: options.bind,
    keepAliveTimeoutMs: 5000,
    handler: (req, res, body) => handle(req, res, body),
    onError(res, e) {
      if (!res.headersSent) send(res, 500, { "content-type": "text/plain" }, `preview server error: ${e.message}`);
    },
  });
  const port = web.httpsPort;

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
          const bundle = {
            src: `https://${cdnHost}${dists.cdnPath(b)}`,
            integrity: b.integrity,
            site: b.site,
            env: b.env,
            dataLayerName: b.config?.dataLayerName ?? "kiwiDataLayer",
            apex,
          };
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
      await web.close();
    },
  };
  return server;
}

/** Every fictional name (and the one search engine the referrer presets use) to the preview's port. */
export function hostRules(port: number): string {
  return hostResolverRules(port, ["www.google.com"]);
}

/**
 * Proxy mode: the preview on the real (staging) site. Chromium runs with
 * `--proxy-server=http://127.0.0.1:PROXY_PORT` (and
 * `--ignore-certificate-errors`); every HTTPS connection arrives here as a
 * CONNECT:
 *  - a site host of the manifest that has a real upstream: the proxy
 *    terminates TLS with the preview's own certificate (the only hosts it
 *    reads), fetches each request from the real site, and in every HTML
 *    answer replaces the site's production script tag (…/sitetags.min.js or
 *    …/sitetags.HASH.min.js) with the bridge and the chosen bundle of dist/
 *    (the one the app staged for that host, else the one built for it),
 *    keeping the page's own nonce, CSP and pushes; everything else passes
 *    through unchanged;
 *  - any other host (the app, the CDN, the edge, the third parties): a
 *    plain tunnel to the preview server, which answers by name as without
 *    the proxy.
 * The inspector then reads the real page as it reads a mock page.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:http";
import { request as httpsRequest } from "node:https";
import { connect, type AddressInfo, type Socket } from "node:net";
import { TLSSocket } from "node:tls";

export interface Upstream {
  host: string;
  port: number;
}

export interface ProxyContext {
  /** The preview server's HTTPS port (the tunnel's end for every other host). */
  previewPort: number;
  key: string;
  cert: string;
  /** The real site's address for a site host; undefined: not a real site (tunnel to the preview server). */
  upstream(host: string): Upstream | undefined;
  /** The tags that replace the production script tag on that host (the bridge, then the chosen bundle, with the page's nonce); undefined: leave the page. */
  replacement(host: string, csp: string): ((nonce: string | undefined) => string) | undefined;
  log(line: string): void;
}

/** The production embed: a script whose src ends in sitetags.min.js or sitetags.HASH.min.js. */
const EMBED = /<script\b[^>]*\bsrc\s*=\s*["'][^"']*\/sitetags(?:\.[0-9a-f]{6,})?\.min\.js[^"']*["'][^>]*>\s*<\/script>/i;
const NONCE = /\bnonce\s*=\s*["']([^"']+)["']/i;

/** The page with its production tag replaced (bridge first, then the chosen bundle, both with the tag's nonce); unchanged when it has none. */
export function replaceEmbed(html: string, replacement: (nonce: string | undefined) => string): { html: string; replaced: boolean } {
  const m = EMBED.exec(html);
  if (!m) return { html, replaced: false };
  const nonce = NONCE.exec(m[0])?.[1];
  return { html: html.slice(0, m.index) + replacement(nonce) + html.slice(m.index + m[0].length), replaced: true };
}

export async function startProxy(ctx: ProxyContext, port = 0, bind = "127.0.0.1"): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  // Requests of MITM'd hosts: an HTTP server that never listens; TLS sockets are handed to it.
  const inner = createServer((req, res) => void forward(req, res).catch((e: Error) => fail(res, e)));

  async function forward(req: IncomingMessage, res: ServerResponse) {
    const host = String(req.headers.host ?? "")
      .replace(/:\d+$/, "")
      .toLowerCase();
    const up = ctx.upstream(host);
    if (!up) return fail(res, new Error(`no upstream for ${host}`));
    const headers = { ...req.headers, "accept-encoding": "identity" };
    const upstreamRes = await new Promise<IncomingMessage>((resolve, reject) => {
      const out = httpsRequest(
        { host: up.host, port: up.port, servername: host, method: req.method, path: req.url, headers, rejectUnauthorized: false },
        resolve,
      );
      out.on("error", reject);
      req.pipe(out);
    });
    const type = String(upstreamRes.headers["content-type"] ?? "");
    if (!/text\/html/i.test(type)) {
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
      upstreamRes.pipe(res);
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of upstreamRes) chunks.push(c as Buffer);
    let html = Buffer.concat(chunks).toString("utf8");
    const csp = String(upstreamRes.headers["content-security-policy"] ?? "");
    const swap = ctx.replacement(host, csp);
    if (swap) {
      const r = replaceEmbed(html, swap);
      html = r.html;
      if (!r.replaced) ctx.log(`proxy: no sitetags embed on ${host}${req.url}; the page is passed through as it is`);
    }
    const outHeaders = { ...upstreamRes.headers };
    delete outHeaders["content-length"];
    delete outHeaders["transfer-encoding"];
    delete outHeaders["content-encoding"];
    // The replaced bundle is another file: the page must not be cached as the real one.
    outHeaders["cache-control"] = "no-store";
    res.writeHead(upstreamRes.statusCode ?? 200, outHeaders);
    res.end(html);
  }

  const server: Server = createServer((_req, res) => {
    res.writeHead(501, { "content-type": "text/plain" });
    res.end("sitetags preview proxy: HTTPS only (CONNECT)\n");
  });
  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    const [hostPart, portPart] = String(req.url ?? "").split(":");
    const host = hostPart.toLowerCase();
    client.on("error", () => client.destroy());
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (ctx.upstream(host) && (portPart ?? "443") === "443") {
      const tls = new TLSSocket(client, { isServer: true, key: ctx.key, cert: ctx.cert });
      tls.on("error", () => tls.destroy());
      if (head.length) client.unshift(head);
      inner.emit("connection", tls);
      return;
    }
    const tunnel = connect(ctx.previewPort, "127.0.0.1", () => {
      if (head.length) tunnel.write(head);
      tunnel.pipe(client);
      client.pipe(tunnel);
    });
    tunnel.on("error", () => client.destroy());
    client.on("close", () => tunnel.destroy());
    sockets.add(tunnel);
    tunnel.on("close", () => sockets.delete(tunnel));
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  const actual = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, bind, () => resolve((server.address() as AddressInfo).port));
  });
  return {
    port: actual,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function fail(res: ServerResponse, e: Error) {
  if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
  res.end(`sitetags preview proxy: ${e.message}\n`);
}

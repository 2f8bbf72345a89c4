/**
 * The local "fictional web", shared by the preview server (main.ts) and the
 * browser-test harness (test/browser/harness/servers.ts): one TLS server
 * (and, for the tests, a plain HTTP one) answering for every fictional host
 * by its Host header, Chromium mapping the names to it with
 * --host-resolver-rules, so URLs carry no port.
 *
 * What both serve alike lives here: the servers themselves (request bodies
 * read whole, every socket closed on close), the host names' roles
 * (edge.APEX the mock edge, cdn.APEX the bundles, APEX and *.APEX the sites,
 * localhost, any other host a third party), the mock edge's CORS and
 * preflight answers, and the static third-party stand-ins (a script that
 * records itself in the page, a 1x1 GIF). What each answers on top (the
 * preview's app, dists and edge modes; the tests' registered pages, queued
 * edge answers and overrides) stays with each.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";

/** Every fictional name (*.example) and `extraHosts` to `port` of 127.0.0.1: the value of Chromium's --host-resolver-rules. */
export function hostResolverRules(port: number, extraHosts: readonly string[] = []): string {
  return ["*.example", ...extraHosts].map((host) => `MAP ${host} 127.0.0.1:${port}`).join(",");
}

/** The host name of a Host header: without its port, lower case. */
export const hostName = (hostHeader: string): string => hostHeader.replace(/:\d+$/, "").toLowerCase();

export const isLocalHost = (host: string): boolean => host === "localhost" || host === "127.0.0.1";

export type HostRole = "edge" | "cdn" | "site" | "local" | "third-party";

/** What a host is in the fictional web of the organisation's apex domain. */
export function hostRole(host: string, apex: string): HostRole {
  if (host === `edge.${apex}`) return "edge";
  if (host === `cdn.${apex}`) return "cdn";
  if (isLocalHost(host)) return "local";
  if (host === apex || host.endsWith(`.${apex}`)) return "site";
  return "third-party";
}

/** The mock edge's CORS headers: credentials allowed for the page's origin, as the Edge Network answers. */
export function edgeCorsHeaders(origin: string | undefined): Record<string, string> {
  return origin ? { "access-control-allow-origin": origin, "access-control-allow-credentials": "true", vary: "Origin" } : {};
}

/** The mock edge's answer headers to a CORS preflight (status 204). */
export function edgePreflightHeaders(origin: string | undefined, requestHeaders: string | undefined): Record<string, string> {
  return {
    ...edgeCorsHeaders(origin),
    "access-control-allow-methods": "POST, GET, OPTIONS",
    "access-control-allow-headers": requestHeaders ?? "content-type",
    "access-control-max-age": "600",
  };
}

/** A third party's stand-in script: it records its URL in the page (window.__thirdParty). */
export const recordSelfScript = (url: string): string => `(window.__thirdParty = window.__thirdParty || []).push(${JSON.stringify(url)});\n`;

/** A third party's stand-in image: a 1x1 GIF. */
export const PIXEL_GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

export type WebProtocol = "https" | "http";

export interface WebServerOptions {
  key: string;
  cert: string;
  /** Called once the request's body is read whole; a rejection goes to onError. */
  handler: (req: IncomingMessage, res: ServerResponse, body: Buffer, protocol: WebProtocol) => unknown;
  onError: (res: ServerResponse, error: Error) => void;
  /** HTTPS port (0: any free one). */
  port: number;
  /** Default 127.0.0.1. */
  bind?: string;
  /** Also a plain HTTP server, on any free port. */
  http?: boolean;
  keepAliveTimeoutMs: number;
}

export interface WebServer {
  httpsPort: number;
  /** 0 without the HTTP server. */
  httpPort: number;
  /** Closes every connection (streams and keep-alive ones too) and both servers. */
  close(): Promise<void>;
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const handle = (protocol: WebProtocol) => (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      Promise.resolve()
        .then(() => options.handler(req, res, Buffer.concat(chunks), protocol))
        .catch((e: Error) => options.onError(res, e));
    });
  };
  const servers: Server[] = [createHttpsServer({ key: options.key, cert: options.cert }, handle("https"))];
  if (options.http) servers.push(createHttpServer(handle("http")));
  const sockets = new Set<Socket>();
  for (const server of servers) {
    server.keepAliveTimeout = options.keepAliveTimeoutMs;
    server.on("connection", (s: Socket) => {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
    });
  }
  const bind = options.bind ?? "127.0.0.1";
  const [httpsPort, httpPort = 0] = await Promise.all(servers.map((server, i) => listen(server, i === 0 ? options.port : 0, bind)));
  return {
    httpsPort,
    httpPort,
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
}

function listen(server: Server, port: number, bind: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, bind, () => resolve((server.address() as AddressInfo).port));
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A request header's (first) value. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function send(res: ServerResponse, status: number, headers: Record<string, string>, body?: string | Buffer): void {
  res.writeHead(status, headers);
  res.end(body);
}

/**
 * A real S3-compatible server for the publishing tests: s3rver on
 * 127.0.0.1 (an ephemeral port), its objects in a temp folder, one bucket,
 * dummy credentials in the environment (the SDK's usual chain reads them).
 * And a proxy in front of it that lets the first N uploads through and then
 * drops the connection of every request: the network failing mid-publish.
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import S3rver from "s3rver";
import { tempDir } from "./fs.js";

export const BUCKET = "kiwi-cdn";

export interface LocalS3 {
  endpoint: string;
  port: number;
  /** Plain GET of an object, as a CDN's origin fetch: status, headers and bytes. */
  get(key: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>;
  close(): Promise<void>;
}

export async function startS3(): Promise<LocalS3> {
  process.env.AWS_ACCESS_KEY_ID = "S3RVER";
  process.env.AWS_SECRET_ACCESS_KEY = "S3RVER";
  process.env.AWS_REGION = "us-east-1";
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: tempDir("s3"), configureBuckets: [{ name: BUCKET }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    port,
    get: (key) => httpGet(port, `/${BUCKET}/${key}`),
    close: () => server.close(),
  };
}

export function httpGet(port: number, path: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method: "GET" }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

export interface DroppingProxy {
  endpoint: string;
  /** Requests forwarded, and requests whose connection was dropped. */
  readonly forwarded: number;
  readonly dropped: number;
  /** The requests forwarded, in order of arrival: method and path (/BUCKET/KEY…). */
  readonly log: Array<{ method: string; path: string }>;
  close(): Promise<void>;
}

/**
 * Forwards to the server until `uploadsAllowed` PUTs went through; from then
 * on every request's connection is dropped unanswered. With `corrupt`, the
 * bytes of every upload are damaged on the way (one byte changed, the
 * Content-MD5 header left as sent): what a store that does not check
 * Content-MD5 (s3rver) stores and answers the ETag of.
 */
export async function startDroppingProxy(targetPort: number, uploadsAllowed: number, options: { corrupt?: boolean } = {}): Promise<DroppingProxy> {
  let puts = 0;
  let forwarded = 0;
  let dropped = 0;
  const log: Array<{ method: string; path: string }> = [];
  const server: Server = createServer((req, res) => {
    if (req.method === "PUT") puts++;
    if (puts > uploadsAllowed) {
      dropped++;
      req.socket.destroy();
      return;
    }
    forwarded++;
    log.push({ method: req.method ?? "", path: decodeURIComponent((req.url ?? "").split("?")[0]) });
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (options.corrupt && req.method === "PUT" && body.length) body[body.length - 1] ^= 1;
      const upstream = request({ host: "127.0.0.1", port: targetPort, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on("error", () => res.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    get forwarded() {
      return forwarded;
    },
    get dropped() {
      return dropped;
    },
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A CDN in front of an origin server, for the publishing tests: requests to
 * a host registered with `web.origin(host, { port, path })` are forwarded
 * (method, path) to http://127.0.0.1:PORT/PATH/… (an S3-compatible server's
 * bucket and prefix) and answered with the origin's status, body and
 * content headers, plus `Access-Control-Allow-Origin: *` as the CDN adds it
 * (what a crossorigin="anonymous" script with integrity needs).
 */
import { request, type IncomingHttpHeaders } from "node:http";

export interface Origin {
  port: number;
  /** Path prefix on the origin, e.g. "/BUCKET/PREFIX". */
  path: string;
}

const PASSED = ["content-type", "cache-control", "etag", "last-modified", "content-length"];

export function fetchFromOrigin(origin: Origin, method: string, path: string): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: origin.port, method, path: `${origin.path.replace(/\/$/, "")}${path}` }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 502, headers: pick(res.headers), body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

function pick(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = { "access-control-allow-origin": "*", "x-served-by": "test-cdn" };
  for (const name of PASSED) if (typeof headers[name] === "string") out[name] = headers[name];
  return out;
}

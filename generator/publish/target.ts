/**
 * Where a publish goes: `s3://BUCKET/PREFIX` on S3 or any S3-compatible
 * store (--endpoint), and the S3 client for it: the SDK's default
 * credentials chain and its standard retry strategy, path-style addressing
 * with an endpoint, and a count of the requests sent (the summary and the
 * benchmark report it).
 */
import type { S3Client } from "@aws-sdk/client-s3";
import { s3Sdk } from "./sdk.js";

export interface Target {
  bucket: string;
  /** Key prefix without leading or trailing slash ("" for the bucket's root). */
  prefix: string;
  url: string;
}

export class TargetError extends Error {}

export function parseTarget(url: string): Target {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!m) throw new TargetError(`expected s3://BUCKET/PREFIX (got "${url}")`);
  const prefix = (m[2] ?? "").replace(/^\/+|\/+$/g, "");
  if (prefix.split("/").some((part) => part === "." || part === "..")) throw new TargetError(`the prefix may not hold . or .. (got "${url}")`);
  return { bucket: m[1], prefix, url: `s3://${m[1]}${prefix ? `/${prefix}` : ""}` };
}

/** The object key of a path below the target's prefix. */
export const keyOf = (target: Target, path: string) => (target.prefix ? `${target.prefix}/${path}` : path);

export interface ClientOptions {
  /** An S3-compatible endpoint (MinIO, R2, a local server); path-style addressing then. */
  endpoint?: string;
  /** Default: AWS_REGION, else us-east-1 (S3-compatible stores ignore it). */
  region?: string;
  /** Attempts per request, the first included (the SDK's standard strategy; default 3). */
  maxAttempts?: number;
}

export interface CountingClient {
  s3: S3Client;
  /** HTTP requests sent, retries included. */
  requests: () => number;
}

export function createClient(options: ClientOptions = {}): CountingClient {
  // The SDK is pinned (package.json); its warning about the Node versions of its later releases is no diagnostic of ours.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const s3 = new (s3Sdk().S3Client)({
    region: options.region ?? process.env.AWS_REGION ?? "us-east-1",
    ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
    maxAttempts: options.maxAttempts ?? 3,
    retryMode: "standard",
    // Checksums are ours: Content-MD5 on every upload (checked by the store) and the ETag compared with it.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  let sent = 0;
  s3.middlewareStack.add(
    (next) => async (args) => {
      sent++;
      return next(args);
    },
    { step: "finalizeRequest", priority: "low", name: "sitetagsRequestCounter" },
  );
  return { s3, requests: () => sent };
}

/**
 * The object operations a publish is made of, each checked: an upload sends
 * Content-MD5 (the store refuses bytes that arrive damaged) and compares the
 * ETag it answers with the MD5 of what was sent. The SHA-384 integrity rides
 * along as object metadata (x-amz-meta-integrity).
 */
import type { S3Client } from "@aws-sdk/client-s3";
import { createHash } from "node:crypto";
import { s3Sdk } from "./sdk.js";

export const CONTENT_TYPE_JS = "text/javascript; charset=utf-8";
export const CONTENT_TYPE_JSON = "application/json; charset=utf-8";

export class RemoteError extends Error {}

const md5 = (data: Uint8Array) => createHash("md5").update(data);
const unquote = (etag: string | undefined) => (etag ?? "").replace(/^W\//, "").replace(/"/g, "");
const isNotFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === "NoSuchKey" || e.name === "NotFound" || e.$metadata?.httpStatusCode === 404;
};

/** The object's bytes, or undefined when there is none. */
export async function getObject(s3: S3Client, bucket: string, key: string): Promise<Buffer | undefined> {
  try {
    const out = await s3.send(new (s3Sdk().GetObjectCommand)({ Bucket: bucket, Key: key }));
    return Buffer.from(await out.Body!.transformToByteArray());
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

export interface PutOptions {
  contentType: string;
  cacheControl: string;
  integrity?: string;
}

export async function putObject(s3: S3Client, bucket: string, key: string, data: Uint8Array, options: PutOptions): Promise<void> {
  const digest = md5(data);
  const out = await s3.send(
    new (s3Sdk().PutObjectCommand)({
      Bucket: bucket,
      Key: key,
      Body: data,
      ContentMD5: digest.copy().digest("base64"),
      ContentType: options.contentType,
      CacheControl: options.cacheControl,
      ...(options.integrity ? { Metadata: { integrity: options.integrity } } : {}),
    }),
  );
  const sent = digest.digest("hex");
  if (unquote(out.ETag) !== sent)
    throw new RemoteError(`s3://${bucket}/${key}: the store answered ETag ${out.ETag ?? "(none)"} for bytes whose MD5 is ${sent}`);
}

/** Every key below a prefix, with its last-modified time (as the store keeps it). */
export async function listObjects(s3: S3Client, bucket: string, prefix: string): Promise<Array<{ key: string; lastModified?: Date }>> {
  const out: Array<{ key: string; lastModified?: Date }> = [];
  let token: string | undefined;
  do {
    const page = await s3.send(new (s3Sdk().ListObjectsV2Command)({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
    for (const o of page.Contents ?? []) if (o.Key) out.push({ key: o.Key, lastModified: o.LastModified });
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return out;
}

/** Runs tasks with at most `limit` at once; waits for all, then throws the first failure. */
export async function runLimited<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const worker = async () => {
    while (next < items.length && !errors.length) {
      const item = items[next++];
      await task(item).catch((err: unknown) => void errors.push(err));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (errors.length) throw errors[0];
}

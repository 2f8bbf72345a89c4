/**
 * The AWS SDK's S3 client, loaded on first use: 0.2 s of module loading that
 * every other command (build, validate, list) would pay at start otherwise.
 * Its package has no ESM entry for Node (its "main" is CommonJS), so require
 * gives the very module an import would.
 */
import { createRequire } from "node:module";

type S3Sdk = typeof import("@aws-sdk/client-s3");
let sdk: S3Sdk | undefined;

export const s3Sdk = (): S3Sdk => (sdk ??= createRequire(import.meta.url)("@aws-sdk/client-s3") as S3Sdk);

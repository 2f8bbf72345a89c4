/**
 * A throwaway self-signed TLS certificate for the local test servers, made
 * with the `openssl` CLI once per process (vitest runs each test file in its
 * own worker process); the key files are read into memory at once.
 *
 * It covers every name the browser tests use: the organisation's hosts
 * (*.kiwi.example), the fictional third parties (*.example, e.g.
 * chat.widgetvendor.example), localhost and 127.0.0.1. Chromium is told to
 * ignore certificate errors (context option ignoreHTTPSErrors), so the
 * certificate needs no trust anchor, only the names for tidiness.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { tempDir } from "./temp.js";

export interface Certificate {
  key: string;
  cert: string;
}

const NAMES = ["DNS:kiwi.example", "DNS:*.kiwi.example", "DNS:*.example", "DNS:localhost", "IP:127.0.0.1"];

let pending: Promise<Certificate> | undefined;

/** The process's certificate (made on first call). */
export function testCertificate(): Promise<Certificate> {
  return (pending ??= make());
}

async function make(): Promise<Certificate> {
  const dir = tempDir("sitetags-cert-");
  const key = join(dir, "key.pem");
  const cert = join(dir, "cert.pem");
  try {
    await promisify(execFile)("openssl", [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
      "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=sitetags browser tests",
      "-addext", `subjectAltName=${NAMES.join(",")}`,
    ]);
  } catch (e) {
    throw new Error(`could not make the test certificate with openssl (is the openssl CLI installed?): ${(e as Error).message}`, { cause: e });
  }
  return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") };
}

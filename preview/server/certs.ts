/**
 * The preview's self-signed certificate (the fictional names: *.kiwi.example,
 * *.example, localhost, 127.0.0.1), made with the openssl CLI on first start
 * and kept in a cache directory (os.tmpdir()/sitetags-preview-cert) until it
 * is close to expiry. Chromium is started with --ignore-certificate-errors,
 * so no trust anchor is needed.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

export interface Certificate {
  key: string;
  cert: string;
  dir: string;
}

const NAMES = ["DNS:kiwi.example", "DNS:*.kiwi.example", "DNS:*.example", "DNS:localhost", "IP:127.0.0.1"];
const DAYS = 30;
const RENEW_AFTER_MS = (DAYS - 5) * 86400000;

export async function previewCertificate(dir = process.env.SITETAGS_PREVIEW_CERT_DIR || join(tmpdir(), "sitetags-preview-cert")): Promise<Certificate> {
  const key = join(dir, "key.pem");
  const cert = join(dir, "cert.pem");
  const fresh = existsSync(key) && existsSync(cert) && Date.now() - statSync(cert).mtimeMs < RENEW_AFTER_MS;
  if (!fresh) {
    mkdirSync(dir, { recursive: true });
    const suffix = `.${process.pid}.tmp`;
    try {
      await promisify(execFile)("openssl", [
        "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", key + suffix, "-out", cert + suffix, "-days", String(DAYS), "-subj", "/CN=sitetags preview",
        "-addext", `subjectAltName=${NAMES.join(",")}`,
      ]);
    } catch (e) {
      throw new Error(`could not make the preview's certificate with openssl (is the openssl CLI installed?): ${(e as Error).message}`, { cause: e });
    }
    renameSync(key + suffix, key);
    renameSync(cert + suffix, cert);
  }
  return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8"), dir };
}

/**
 * The one certificate maker of the local fictional web: a self-signed
 * certificate for the fictional names (*.kiwi.example, *.example, localhost,
 * 127.0.0.1), made with the openssl CLI. Chromium is started with
 * --ignore-certificate-errors (ignoreHTTPSErrors in the tests), so no trust
 * anchor is needed, only the names for tidiness.
 *
 * Two users: the preview keeps its certificate in a cache directory
 * (os.tmpdir()/sitetags-preview-cert) until it is close to expiry; the
 * browser-test harness makes a throwaway one per process in its own temp
 * directory (test/browser/harness/certs.ts).
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

export interface CertificateOptions {
  /** Days it is valid. */
  days: number;
  /** The subject's common name. */
  name: string;
  /** Who asks, for the error message ("the preview's certificate"). */
  what: string;
}

/** Makes key.pem and cert.pem in `dir` (written under temporary names, then renamed) and reads them. */
export async function makeCertificate(dir: string, options: CertificateOptions): Promise<Certificate> {
  const key = join(dir, "key.pem");
  const cert = join(dir, "cert.pem");
  mkdirSync(dir, { recursive: true });
  const suffix = `.${process.pid}.tmp`;
  try {
    await promisify(execFile)("openssl", [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      key + suffix,
      "-out",
      cert + suffix,
      "-days",
      String(options.days),
      "-subj",
      `/CN=${options.name}`,
      "-addext",
      `subjectAltName=${NAMES.join(",")}`,
    ]);
  } catch (e) {
    throw new Error(`could not make ${options.what} with openssl (is the openssl CLI installed?): ${(e as Error).message}`, { cause: e });
  }
  renameSync(key + suffix, key);
  renameSync(cert + suffix, cert);
  return readCertificate(dir);
}

const readCertificate = (dir: string): Certificate => ({
  key: readFileSync(join(dir, "key.pem"), "utf8"),
  cert: readFileSync(join(dir, "cert.pem"), "utf8"),
  dir,
});

const DAYS = 30;
const RENEW_AFTER_MS = (DAYS - 5) * 86400000;

/** The preview's certificate: the cached one while it has 5 days left, else a new one. */
export async function previewCertificate(dir = process.env.SITETAGS_PREVIEW_CERT_DIR || join(tmpdir(), "sitetags-preview-cert")): Promise<Certificate> {
  const cert = join(dir, "cert.pem");
  const fresh = existsSync(join(dir, "key.pem")) && existsSync(cert) && Date.now() - statSync(cert).mtimeMs < RENEW_AFTER_MS;
  return fresh ? readCertificate(dir) : makeCertificate(dir, { days: DAYS, name: "sitetags preview", what: "the preview's certificate" });
}

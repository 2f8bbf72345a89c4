/**
 * The browser tests' certificate: a throwaway one, made once per process
 * (vitest runs each test file in its own worker process) in a harness temp
 * directory, by the local web's one certificate maker
 * (preview/server/certs.ts: every fictional name, openssl CLI).
 */
import { makeCertificate, type Certificate } from "../../../preview/server/certs";
import { tempDir } from "./temp.js";

let pending: Promise<Certificate> | undefined;

/** The process's certificate (made on first call). */
export function testCertificate(): Promise<Certificate> {
  return (pending ??= makeCertificate(tempDir("sitetags-cert-"), { days: 2, name: "sitetags browser tests", what: "the test certificate" }));
}

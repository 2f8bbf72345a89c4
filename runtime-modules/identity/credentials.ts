import type { EnvName } from "../../generator/config/bundle-config.js";
import type { CredentialSettings } from "../../generator/config/schemas/consent-identity.js";
import type { Logger } from "../core/types";
import { CREDENTIAL_FETCH_FAILED } from "../core/messages";
import { errorText } from "../core/log";

export interface CredentialRequest {
  method: "GET";
  url: string;
  headers: { authorization: string };
  /** The response field holding the credential. */
  responseField: string;
  /** "Up to 3 attempts, 100 ms apart." */
  retry: { attempts: number; intervalMs: number };
}

export interface CredentialRequestInput {
  settings: CredentialSettings;
  env: EnvName;
  /** The sign-in login token type, e.g. the scheme of the session. */
  tokenType: string;
  sessionId: string;
  /** A random number in [0, 1) (Math.random in the page). */
  random: () => number;
}

/**
 * "GET to a credential service, path shape temp-user-aws-creds, query cbEnv,
 * cbAWSDomains, random cacheNonce; header authorization of login token type
 * plus session id; response field cbJwtToken. Up to 3 attempts, 100 ms
 * apart." Undefined when no service URL is set for the environment or the
 * session id is missing (the startup goes on anonymous).
 */
export function credentialRequest(input: CredentialRequestInput): CredentialRequest | undefined {
  const { settings } = input;
  const sessionId = (input.sessionId || "").trim();
  if (!settings.serviceUrl || !sessionId) return undefined;
  const nonce = Math.floor(input.random() * 9007199254740991).toString(36);
  const query =
    "cbEnv=" +
    encodeURIComponent(input.env) +
    "&cbAWSDomains=" +
    encodeURIComponent(settings.awsDomains.join(",")) +
    "&cacheNonce=" +
    encodeURIComponent(nonce);
  const base = settings.serviceUrl.replace(/\/+$/, "") + "/" + settings.path.replace(/^\/+/, "");
  const tokenType = (input.tokenType || "").trim();
  return {
    method: "GET",
    url: base + (base.indexOf("?") >= 0 ? "&" : "?") + query,
    headers: { authorization: tokenType ? tokenType + " " + sessionId : sessionId },
    responseField: settings.responseField,
    retry: { attempts: settings.attempts, intervalMs: settings.intervalMs },
  };
}

/** The credential from a response body (parsed JSON): a non-empty string in the response field, else undefined. */
export function readCredential(body: unknown, responseField: string): string | undefined {
  if (!body || typeof body !== "object") return undefined;
  const value = (body as Record<string, unknown>)[responseField];
  return typeof value === "string" && value.trim() ? value : undefined;
}

/**
 * The retry decision after a failed attempt (attempt counts from 1): the
 * delay before the next one, or undefined when attempts are used up ("Credential
 * fetch failure after 3 attempts is logged and flow continues").
 */
export function nextAttemptDelay(attempt: number, retry: CredentialRequest["retry"]): number | undefined {
  return attempt < retry.attempts ? retry.intervalMs : undefined;
}

/**
 * The fetch itself (spec section 7), undefined when there is no request to
 * make (credentialRequest): GET with the session's authorization, retried per
 * the request's retry settings. Resolves true once a response carries the
 * credential; false when the attempts are used up (logged: "Credential fetch
 * failure after 3 attempts is logged and flow continues"). Never rejects.
 * Only in the cores of bundles whose environment has a credential service
 * (the feature `credentials`: generator/bundle/features.ts, rules/features.ts).
 */
export function fetchCredential(input: CredentialRequestInput, win: Window, log: Logger): (() => Promise<boolean>) | undefined {
  const request = credentialRequest(input);
  return (
    request &&
    (() =>
      new Promise((resolve) => {
        let attempt = 0;
        const tryOnce = (): void => {
          attempt++;
          // Promise.resolve().then: a fetch that throws at once (a blocked or patched fetch) fails this attempt, never the page's timer.
          Promise.resolve()
            .then(() => win.fetch(request.url, { method: "GET", headers: request.headers, credentials: "include", cache: "no-store" }))
            .then((r) => (r.ok ? r.json() : Promise.reject(new Error("status " + r.status))))
            .then((body: unknown) => {
              if (!readCredential(body, request.responseField)) throw new Error("no " + request.responseField);
              resolve(true);
            })
            .catch((e) => {
              const delay = nextAttemptDelay(attempt, request.retry);
              if (delay !== undefined) win.setTimeout(tryOnce, delay);
              else {
                log.warn(CREDENTIAL_FETCH_FAILED, { attempts: attempt, error: errorText(e) });
                resolve(false);
              }
            });
        };
        tryOnce();
      }))
  );
}

/** The credential feature a bundle's core carries when its environment has a credential service (rules/features.ts). */
export interface CredentialFeature {
  fetchCredential: typeof fetchCredential;
}

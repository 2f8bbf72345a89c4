import { describe, expect, it } from "vitest";
import { IdentitySchema } from "../../../../generator/config/schemas/consent-identity.js";
import { credentialRequest, nextAttemptDelay, readCredential } from "../../../../runtime-modules/identity/credentials";

const settings = IdentitySchema.parse({
  credentials: { serviceUrl: "https://creds.kiwi.example/api/", awsDomains: ["kiwi.example", "kiwi-qa.example"] },
}).credentials;

describe("credentialRequest", () => {
  it('"GET ..., path shape temp-user-aws-creds, query cbEnv, cbAWSDomains, random cacheNonce; header authorization of login token type plus session id"', () => {
    const req = credentialRequest({ settings, env: "qa", tokenType: "CBLogin", sessionId: "sess-1", random: () => 0.5 })!;
    const url = new URL(req.url);
    expect(req.method).toBe("GET");
    expect(url.origin + url.pathname).toBe("https://creds.kiwi.example/api/temp-user-aws-creds");
    expect(url.searchParams.get("cbEnv")).toBe("qa");
    expect(url.searchParams.get("cbAWSDomains")).toBe("kiwi.example,kiwi-qa.example");
    expect(url.searchParams.get("cacheNonce")).toBe(Math.floor(0.5 * Number.MAX_SAFE_INTEGER).toString(36));
    expect(req.headers).toEqual({ authorization: "CBLogin sess-1" });
  });
  it('"response field cbJwtToken. Up to 3 attempts, 100 ms apart" (as data)', () => {
    const req = credentialRequest({ settings, env: "prod", tokenType: "CBLogin", sessionId: "s", random: () => 0 })!;
    expect(req.responseField).toBe("cbJwtToken");
    expect(req.retry).toEqual({ attempts: 3, intervalMs: 100 });
    expect([1, 2, 3].map((n) => nextAttemptDelay(n, req.retry))).toEqual([100, 100, undefined]);
  });
  it("a fresh nonce per request from the injected random source", () => {
    const nonce = (r: number) =>
      new URL(credentialRequest({ settings, env: "prod", tokenType: "T", sessionId: "s", random: () => r })!.url).searchParams.get("cacheNonce");
    expect(nonce(0.1)).not.toBe(nonce(0.2));
  });
  it("no request without a service URL or a session id", () => {
    const none = IdentitySchema.parse({}).credentials;
    expect(credentialRequest({ settings: none, env: "prod", tokenType: "T", sessionId: "s", random: Math.random })).toBeUndefined();
    expect(credentialRequest({ settings, env: "prod", tokenType: "T", sessionId: " ", random: Math.random })).toBeUndefined();
  });
  it("reads the credential from the response body", () => {
    expect(readCredential({ cbJwtToken: "a.b.c" }, "cbJwtToken")).toBe("a.b.c");
    for (const bad of [null, "x", {}, { cbJwtToken: "" }, { cbJwtToken: 5 }]) expect(readCredential(bad, "cbJwtToken")).toBeUndefined();
  });
});

/**
 * A signed-in visitor's cookies, as the org's sign-in sets them
 * (sites/_org.yaml defaults: the Catapult session cookie kiwi_session, JSON,
 * and the token cookie kiwi_token, a JWT whose payload the bundle decodes
 * locally; the signature is never checked there).
 */
const b64url = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");

/** The two Set-Cookie values for a page (`h.web.page(url, { cookies })`). */
export function signInCookies(session: object, tokenPayload: object): string[] {
  return [
    `kiwi_session=${encodeURIComponent(JSON.stringify(session))}; Path=/`,
    `kiwi_token=${b64url({ alg: "none", typ: "JWT" })}.${b64url(tokenPayload)}.sig; Path=/`,
  ];
}

import { parseSession } from "./source";
/** Base64url text to a UTF-8 string; undefined when it is not valid base64. */
export function decodeBase64Url(text: string): string | undefined {
  if (typeof atob !== "function" || !/^[A-Za-z0-9_-]*={0,2}$/.test(text)) return undefined;
  const b64 = text.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
  if (b64.length % 4 === 1) return undefined;
  try {
    // atob takes base64 without its padding (forgiving-base64 decode); escape() writes each byte as %XX (or as itself when
    // it is one of the ASCII characters it keeps), which decodeURIComponent reads as UTF-8 (and rejects when it is not).
    return decodeURIComponent(escape(atob(b64)));
  } catch (e) {
    return undefined;
  }
}

/**
 * "Sign-in session and token are read locally (token payload decoded)": the
 * payload (second part) of a JWT as an object. No signature check (the
 * payload only describes the visitor for analytics). Anything that is not a
 * three-part token whose payload is a JSON object gives null.
 */
export function decodeJwtPayload(token: unknown): Record<string, unknown> | null {
  if (typeof token !== "string") return null;
  const parts = token.trim().split(".");
  if (parts.length !== 3 || !parts[1]) return null;
  const json = decodeBase64Url(parts[1]);
  return json === undefined ? null : parseSession(json);
}

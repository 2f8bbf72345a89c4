import { SIGN_IN_DATA_NOT_FOUND } from "../core/messages";

/** "Identity source: session and token gives Catapult; session only gives Catapult (Session Only); token only gives Catapult (Token Only)." */
export type IdentitySource = "Catapult" | "Catapult (Session Only)" | "Catapult (Token Only)";

export function identitySource(hasSession: boolean, hasToken: boolean): IdentitySource | undefined {
  if (hasSession && hasToken) return "Catapult";
  if (hasSession) return "Catapult (Session Only)";
  if (hasToken) return "Catapult (Token Only)";
  return undefined;
}

export type SignInData =
  | { found: true; source: IdentitySource; session: Record<string, unknown> | null; token: Record<string, unknown> | null }
  | { found: false; message: typeof SIGN_IN_DATA_NOT_FOUND };

/**
 * The sign-in data of a page from the parsed session (null when absent or
 * unreadable) and the decoded token payload (null likewise). Neither:
 * "Sign-in data missing: 'Catapult/Levity Data Not Found', logged and ignored."
 */
export function signInData(session: Record<string, unknown> | null, token: Record<string, unknown> | null): SignInData {
  const source = identitySource(!!session, !!token);
  return source ? { found: true, source, session, token } : { found: false, message: SIGN_IN_DATA_NOT_FOUND };
}

/** The sign-in session cookie's JSON as an object; null for anything else. */
export function parseSession(value: unknown): Record<string, unknown> | null {
  if (typeof value !== "string" || !value) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch (e) {
    return null;
  }
}

import { decodeFully } from "../analytics/redact";

/** An email address anywhere in a (decoded) text. */
const EMAIL = "[^\\s@&=?#/:;,]+@[^\\s@&=?#/:;,]+\\.[A-Za-z]{2,}";

/**
 * "A user name (an email address or the sign-in user id) in the query string
 * or the referrer blocks marketing": an email address, or one of the
 * visitor's own non-empty ids (case-insensitive substring), in the raw or
 * decoded text. Errs on the side of finding one.
 */
export function containsUserName(text: string, userIds: readonly string[] = []): boolean {
  if (!text) return false;
  const email = new RegExp(EMAIL);
  for (const form of [text, decodeFully(text)]) {
    if (email.test(form)) return true;
    const lower = form.toLowerCase();
    for (const id of userIds) if (typeof id === "string" && id.trim() && lower.indexOf(id.trim().toLowerCase()) >= 0) return true;
  }
  return false;
}

/** "Redacted URL parameters: u, personId, regId, regNo, i, studentid." Compared in lower case. */
export const REDACTED_PARAMS = ["u", "personid", "regid", "regno", "i", "studentid"];
/** What a redacted parameter's value becomes. */
export const REDACTED = "[redacted]";

/**
 * Whether a parameter name is redacted: case-insensitive, percent-decoded,
 * and judged by its part after the last ? & ; or # once decoded (so REGNO,
 * reg%4Eo and a%26regNo all count).
 */
export function isRedactedParam(name: string): boolean {
  let n = name.replace(/\+/g, " ");
  try {
    n = decodeURIComponent(n);
  } catch (e) {
    // A malformed escape: judge the raw name.
  }
  return REDACTED_PARAMS.indexOf(n.split(/[?&;#]/).pop()!.trim().toLowerCase()) >= 0;
}

/** Whether text holds an = or its escape %3d, which every redacted pair needs. */
function hasPair(text: string): boolean {
  return /=|%3d/i.test(text);
}

/**
 * The address with the value of every redacted parameter replaced by
 * [redacted]: in the query, in the fragment (SPA routes such as
 * #/x?regNo=1, #studentid=9), after ; or &amp;, as a path segment (/regNo=1/), and one level down inside an encoded
 * address (?returnUrl=https%3A%2F%2Fx%2F%3FregNo%3D1). Everything else is
 * kept byte for byte (nothing re-encoded).
 */
export function redactUrl(url: string): string {
  // Every rule below needs an = (or its escape %3d): most names and variables have none.
  if (!hasPair(url)) return url;
  const hide = (m: string, sep: string, name: string, eq: string) => (isRedactedParam(name) ? sep + name + eq + REDACTED : m);
  return url
    .replace(/(^|[?&;#])([^=&;#?]*)(=)[^&;#?]*/g, hide)
    .replace(/(\/)([^=&;#?/]+)(=)[^&;#?/]*/g, hide)
    .replace(/([?&;#]|%3f|%26|%23|%3b)([\w.+%-]*?)(%3d)(?:[^&;#?%]|%(?!26|23|3f|3b))*/gi, hide);
}

/**
 * Every name=value pair of a redacted parameter wherever it stands (not only
 * after ? & ; or #: "site/scores/regno=123", "scores:app:studentid=9"),
 * replaced by what `replace` makes of its separator and name. The value runs
 * to the next character of valueEnds.
 */
export function replaceRedactedPairs(text: string, valueEnds: string, replace: (sep: string, name: string) => string): string {
  return text.replace(new RegExp("(^|[^\\w%.-])([\\w%.-]+)=([^" + valueEnds + "]*)", "g"), (m: string, sep: string, name: string, value: string) =>
    value !== REDACTED && isRedactedParam(name) ? replace(sep, name) : m,
  );
}

/** A name (page or link name) or variable fit to send: redactUrl's rules, and every redacted pair's value as [redacted] (replaceRedactedPairs). */
export function redactText(text: string): string {
  if (!hasPair(text)) return text;
  return replaceRedactedPairs(redactUrl(text), "&;/:?#|^\\s", (sep, name) => sep + name + "=" + REDACTED);
}

/** "Tracking is not allowed when the page address contains an at-sign" (also when percent-encoded, %40). */
export function trackingAllowed(pageUrl: string): boolean {
  return !/@|%40/i.test(pageUrl);
}

/**
 * An address fit to send: redacted; then, if an at-sign is left (an email
 * address in a value or the path), without its query and fragment; if one
 * is still left, "" (nothing of it is sent).
 */
export function safeUrl(url: string): string {
  let u = redactUrl(url);
  if (trackingAllowed(u)) return u;
  u = u.split(/[?#]/)[0];
  return trackingAllowed(u) ? u : "";
}

/** "Redacted URL parameters: u, personId, regId, regNo, i, studentid." Compared in lower case. */
export const REDACTED_PARAMS = ["u", "personid", "regid", "regno", "i", "studentid"];
/** What a redacted parameter's value becomes. */
export const REDACTED = "[redacted]";

/** Rounds of decoding: an escape nested deeper than this is not undone (and, still holding a %, is judged raw). */
const DECODE_ROUNDS = 8;

/**
 * The text percent-decoded to a fixed point ("+" kept: a value's part either way), at most
 * DECODE_ROUNDS rounds: %2540 and %252540 become @ as %40 does. A malformed
 * escape stays as it is; the escapes around it are still decoded.
 */
export function decodeFully(text: string): string {
  let t = text;
  for (let i = 0; i < DECODE_ROUNDS; i++) {
    const next = t.replace(/(%[0-9a-f]{2})+/gi, (m) => {
      try {
        return decodeURIComponent(m);
      } catch (e) {
        // An incomplete UTF-8 sequence: its ASCII escapes only.
        return m.replace(/%[0-7][0-9a-f]/gi, decodeURIComponent);
      }
    });
    if (next === t) break;
    t = next;
  }
  return t;
}

/**
 * Whether a parameter name is redacted: case-insensitive, percent-decoded
 * (to a fixed point), and judged by its part after the last ? & ; or # once
 * decoded (so REGNO, reg%4Eo, reg%254Eo and a%26regNo all count).
 */
export function isRedactedParam(name: string): boolean {
  return (
    REDACTED_PARAMS.indexOf(
      decodeFully(name.replace(/\+/g, " "))
        .split(/[?&;#]/)
        .pop()!
        .trim()
        .toLowerCase(),
    ) >= 0
  );
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

const VALUE_ENDS = "&;/:?#|^\\s";

/** Where the first value of a redacted name starts (after name=, wherever the name stands: after = or -, too), -1 when none is left. */
function secretAt(text: string): number {
  const re = /(?<![\w%])([\w%]+)=/g;
  for (let m; (m = re.exec(text));) if (isRedactedParam(m[1]) && text.indexOf(REDACTED, re.lastIndex) !== re.lastIndex) return re.lastIndex;
  return -1;
}

/**
 * A name (page or link name) or variable fit to send: redactUrl's rules, and
 * every redacted pair's value as [redacted] (replaceRedactedPairs). A pair
 * hidden in a value (next=u=1) or under more than one level of encoding
 * (regNo%253D1) is found in the text decoded to a fixed point, which is then
 * what is sent, with those values as [redacted].
 */
export function redactText(text: string): string {
  // Neither an = nor an escape (most variables): nothing below could change it.
  if (!/[=%]/.test(text)) return text;
  const out = hasPair(text) ? replaceRedactedPairs(redactUrl(text), VALUE_ENDS, (sep, name) => sep + name + "=" + REDACTED) : text;
  let d = decodeFully(out);
  if (secretAt(d) < 0) return out;
  for (let i; (i = secretAt(d)) >= 0;) d = d.slice(0, i) + REDACTED + d.slice(i).replace(/^[^&;/:?#|^\s]*/, "");
  return d;
}

/**
 * Whether the text, decoded to a fixed point, holds an at-sign. An IMS org id
 * (…@AdobeOrg, which a link decorated with adobe_mc carries as %2540AdobeOrg)
 * is no user name.
 */
export function hasAtSign(text: string): boolean {
  return (
    decodeFully(text)
      .replace(/@AdobeOrg(?![\w.-])/g, "")
      .indexOf("@") >= 0
  );
}

/** "Tracking is not allowed when the page address contains an at-sign" (also when percent-encoded, %40, %2540, …). */
export function trackingAllowed(pageUrl: string): boolean {
  return !hasAtSign(pageUrl);
}

/** Whether the address, decoded to a fixed point, still holds an at-sign or a redacted name's value. */
function unsafe(url: string): boolean {
  return hasAtSign(url) || secretAt(decodeFully(url)) >= 0;
}

/**
 * An address fit to send: redacted; then, if an at-sign (an email address in
 * a value or the path) or a redacted value is left once decoded to a fixed
 * point, without its query and fragment; if one is still left, "" (nothing
 * of it is sent).
 */
export function safeUrl(url: string): string {
  let u = redactUrl(url);
  if (!unsafe(u)) return u;
  u = u.split(/[?#]/)[0];
  return unsafe(u) ? "" : u;
}

import { hasAtSign } from "./redact";
import { cut, squash } from "./web-text";

/** "Link text limit is 40 characters, lowercased." */
export const LINK_TEXT_LIMIT = 40;

/** The text without its words holding an at-sign, once decoded (email addresses, jane%2540x.example too): they never reach a name. */
export function withoutEmailWords(text: string): string {
  return text.replace(/\S+/g, (w) => (hasAtSign(w) ? " " : w));
}

/**
 * A link's text as recorded: white space squashed, words holding an
 * at-sign (email addresses) left out, lower case, cut to 40.
 */
export function linkText(text: string, limit = LINK_TEXT_LIMIT): string {
  // Trimmed after the cut too: a cut ending on a space would make "word " a value of its own.
  return cut(squash(withoutEmailWords(text)).toLowerCase(), limit).trim();
}

/**
 * "Link addresses starting with clkg/ or clkn/ plus http are unwrapped": the
 * address after clkg/ or clkn/, percent-decoded when it was encoded
 * (clkn/https%3A%2F%2F...). Also inside a resolved address
 * (https://host/path/clkg/http...). Other addresses are returned as given.
 */
export function unwrapLink(href: string): string {
  const m = /(?:^|\/)clk[gn]\/(https?(?::|%3a).*)$/i.exec(href);
  if (!m) return href;
  try {
    return /^https?%3a/i.test(m[1]) ? decodeURIComponent(m[1]) : m[1];
  } catch (e) {
    return m[1];
  }
}

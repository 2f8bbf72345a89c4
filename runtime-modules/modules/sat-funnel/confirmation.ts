/**
 * The confirmation-step cookie (spec section 9, "confirmation-step cookie"):
 * the orders whose confirmation step (the payment confirmation page, a
 * funnel's order-complete) was already counted in this browser session, so a
 * reload, the back button or a second tab does not count the purchase and
 * fire the conversion pixel again. A session cookie on the parent domain
 * (satreg and satregconc share it), newest key last, at most
 * MAX_CONFIRMED_ORDERS keys. Which pages are confirmation steps and the
 * cookie's name are placeholders to confirm.
 */

/** Keys kept in the cookie (the newest); enough for one session's orders, small enough for every request header. */
export const MAX_CONFIRMED_ORDERS = 5;

const SEPARATOR = "~";

/** What the `confirmationStep` value says: the first time this order is confirmed, a repeat, or no confirmation step here. */
export type ConfirmationStep = "first" | "repeat" | "";

/** An order's key: the order kind (its purchase id prefix; sr on the payment confirmation page, a SAT registration) and its id, without the separator. */
export function confirmationKey(kind: string, id: string): string {
  return (kind + "|" + id).split(SEPARATOR).join("");
}

/** The confirmed keys of a cookie value (none for a missing or empty value). */
export function parseConfirmed(value: string | undefined): string[] {
  return value ? value.split(SEPARATOR).filter((k) => k !== "") : [];
}

/** The cookie value with `key` added as the newest (moved there when present), the oldest dropped beyond the limit. */
export function withConfirmed(list: readonly string[], key: string, max = MAX_CONFIRMED_ORDERS): string {
  const next = list.filter((k) => k !== key).concat(key);
  return next.slice(Math.max(0, next.length - max)).join(SEPARATOR);
}

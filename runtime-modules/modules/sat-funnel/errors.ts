import { matchesPage } from "../../core/match-page";

/** Section 2: the SAT registration payment confirmation path. */
export const PAYMENT_CONFIRMATION_PATH = "/register/paymentConfirmation";

/** Whether this is the payment confirmation page (case and a trailing slash ignored). */
export function isPaymentConfirmation(path: string): boolean {
  return (path || "").replace(/\/+$/, "").toLowerCase() === PAYMENT_CONFIRMATION_PATH.toLowerCase();
}

/** Whether this is a payment page (satFunnel.paymentPaths; the confirmation page is not one). */
export function isPaymentPage(path: string, paymentPaths: readonly string[]): boolean {
  return !isPaymentConfirmation(path) && matchesPage(path, paymentPaths);
}

/**
 * "Payment-page errors and session timeouts get application id and flow code
 * appended": code:appId:flowCode for those, the code unchanged otherwise.
 */
export function funnelErrorCode(code: string, context: { paymentPage: boolean; timeout: boolean; appId: string; flowCode: string }): string {
  return context.paymentPage || context.timeout ? code + ":" + context.appId + ":" + context.flowCode : code;
}

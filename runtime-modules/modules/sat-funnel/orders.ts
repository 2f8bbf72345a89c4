import type { FunnelFlow } from "../../../generator/config/schemas/feature-modules.js";

/** Order types of the SAT registration flows (spec section 4); the concise variant is a new registration. */
export const ORDER_TYPES = {
  newreg: "SAT Registration",
  satregconc: "SAT Registration",
  changereg: "SAT Registration Change",
  cancelreg: "SAT Registration Cancel",
  answersvc: "Answer Services",
} as const;

/** Completing an order is the terminal step. */
export const TERMINAL_PAGE = "order-complete";

/** Section 9: purchase id prefixes. */
export const PURCHASE_ID_PREFIXES = {
  answerServices: "sa",
  apScoreSending: "as",
  eventApp: "be",
  searchLicensing: "hsl",
  plans: "hsp",
  clep: "cp",
  onlineMeeting: "ev",
  onlineStore: "so",
  satRegistration: "sr",
  satRegistrationCancel: "sx",
  satRegistrationChange: "sc",
  scoreSends: "ss",
} as const;

export type PurchaseKind = keyof typeof PURCHASE_ID_PREFIXES;

/** The purchase id prefix of each order-taking flow. */
export const FLOW_PURCHASE_KINDS = {
  newreg: "satRegistration",
  satregconc: "satRegistration",
  changereg: "satRegistrationChange",
  cancelreg: "satRegistrationCancel",
  answersvc: "answerServices",
} as const;

/** Section 9: newreg-complete feature types. */
export const NEWREG_FEATURE_TYPES = ["core", "fw", "late", "intl", "digital", "xsell", "waitlist", "xas"] as const;
export type NewregFeatureType = (typeof NEWREG_FEATURE_TYPES)[number];

export interface FunnelTransaction {
  type: string;
  id: string;
  purchaseIdPrefix: string;
}

/** The order type of a flow; null for flows that take no order (the ticket). */
export function orderType(flow: string): string | null {
  return Object.prototype.hasOwnProperty.call(ORDER_TYPES, flow) ? ORDER_TYPES[flow as keyof typeof ORDER_TYPES] : null;
}

/** Whether the page is the terminal step (order-complete). */
export function isTerminalStep(page: string): boolean {
  return page === TERMINAL_PAGE;
}

/** The purchase transaction of a completed order: only on the terminal step of an order-taking flow, with an id. */
export function completedOrder(flow: FunnelFlow | string, page: string, id: unknown): FunnelTransaction | null {
  const type = orderType(flow);
  const tid = id == null ? "" : String(id).trim();
  return type && tid && isTerminalStep(page)
    ? { type, id: tid, purchaseIdPrefix: PURCHASE_ID_PREFIXES[FLOW_PURCHASE_KINDS[flow as keyof typeof FLOW_PURCHASE_KINDS]] }
    : null;
}

/** newreg-complete feature types: always core, then each flagged type in the spec's order. */
export function newregFeatures(flags: Partial<Record<NewregFeatureType, unknown>>): NewregFeatureType[] {
  return NEWREG_FEATURE_TYPES.filter((t) => t === "core" || !!flags[t]);
}

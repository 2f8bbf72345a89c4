import { daysBetween, toYyyymmdd } from "./dates";
import { fwType, type FwType } from "./funnel-states";

/** One funnel step: the page, the action taken, and pageReach 1 the first time the page is reached in this funnel, else 0. */
export interface FunnelStep {
  page: string;
  action: string;
  pageReach: 0 | 1;
}

/** What the registration pages push (raw). */
export interface SatRegistrationInput {
  satRegNo?: unknown;
  adminType?: unknown;
  adminFormat?: unknown;
  adminCode?: unknown;
  /** yyyy/mm/dd as the pages show it (other date forms are accepted too). */
  adminDate?: unknown;
  /** "repeat" (any casing, or containing it) or true for a repeat registrant. */
  registrantType?: unknown;
  /** Fee waiver states reached (claimed-code, offered-benefit, claimed-benefit). */
  feeWaiver?: readonly string[] | null;
  deviceChoice?: unknown;
  /** Today, yyyymmdd (local date), for tdMinusNDays. */
  today?: string;
  steps?: readonly FunnelStep[] | null;
  source?: unknown;
  pathingHit?: unknown;
  dedupers?: readonly unknown[] | null;
}

export interface SatRegistrationData {
  satRegNo: string;
  adminType: string;
  adminFormat: string;
  adminCode: string;
  /** yyyymmdd, "" when not a date */
  adminDate: string;
  registrantType: "repeat" | "other";
  fwType: FwType;
  /** "" when the choice is N/A */
  deviceChoice: string;
  /** Days from today to the test day; undefined without both dates. */
  tdMinusNDays?: number;
  steps: FunnelStep[];
  source: string;
  pathingHit: boolean;
  dedupers: string[];
}

function text(v: unknown): string {
  return v == null ? "" : String(v).trim();
}

/** A funnel step; `reached` are the pages reached before in this funnel. */
export function funnelStep(page: string, action: string, reached: readonly string[]): FunnelStep {
  return { page, action, pageReach: reached.indexOf(page) < 0 ? 1 : 0 };
}

/** Deduper of a flow's completion for one registration: flow-satRegNo-adminCode (so each counts once). */
export function registrationDeduper(flow: string, satRegNo: unknown, adminCode: unknown): string {
  return flow + "-" + text(satRegNo) + "-" + text(adminCode);
}

/** SAT registration data (spec section 3), normalised. */
export function satRegistrationData(input: SatRegistrationInput): SatRegistrationData {
  const adminDate = toYyyymmdd(input.adminDate);
  const device = text(input.deviceChoice);
  const data: SatRegistrationData = {
    satRegNo: text(input.satRegNo),
    adminType: text(input.adminType),
    adminFormat: text(input.adminFormat),
    adminCode: text(input.adminCode),
    adminDate,
    registrantType: input.registrantType === true || /repeat/i.test(text(input.registrantType)) ? "repeat" : "other",
    fwType: fwType(input.feeWaiver),
    deviceChoice: device.toUpperCase() === "N/A" ? "" : device,
    steps: (input.steps || []).slice(),
    source: text(input.source),
    pathingHit: input.pathingHit === true || /^(true|1|y|yes)$/i.test(text(input.pathingHit)),
    dedupers: (input.dedupers || []).map(text).filter(Boolean),
  };
  const days = input.today ? daysBetween(input.today, adminDate) : undefined;
  if (days !== undefined) data.tdMinusNDays = days;
  return data;
}

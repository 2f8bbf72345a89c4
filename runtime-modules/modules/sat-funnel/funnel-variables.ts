import type { ChangeStep } from "./change-steps";
import type { PhotoState } from "./funnel-states";
import type { FunnelTransaction, NewregFeatureType } from "./orders";
import type { FunnelStep, SatRegistrationData } from "./registration-data";
import type { AnalyticsVariables } from "../../../generator/config/schemas/variables.js";

/**
 * The analytics variables the SAT funnel sends (docs/modules.md). The
 * numbers are the catalogue's: analyticsVariables.satFunnel in sites/_org.yaml.
 */
export type FunnelNames = AnalyticsVariables["satFunnel"];

/** Steps as one value: page:action:pageReach, "|"-separated. */
export function stepsText(steps: readonly FunnelStep[]): string {
  return steps.map((s) => s.page + ":" + s.action + ":" + s.pageReach).join("|");
}

/** Registration data → variables (names.registration, names.pathingHit); blank values and an unknown tdMinusNDays are left out. */
export function registrationVariables(data: SatRegistrationData, names: FunnelNames): Record<string, string> {
  const values: Record<keyof FunnelNames["registration"], string> = {
    satRegNo: data.satRegNo,
    adminType: data.adminType,
    adminFormat: data.adminFormat,
    adminCode: data.adminCode,
    adminDate: data.adminDate,
    registrantType: data.registrantType,
    fwType: data.fwType,
    deviceChoice: data.deviceChoice,
    tdMinusNDays: data.tdMinusNDays === undefined ? "" : String(data.tdMinusNDays),
    source: data.source,
    steps: stepsText(data.steps),
    dedupers: data.dedupers.join("|"),
  };
  const vars: Record<string, string> = { [names.pathingHit]: data.pathingHit ? "y" : "n" };
  for (const key of Object.keys(values) as Array<keyof typeof values>) if (values[key]) vars[names.registration[key]] = values[key];
  return vars;
}

/**
 * The purchase of a completed order: events "purchase", purchaseID = prefix +
 * id ("sr" + "R123"), the order id and type, the newreg-complete feature
 * types (new registrations) or the change-registration steps (changes).
 */
export function purchaseVariables(
  tx: FunnelTransaction,
  extra: { features?: readonly NewregFeatureType[]; changeSteps?: readonly ChangeStep[] },
  names: FunnelNames,
): Record<string, string> {
  const vars: Record<string, string> = { events: "purchase", purchaseID: tx.purchaseIdPrefix + tx.id, [names.orderId]: tx.id, [names.orderType]: tx.type };
  if (extra.features) vars[names.features] = extra.features.join("|");
  if (extra.changeSteps) vars[names.changeSteps] = extra.changeSteps.join(",") || "none";
  return vars;
}

/** Photo state as one value: the steps that hold, "|"-separated ("exists|saved"), or "none". */
export function photoStateText(state: PhotoState): string {
  const on: string[] = [];
  if (state.exists) on.push("exists");
  if (state.uploaded) on.push("uploaded");
  if (state.saved) on.push("saved");
  return on.join("|") || "none";
}

import type { ChangeStep } from "./change-steps";
import type { PhotoState } from "./funnel-states";
import type { FunnelTransaction, NewregFeatureType } from "./orders";
import type { FunnelStep, SatRegistrationData } from "./registration-data";

/**
 * The analytics variables the SAT funnel sends (docs/modules.md). The
 * eVar/prop numbers are placeholders to confirm with the analytics team;
 * eVar30 is the order id as in satreg's payment-confirmation rule.
 */

/** Steps as one value: page:action:pageReach, "|"-separated. */
export function stepsText(steps: readonly FunnelStep[]): string {
  return steps.map((s) => s.page + ":" + s.action + ":" + s.pageReach).join("|");
}

/** Registration data → variables (eVar31-42, prop31); blank values and an unknown tdMinusNDays are left out. */
export function registrationVariables(data: SatRegistrationData): Record<string, string> {
  const values = [
    data.satRegNo,
    data.adminType,
    data.adminFormat,
    data.adminCode,
    data.adminDate,
    data.registrantType,
    data.fwType,
    data.deviceChoice,
    data.tdMinusNDays === undefined ? "" : String(data.tdMinusNDays),
    data.source,
    stepsText(data.steps),
    data.dedupers.join("|"),
  ];
  const vars: Record<string, string> = { prop31: data.pathingHit ? "y" : "n" };
  values.forEach((value, i) => {
    if (value) vars["eVar" + (31 + i)] = value;
  });
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
): Record<string, string> {
  const vars: Record<string, string> = { events: "purchase", purchaseID: tx.purchaseIdPrefix + tx.id, eVar30: tx.id, eVar43: tx.type };
  if (extra.features) vars.eVar44 = extra.features.join("|");
  if (extra.changeSteps) vars.eVar45 = extra.changeSteps.join(",") || "none";
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

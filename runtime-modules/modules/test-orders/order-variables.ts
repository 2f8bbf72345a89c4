import type { TestAdminSummary } from "./admins";
import type { TestOrder, TestOrderEdit, TestOrderTest } from "./orders";
import type { AnalyticsVariables } from "../../../generator/config/schemas/variables.js";

/**
 * The analytics variables of a test order and of a test administration
 * summary (docs/modules.md). The numbers are the catalogue's
 * (analyticsVariables.testOrders in sites/_org.yaml).
 */
export type TestOrderNames = AnalyticsVariables["testOrders"];

/** One test: name:previousQty:updatedQty:adminYear:regBy:semester:grades(,):allocatedSchools (unknown values blank). */
export function testText(t: TestOrderTest): string {
  const n = (v: number | null) => (v === null ? "" : String(v));
  return [t.name, n(t.previousOrderQty), n(t.updatedOrderQty), t.adminYear, t.regBy, t.semester, t.grades.join(","), n(t.allocatedSchools)].join(":");
}

/** One edit: name:quantity:+gradesAdded:-gradesRemoved:allocatedSchoolsScale, e.g. "PSAT 10:increased:30:+11:-9:2" ("unchanged" when only grades changed). */
export function editText(e: TestOrderEdit): string {
  return [
    e.name,
    e.quantity || "unchanged",
    "+" + e.gradesAdded.join(","),
    "-" + e.gradesRemoved.join(","),
    e.allocatedSchoolsScale === null ? "" : String(e.allocatedSchoolsScale),
  ].join(":");
}

/** A test order: the order event, or the edit event for an edit (an order with at least one changed test). */
export function testOrderVariables(order: TestOrder, names: TestOrderNames): Record<string, string> {
  const edited = order.editOrders.length > 0;
  const v = names.variables;
  const vars: Record<string, string> = {
    events: edited ? names.editEvent : names.orderEvent,
    [v.orderId]: order.orderId,
    [v.coverage]: order.coverage,
    [v.tests]: order.tests.map(testText).join("|"),
    [v.flags]: "billing:" + (order.billing ? "y" : "n") + "|po:" + (order.purchaseOrder ? "y" : "n") + "|contract:" + (order.contract ? "y" : "n"),
  };
  if (edited) vars[v.edits] = order.editOrders.map(editText).join("|");
  return vars;
}

/** A test administration summary. */
export function testAdminSummaryVariables(summary: TestAdminSummary, names: TestOrderNames): Record<string, string> {
  const v = names.variables;
  return { [v.aiCode]: summary.aiCode, [v.admins]: summary.admins.join("|"), [v.date]: summary.date, [v.inContract]: summary.inContract ? "y" : "n" };
}

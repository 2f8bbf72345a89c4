import type { TestAdminSummary } from "./admins";
import type { TestOrder, TestOrderEdit, TestOrderTest } from "./orders";

/**
 * The analytics variables of a test order and of a test administration
 * summary (docs/modules.md). Event and eVar numbers are placeholders to
 * confirm with the analytics team.
 */

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

/** A test order: event250 for an order, event251 for an edit (an order with at least one changed test). */
export function testOrderVariables(order: TestOrder): Record<string, string> {
  const edited = order.editOrders.length > 0;
  const vars: Record<string, string> = {
    events: edited ? "event251" : "event250",
    eVar51: order.orderId,
    eVar52: order.coverage,
    eVar53: order.tests.map(testText).join("|"),
    eVar55: "billing:" + (order.billing ? "y" : "n") + "|po:" + (order.purchaseOrder ? "y" : "n") + "|contract:" + (order.contract ? "y" : "n"),
  };
  if (edited) vars.eVar54 = order.editOrders.map(editText).join("|");
  return vars;
}

/** A test administration summary. */
export function testAdminSummaryVariables(summary: TestAdminSummary): Record<string, string> {
  return { eVar56: summary.aiCode, eVar57: summary.admins.join("|"), eVar58: summary.date, eVar59: summary.inContract ? "y" : "n" };
}

import type { TestOrdersModuleConfig } from "../../../generator/config/schemas/feature-modules.js";
import type { ModuleInstance, ModuleServices } from "../../core/types";
import { REQUIRED_DATA_MISSING } from "../../core/messages";
import { moduleEventListener } from "../../core/module-events";
import { text } from "../sat-funnel/page-path";
import { testAdminSummary, type TestAdminSummary } from "./admins";
import { testAdminSummaryVariables, testOrderVariables } from "./order-variables";
import { testOrder, type TestOrder, type TestOrderTestInput } from "./orders";
import { isObject } from "../../core/is-object";

/** Interaction type of test orders and summaries; also the module's marker in registry.ts. */
export const TEST_ORDER_EVENT_TYPE = "kiwi.testOrder";
/** The data-layer events the module listens to (docs/modules.md). */
export const TEST_ORDER_PUSHES = { order: "test-order", summary: "test-admin-summary" } as const;

const MODULE = "testOrders";

/**
 * SAT School Day and PSAT-family test orders (spec sections 3-5). A
 * `test-order` push is sent as a `kiwi.testOrder` interaction: the order id,
 * its tests, coverage (contract or transactional) and, for an edit, each
 * changed test (quantity increased or decreased with the amount, grades added
 * or removed, allocated schools scale by config.schoolsScaleFrom). No order
 * id: 'required data missing', nothing sent. A `test-admin-summary` push is
 * checked (every administration name one of the four, a date) and sent with
 * the school code from the school label; otherwise its errors are logged and
 * nothing is sent.
 *
 * Commands: `lastOrder()`, `lastSummary()` (the last records sent, or null).
 */
export function createTestOrders(services: ModuleServices<TestOrdersModuleConfig>): ModuleInstance {
  const { config, log, dataLayer, analytics } = services;
  // The variable numbers (analyticsVariables.testOrders in sites/_org.yaml; kept while the module is enabled).
  const names = services.bundle.analyticsVariables.testOrders!;
  let lastOrder: TestOrder | null = null;
  let lastSummary: TestAdminSummary | null = null;

  function onOrder(push: Record<string, unknown>): void {
    const id = text(push.orderId);
    if (!id) return void log.warn(REQUIRED_DATA_MISSING, { module: MODULE, field: "orderId" });
    const tests = (Array.isArray(push.tests) ? push.tests : []).filter(isObject).map((t) => ({ ...t, name: text(t.name) }) as TestOrderTestInput);
    const order = testOrder(
      {
        orderId: id,
        tests,
        billing: push.billing === true,
        purchaseOrder: push.purchaseOrder === true,
        contractCells: Array.isArray(push.contractCells) ? push.contractCells : null,
      },
      config.schoolsScaleFrom,
    );
    lastOrder = order;
    const name = (order.editOrders.length ? "test order edit:" : "test order:") + order.orderId;
    analytics.event({ name, eventType: TEST_ORDER_EVENT_TYPE, linkType: "other", variables: testOrderVariables(order, names) });
  }

  function onSummary(push: Record<string, unknown>): void {
    const result = testAdminSummary({
      admins: Array.isArray(push.admins) ? push.admins : [],
      schoolLabel: push.schoolLabel,
      date: push.date,
      inContract: push.inContract === true,
    });
    for (const message of result.errors) log.error(message, { module: MODULE, admins: push.admins, date: push.date });
    if (!result.summary) return;
    lastSummary = result.summary;
    analytics.event({
      name: "test admin summary:" + (result.summary.aiCode || "unknown"),
      eventType: TEST_ORDER_EVENT_TYPE,
      linkType: "other",
      variables: testAdminSummaryVariables(result.summary, names),
    });
  }

  dataLayer.on(moduleEventListener(log, MODULE, { [TEST_ORDER_PUSHES.order]: onOrder, [TEST_ORDER_PUSHES.summary]: onSummary }));

  return {
    commands: {
      lastOrder: () => lastOrder,
      lastSummary: () => lastSummary,
    },
  };
}

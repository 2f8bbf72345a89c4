import { afterEach, describe, expect, it, vi } from "vitest";
import { TestOrdersModuleSchema } from "../../../../../generator/config/schemas/feature-modules.js";
import { MODULE_FAILED, REQUIRED_DATA_MISSING } from "../../../../../runtime-modules/core/messages";
import { createTestOrders, TEST_ORDER_EVENT_TYPE } from "../../../../../runtime-modules/modules/test-orders/create-test-orders";
import { ADMIN_NAME_NOT_RECOGNIZED, DATE_REQUIRED } from "../../../../../runtime-modules/modules/test-orders/messages";
import { registry } from "../../../../../runtime-modules/registry";
import { featureServices } from "../feature-services";

function setup(settings: Record<string, unknown> = {}, preload: Record<string, unknown>[] = []) {
  const h = featureServices(TestOrdersModuleSchema.parse(settings), { url: "https://schoolday.kiwi.example/orders/edit", preload });
  const instance = createTestOrders(h.services);
  h.start();
  return { ...h, commands: instance.commands! };
}

const edit = {
  event: "test-order",
  orderId: "TO-2024-0042",
  tests: [
    {
      name: "PSAT/NMSQT",
      previousOrderQty: 120,
      updatedOrderQty: 150,
      adminYear: "2024",
      regBy: "school",
      semester: "fall",
      grades: ["10", "11"],
      previousGrades: ["10"],
      allocatedSchools: 12,
    },
    { name: "PSAT 10", previousOrderQty: "1,200", updatedOrderQty: 1150, grades: ["10"], previousGrades: ["9", "10"], allocatedSchools: 60 },
    { name: "SAT School Day", previousOrderQty: 80, updatedOrderQty: 80, grades: ["11"], previousGrades: ["11"], allocatedSchools: 3 },
  ],
  billing: true,
  purchaseOrder: false,
  contractCells: ["-", "\u2013", ""],
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("createTestOrders", () => {
  it("its event type is the marker in the module's manifest (module.ts); commands are the ones its manifest lists", () => {
    const { commands } = setup();
    expect(registry.testOrders.markers).toEqual([TEST_ORDER_EVENT_TYPE]);
    expect(Object.keys(commands).sort()).toEqual([...registry.testOrders.commands].sort());
    expect(registry.testOrders.provides).toEqual([]);
  });

  it("an edit: quantity increased or decreased with the amount, grades added or removed, allocated schools scale; transactional coverage", () => {
    const h = setup();
    h.push(edit);
    expect(h.events().map((e) => [e.name, e.eventType, e.variables])).toEqual([
      [
        "test order edit:TO-2024-0042",
        "kiwi.testOrder",
        {
          events: "event251",
          eVar51: "TO-2024-0042",
          eVar52: "transactional",
          eVar53: "PSAT/NMSQT:120:150:2024:school:fall:10,11:12|PSAT 10:1200:1150::::10:60|SAT School Day:80:80::::11:3",
          eVar54: "PSAT/NMSQT:increased:30:+11:-:2|PSAT 10:decreased:50:+:-9:3",
          eVar55: "billing:y|po:n|contract:n",
        },
      ],
    ]);
    expect(h.commands.lastOrder()).toMatchObject({ orderId: "TO-2024-0042", coverage: "transactional", contract: false });
  });

  it("a new order (nothing changed): event250, no edits; a contract cell other than a dash makes the coverage contract", () => {
    const h = setup();
    h.push({
      event: "test-order",
      orderId: 7,
      tests: [{ name: "PSAT 8/9", updatedOrderQty: 40, grades: ["8", "9"] }],
      contractCells: ["-", "C-1102"],
      purchaseOrder: true,
    });
    expect(h.events()[0]).toMatchObject({
      name: "test order:7",
      variables: { events: "event250", eVar51: "7", eVar52: "contract", eVar53: "PSAT 8/9::40::::8,9:", eVar55: "billing:n|po:y|contract:y" },
    });
    expect(h.events()[0].variables.eVar54).toBeUndefined();
  });

  it("grades only (quantity unchanged) is an edit; schoolsScaleFrom comes from the settings", () => {
    const h = setup({ schoolsScaleFrom: [5, 20] });
    h.push({
      event: "test-order",
      orderId: "A",
      tests: [{ name: "PSAT 10", previousOrderQty: 10, updatedOrderQty: 10, grades: ["9", "10"], previousGrades: ["10"], allocatedSchools: 5 }],
    });
    expect(h.events()[0].variables.eVar54).toBe("PSAT 10:unchanged:+9:-:2");
  });

  it("no order id: 'required data missing', nothing sent", () => {
    const h = setup();
    h.push({ event: "test-order", tests: [] });
    h.push({ event: "test-order", orderId: "  " });
    expect(h.events()).toEqual([]);
    expect(h.logs()).toEqual([
      ["warn", REQUIRED_DATA_MISSING],
      ["warn", REQUIRED_DATA_MISSING],
    ]);
    expect(h.commands.lastOrder()).toBeNull();
  });

  it("a test administration summary: admins as sat/pn/p10/p89, the school code from the last brackets, the date yyyymmdd", () => {
    const h = setup({}, [
      {
        event: "test-admin-summary",
        admins: ["SAT School Day", "psat 10", "PSAT/NMSQT"],
        schoolLabel: "Lincoln High (Springfield) (123456)",
        date: "2024/10/16",
        inContract: true,
      },
    ]);
    expect(h.events().map((e) => [e.name, e.variables])).toEqual([
      ["test admin summary:123456", { eVar56: "123456", eVar57: "sat|p10|pn", eVar58: "20241016", eVar59: "y" }],
    ]);
    expect(h.commands.lastSummary()).toEqual({ aiCode: "123456", admins: ["sat", "p10", "pn"], date: "20241016", inContract: true });
  });

  it('"administration name must be SAT School Day, PSAT/NMSQT, PSAT 10 or PSAT 8/9, else error"; "A date is required"', () => {
    const h = setup();
    h.push({ event: "test-admin-summary", admins: ["SAT School Day", "ACT"], schoolLabel: "X (1)", date: "2024-10-16" });
    h.push({ event: "test-admin-summary", admins: ["PSAT 8/9"], schoolLabel: "X (1)" });
    h.push({ event: "test-admin-summary", admins: [], schoolLabel: "X (1)", date: "31/31/2024" });
    expect(h.events()).toEqual([]);
    expect(h.logs()).toEqual([
      ["error", ADMIN_NAME_NOT_RECOGNIZED],
      ["error", DATE_REQUIRED],
      ["error", ADMIN_NAME_NOT_RECOGNIZED],
      ["error", DATE_REQUIRED],
    ]);
    expect(h.commands.lastSummary()).toBeNull();
  });

  it("never throws into the page: a failing send is logged", () => {
    const h = setup();
    h.failSends();
    expect(() => h.push(edit)).not.toThrow();
    expect(h.log.entries.map((e) => e.message)).toEqual([MODULE_FAILED]);
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TestOrdersModuleSchema } from "../../../../../generator/config/schemas/feature-modules.js";
import {
  allocatedSchoolsScale,
  gradeEdits,
  orderCoverage,
  orderQty,
  quantityEdit,
  testEdit,
  testOrder,
} from "../../../../../runtime-modules/modules/test-orders/orders";

describe("coverage", () => {
  it.each([
    [["-", "-", "-"], "transactional"],
    [["-", "120", "-"], "contract"],
    [["Yes"], "contract"],
    [[" - "], "transactional"],
    [["\u2013", "\u2014"], "transactional"],
    [["", null, undefined], "transactional"],
    [[0], "contract"],
    [[], "transactional"],
    [null, "transactional"],
  ])('"Coverage is contract if any contract cell differs from a dash, else transactional": %o → %s', (cells, coverage) => {
    expect(orderCoverage(cells)).toBe(coverage);
  });
});

describe("quantity edits", () => {
  it.each([
    [100, 150, "increased:50"],
    ["1,200", "1,000", "decreased:200"],
    [0, 5, "increased:5"],
    [5, 0, "decreased:5"],
    [10, 10, null],
    [undefined, 10, null],
    [10, "", null],
    ["ten", 10, null],
    [-1, 10, null],
    [1.5, 10, null],
  ])('"quantity labelled increased or decreased with the amount": %s → %s gives %s', (a, b, label) => {
    expect(quantityEdit(a, b)).toBe(label);
  });

  it("label and amount over random quantities (property)", () => {
    fc.assert(
      fc.property(fc.nat(100000), fc.nat(100000), (a, b) => {
        const label = quantityEdit(a, b);
        if (a === b) expect(label).toBeNull();
        else expect(label).toBe((b > a ? "increased:" : "decreased:") + Math.abs(b - a));
      }),
    );
  });

  it("orderQty", () => {
    expect(orderQty("1,234")).toBe(1234);
    expect(orderQty(" 7 ")).toBe(7);
    expect(orderQty("")).toBeNull();
  });
});

describe("grade edits", () => {
  it('"grades added or removed"', () => {
    expect(gradeEdits(["10", "11"], ["11", "12"])).toEqual({ added: ["12"], removed: ["10"] });
    expect(gradeEdits([10, 11], ["10", "11"])).toEqual({ added: [], removed: [] });
    expect(gradeEdits(null, ["9"])).toEqual({ added: ["9"], removed: [] });
    expect(gradeEdits(["9", "9", " "], [])).toEqual({ added: [], removed: ["9"] });
  });
  it("added and removed are disjoint and rebuild the updated set (property)", () => {
    const grade = fc.constantFrom("8", "9", "10", "11", "12");
    fc.assert(
      fc.property(fc.uniqueArray(grade), fc.uniqueArray(grade), (a, b) => {
        const { added, removed } = gradeEdits(a, b);
        expect(added.filter((g) => removed.includes(g))).toEqual([]);
        expect(new Set([...a.filter((g) => !removed.includes(g)), ...added])).toEqual(new Set(b));
      }),
    );
  });
});

describe("allocated schools scale", () => {
  it.each([
    [0, 1],
    [1, 1],
    [9, 1],
    [10, 2],
    [11, 2],
    [49, 2],
    [50, 3],
    [51, 3],
    [5000, 3],
    ["12", 2],
    [-1, null],
    [undefined, null],
    ["many", null],
  ])('"allocated schools scale <10 is 1, 10-50 is 2, 50+ is 3" (10 is 2, 50 is 3): %s → %s', (n, scale) => {
    expect(allocatedSchoolsScale(n)).toBe(scale);
  });

  it("the default boundaries are the schema's", () => {
    const { schoolsScaleFrom } = TestOrdersModuleSchema.parse({});
    expect(schoolsScaleFrom).toEqual([10, 50]);
    expect(allocatedSchoolsScale(50, [10, 51])).toBe(2);
  });

  it("scale is monotonic in the count (property)", () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.nat(1000), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(allocatedSchoolsScale(lo)!).toBeLessThanOrEqual(allocatedSchoolsScale(hi)!);
        expect(allocatedSchoolsScale(lo)).toBe(lo < 10 ? 1 : lo < 50 ? 2 : 3);
      }),
    );
  });
});

describe("test order record", () => {
  it("orderId; tests (name, previous and updated orderQty, admin year, regBy, semester, grades, allocatedSchools); billing, purchase-order and contract flags; edit orders", () => {
    const order = testOrder({
      orderId: " SO-77 ",
      billing: true,
      purchaseOrder: false,
      contractCells: ["-", "250"],
      tests: [
        {
          name: "PSAT/NMSQT",
          previousOrderQty: "100",
          updatedOrderQty: "140",
          adminYear: 2025,
          regBy: "school",
          semester: "fall",
          grades: ["10", "11"],
          previousGrades: ["10"],
          allocatedSchools: 12,
        },
        { name: "PSAT 10", updatedOrderQty: 30, adminYear: "2025", semester: "spring", grades: ["10"], allocatedSchools: "3" },
      ],
    });
    expect(order).toEqual({
      orderId: "SO-77",
      billing: true,
      purchaseOrder: false,
      contract: true,
      coverage: "contract",
      tests: [
        {
          name: "PSAT/NMSQT",
          previousOrderQty: 100,
          updatedOrderQty: 140,
          adminYear: "2025",
          regBy: "school",
          semester: "fall",
          grades: ["10", "11"],
          allocatedSchools: 12,
        },
        { name: "PSAT 10", previousOrderQty: null, updatedOrderQty: 30, adminYear: "2025", regBy: "", semester: "spring", grades: ["10"], allocatedSchools: 3 },
      ],
      editOrders: [{ name: "PSAT/NMSQT", quantity: "increased:40", gradesAdded: ["11"], gradesRemoved: [], allocatedSchoolsScale: 2 }],
    });
  });

  it("a transactional order with no edits", () => {
    const order = testOrder({
      orderId: 5,
      tests: [{ name: "SAT School Day", previousOrderQty: 20, updatedOrderQty: 20, grades: ["11"], previousGrades: ["11"] }],
      contractCells: ["-"],
    });
    expect(order).toMatchObject({ orderId: "5", billing: false, purchaseOrder: false, contract: false, coverage: "transactional", editOrders: [] });
  });

  it("an edit of grades only; custom scale boundaries", () => {
    expect(
      testEdit({ name: "PSAT 8/9", previousOrderQty: 5, updatedOrderQty: 5, grades: ["8"], previousGrades: ["8", "9"], allocatedSchools: 50 }, [10, 60]),
    ).toEqual({
      name: "PSAT 8/9",
      quantity: null,
      gradesAdded: [],
      gradesRemoved: ["9"],
      allocatedSchoolsScale: 2,
    });
  });
});

/**
 * Test orders for SAT School Day and the PSAT family (spec sections 3 and 4):
 * coverage, the edit of an order (quantity, grades, allocated schools) and
 * the order record.
 */

export type Coverage = "contract" | "transactional";

/** Cells that count as a dash: hyphen, en dash, em dash; a blank cell counts as one too. */
const DASHES = ["", "-", "\u2013", "\u2014"];

/** "Coverage is contract if any contract cell differs from a dash, else transactional." */
export function orderCoverage(contractCells: readonly unknown[] | null | undefined): Coverage {
  return (contractCells || []).some((c) => DASHES.indexOf(c == null ? "" : String(c).trim()) < 0) ? "contract" : "transactional";
}

/** An order quantity: a whole number at least 0 ("1,200" → 1200); null otherwise. */
export function orderQty(value: unknown): number | null {
  const s = value == null ? "" : String(value).replace(/,/g, "").trim();
  return /^\d+$/.test(s) ? +s : null;
}

/** The quantity edit: "increased:N" or "decreased:N" with the amount; null when unchanged or either quantity is missing. */
export function quantityEdit(previous: unknown, updated: unknown): string | null {
  const a = orderQty(previous);
  const b = orderQty(updated);
  if (a === null || b === null || a === b) return null;
  return (b > a ? "increased:" : "decreased:") + Math.abs(b - a);
}

/** Grades as strings, trimmed, blanks dropped, each once. */
export function gradeList(grades: readonly unknown[] | null | undefined): string[] {
  const out: string[] = [];
  for (const g of grades || []) {
    const s = g == null ? "" : String(g).trim();
    if (s && out.indexOf(s) < 0) out.push(s);
  }
  return out;
}

/** Grades added and removed between the previous and the updated order. */
export function gradeEdits(
  previous: readonly unknown[] | null | undefined,
  updated: readonly unknown[] | null | undefined,
): { added: string[]; removed: string[] } {
  const a = gradeList(previous);
  const b = gradeList(updated);
  return { added: b.filter((g) => a.indexOf(g) < 0), removed: a.filter((g) => b.indexOf(g) < 0) };
}

/**
 * Allocated schools scale: below 10 is 1, 10 up to 49 is 2, 50 and more is 3
 * (`from` = testOrders.schoolsScaleFrom, the counts where 2 and 3 start).
 * Null for anything but a whole number at least 0.
 */
export function allocatedSchoolsScale(count: unknown, from: readonly [number, number] = [10, 50]): 1 | 2 | 3 | null {
  const n = orderQty(count);
  return n === null ? null : n < from[0] ? 1 : n < from[1] ? 2 : 3;
}

export interface TestOrderTestInput {
  name: string;
  previousOrderQty?: unknown;
  updatedOrderQty?: unknown;
  adminYear?: unknown;
  regBy?: unknown;
  semester?: unknown;
  grades?: readonly unknown[] | null;
  /** The grades before the edit, on an edit-order page. */
  previousGrades?: readonly unknown[] | null;
  allocatedSchools?: unknown;
}

export interface TestOrderTest {
  name: string;
  previousOrderQty: number | null;
  updatedOrderQty: number | null;
  adminYear: string;
  regBy: string;
  semester: string;
  grades: string[];
  allocatedSchools: number | null;
}

export interface TestOrderEdit {
  name: string;
  quantity: string | null;
  gradesAdded: string[];
  gradesRemoved: string[];
  allocatedSchoolsScale: 1 | 2 | 3 | null;
}

export interface TestOrder {
  orderId: string;
  tests: TestOrderTest[];
  billing: boolean;
  purchaseOrder: boolean;
  contract: boolean;
  coverage: Coverage;
  /** One entry per test whose quantity or grades changed. */
  editOrders: TestOrderEdit[];
}

function text(v: unknown): string {
  return v == null ? "" : String(v).trim();
}

/** The edit of one test; null when neither quantity nor grades changed. */
export function testEdit(test: TestOrderTestInput, from?: readonly [number, number]): TestOrderEdit | null {
  const quantity = quantityEdit(test.previousOrderQty, test.updatedOrderQty);
  const grades = test.previousGrades ? gradeEdits(test.previousGrades, test.grades) : { added: [], removed: [] };
  return quantity || grades.added.length || grades.removed.length
    ? {
        name: text(test.name),
        quantity,
        gradesAdded: grades.added,
        gradesRemoved: grades.removed,
        allocatedSchoolsScale: allocatedSchoolsScale(test.allocatedSchools, from),
      }
    : null;
}

/** The test order record; `contract` follows the coverage of the contract cells. */
export function testOrder(
  order: { orderId: unknown; tests: readonly TestOrderTestInput[]; billing?: boolean; purchaseOrder?: boolean; contractCells?: readonly unknown[] | null },
  from?: readonly [number, number],
): TestOrder {
  const coverage = orderCoverage(order.contractCells);
  const editOrders: TestOrderEdit[] = [];
  const tests = order.tests.map((t) => {
    const edit = testEdit(t, from);
    if (edit) editOrders.push(edit);
    return {
      name: text(t.name),
      previousOrderQty: orderQty(t.previousOrderQty),
      updatedOrderQty: orderQty(t.updatedOrderQty),
      adminYear: text(t.adminYear),
      regBy: text(t.regBy),
      semester: text(t.semester),
      grades: gradeList(t.grades),
      allocatedSchools: orderQty(t.allocatedSchools),
    };
  });
  return {
    orderId: text(order.orderId),
    tests,
    billing: !!order.billing,
    purchaseOrder: !!order.purchaseOrder,
    contract: coverage === "contract",
    coverage,
    editOrders,
  };
}

import { describe, expect, it } from "vitest";
import { TestOrdersModuleSchema } from "../../../../../generator/config/schemas/feature-modules.js";

describe("testOrders settings", () => {
  it("spec defaults", () => {
    expect(TestOrdersModuleSchema.parse({})).toEqual({ enabled: true, schoolsScaleFrom: [10, 50] });
  });
  it("rejects bad values", () => {
    for (const bad of [
      { schoolsScaleFrom: [10] },
      { schoolsScaleFrom: [10, 50.5] },
      { schoolsScaleFrom: [0, 50] },
      { schoolsScaleFrom: [50, 50] },
      { other: true },
    ])
      expect(TestOrdersModuleSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
  it("every setting is described", () => {
    expect(TestOrdersModuleSchema.shape.schoolsScaleFrom.description).toBeTruthy();
  });
});

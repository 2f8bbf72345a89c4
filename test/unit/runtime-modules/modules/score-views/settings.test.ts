import { z } from "zod";
import { describe, expect, it } from "vitest";
import { FeatureModulesShape, ScoreViewsModuleSchema } from "../../../../../generator/config/schemas/feature-modules.js";

describe("scoreViews settings", () => {
  it("spec defaults", () => {
    expect(ScoreViewsModuleSchema.parse({ site: "registration" })).toEqual({
      enabled: true,
      site: "registration",
      hubPageCodes: {
        "sat-score-view": "sat-score-view",
        "psat-score-view": "psat-score-view",
        "sat-score-report-view": "sat-score-report-view",
        "psat-score-report-view": "psat-score-report-view",
      },
      registrationPaths: ["/register"],
      dashboardPaths: ["/dashboard"],
    });
  });
  it("rejects a missing or unknown site kind, bad paths, bad page codes and types, unknown keys", () => {
    for (const bad of [
      {},
      { site: "scores" },
      { site: "registration", registrationPaths: ["register"] },
      { site: "hub", hubPageCodes: { "SAT View": "sat-score-view" } },
      { site: "hub", hubPageCodes: { "sat-view": "ap-score-view" } },
      { site: "hub", extra: 1 },
    ])
      expect(ScoreViewsModuleSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
  it("every setting is described, and the module shape converts to JSON Schema", () => {
    for (const [key, value] of Object.entries(ScoreViewsModuleSchema.shape)) if (key !== "enabled") expect(value.description, key).toBeTruthy();
    expect(Object.keys(FeatureModulesShape)).toEqual(["scoreViews", "satFunnel", "testOrders"]);
    const json = z.toJSONSchema(z.strictObject(FeatureModulesShape), { io: "input", unrepresentable: "any" }) as { properties: Record<string, unknown> };
    expect(Object.keys(json.properties)).toEqual(["scoreViews", "satFunnel", "testOrders"]);
  });
});

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AnalyticsRulesSchema } from "../../../../generator/config/schemas/analytics.js";
import { rules } from "./rules";

describe("AnalyticsRulesSchema", () => {
  it("defaults: the spec's download types and default pattern, tracking-code parameters, 60 days", () => {
    expect(rules.downloadExtensions).toEqual([
      "doc",
      "docx",
      "eps",
      "jpg",
      "png",
      "svg",
      "xls",
      "ppt",
      "pptx",
      "pdf",
      "xlsx",
      "tab",
      "csv",
      "zip",
      "txt",
      "exe",
      "wav",
      "mp3",
      "mov",
      "mpg",
      "avi",
      "wmv",
    ]);
    expect(rules.trackingParams).toEqual(["excmpid", "sfmc_cid", "s_kwcid"]);
    expect(rules.historyDays).toBe(60);
    expect(rules.internalDomains).toEqual([]);
  });
  it('"Partner domains (five)": five placeholder domains', () => {
    expect(rules.partnerDomains).toHaveLength(5);
  });
  it("every setting is described (for the JSON Schema)", () => {
    for (const [key, value] of Object.entries(AnalyticsRulesSchema.shape)) expect((value as z.ZodType).description, key).toBeTruthy();
    expect(() => z.toJSONSchema(AnalyticsRulesSchema, { io: "input" })).not.toThrow();
  });
  it("rejects bad values", () => {
    const bad = [
      { partnerDomains: ["Not A Domain"] },
      { downloadExtensions: [".pdf"] },
      { smallWords: ["two words"] },
      { historyDays: 0 },
      { searchEngines: [{ domain: "google.com" }] },
      { unknown: 1 },
    ];
    for (const value of bad) expect(AnalyticsRulesSchema.safeParse(value).success, JSON.stringify(value)).toBe(false);
  });
  it("accepts overrides", () => {
    const r = AnalyticsRulesSchema.parse({ internalDomains: ["kiwi-partner.example"], emailParams: { message: "mid" } });
    expect(r.internalDomains).toEqual(["kiwi-partner.example"]);
    expect(r.emailParams).toEqual({ message: "mid", recipient: "sfmc_rid", segment: "sfmc_sid" });
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { vitalDelta, vitalRecord, vitalsBatch } from "../../../../runtime-modules/analytics/web-vitals";

const metric = (name: string, delta: number) => ({ name, value: delta * 3, delta, rating: "good", navigationType: "navigate" });

describe("web vitals", () => {
  it('"Web vitals: CLS delta times 1000 rounded"', () => {
    expect(vitalDelta("CLS", 0.1234)).toBe(123);
    expect(vitalDelta("CLS", 0.0005)).toBe(1);
    expect(vitalDelta("CLS", 0)).toBe(0);
  });
  it('"others rounded"', () => {
    expect(vitalDelta("LCP", 2499.5)).toBe(2500);
    expect(vitalDelta("FCP", 812.4)).toBe(812);
    expect(vitalDelta("INP", 48.49)).toBe(48);
    expect(vitalDelta("TTFB", 0.4)).toBe(0);
  });
  it("not a finite number gives 0", () => {
    expect(vitalDelta("LCP", NaN)).toBe(0);
    expect(vitalDelta("CLS", Infinity)).toBe(0);
    expect(Object.is(vitalDelta("LCP", -0.2), 0)).toBe(true);
  });
  it('"Web vitals batch: name, rating, navigationType, delta"', () => {
    expect(vitalRecord({ name: "CLS", value: 0.25, delta: 0.05, rating: "needs-improvement", navigationType: "back-forward" })).toEqual({
      name: "CLS",
      rating: "needs-improvement",
      navigationType: "back-forward",
      delta: 50,
    });
  });
  it('"page-performance metrics (LCP, CLS, FCP, INP, TTFB)": the batch keeps these, in order', () => {
    const batch = vitalsBatch([metric("LCP", 1000.6), metric("FID", 3), metric("CLS", 0.01), metric("FCP", 1), metric("INP", 2), metric("TTFB", 3)]);
    expect(batch.map((r) => [r.name, r.delta])).toEqual([
      ["LCP", 1001],
      ["CLS", 10],
      ["FCP", 1],
      ["INP", 2],
      ["TTFB", 3],
    ]);
  });
  it("every delta is an integer", () => {
    fc.assert(
      fc.property(fc.constantFrom("LCP", "CLS", "FCP", "INP", "TTFB"), fc.double(), (name, d) => {
        expect(Number.isInteger(vitalDelta(name, d))).toBe(true);
      }),
    );
  });
});

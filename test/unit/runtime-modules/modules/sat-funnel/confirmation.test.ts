import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { confirmationKey, MAX_CONFIRMED_ORDERS, parseConfirmed, withConfirmed } from "../../../../../runtime-modules/modules/sat-funnel/confirmation";

describe('"confirmation-step cookie": the orders already counted this session', () => {
  it("an order's key is its kind and id; the separator cannot occur inside a key", () => {
    expect(confirmationKey("newreg", "SR12345")).toBe("newreg|SR12345");
    expect(confirmationKey("payment", "A~B")).toBe("payment|AB");
  });

  it("a missing or empty cookie has no confirmed orders", () => {
    expect(parseConfirmed(undefined)).toEqual([]);
    expect(parseConfirmed("")).toEqual([]);
    expect(parseConfirmed("a~~b")).toEqual(["a", "b"]);
  });

  it("a confirmed order is added as the newest; one confirmed again moves to the end, not twice", () => {
    expect(withConfirmed([], "a")).toBe("a");
    expect(withConfirmed(["a", "b"], "a")).toBe("b~a");
  });

  it(`at most ${MAX_CONFIRMED_ORDERS} orders are kept, the newest; what was just added is always there`, () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z0-9|]{1,12}$/), { maxLength: 12 }), fc.stringMatching(/^[a-z0-9|]{1,12}$/), (list, key) => {
        const kept = parseConfirmed(withConfirmed(list, key));
        expect(kept.length).toBeLessThanOrEqual(MAX_CONFIRMED_ORDERS);
        expect(kept[kept.length - 1]).toBe(key);
        expect(kept.filter((k) => k === key)).toHaveLength(1);
      }),
      { numRuns: 500 },
    );
  });
});

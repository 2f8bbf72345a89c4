import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stableStringify } from "../../../generator/bundle/hash.js";

/** The form stableStringify had until issue #21's cold3 change: what every inputsHash in a config cache and a manifest was taken over. */
function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${reference((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Leaves as configs and odd inputs have them: text with quotes and escapes, numbers (NaN, -0), undefined, a function. */
const leaf = fc.oneof(
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: "binary" }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant(() => 1),
);

describe("stableStringify (bundle/hash.ts)", () => {
  it("gives the same text as its earlier form for any value, so that no inputsHash changes", () => {
    fc.assert(
      fc.property(
        fc.anything({
          key: fc.oneof(fc.string(), fc.constantFrom("a", "b", "B", "_", "10", "9", "é", "__proto__", 'q"uote')),
          values: [leaf],
          maxDepth: 4,
          withNullPrototype: true,
          withSparseArray: true,
          withDate: true,
          withMap: true,
          withSet: true,
        }),
        (value) => {
          expect(stableStringify(value)).toBe(reference(value));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("does not depend on key order: the same text for an object's keys in any order", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), leaf, { maxKeys: 12 }), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(stableStringify(reversed)).toBe(stableStringify(record));
        expect(stableStringify(reversed)).toBe(reference(record));
      }),
    );
  });
});

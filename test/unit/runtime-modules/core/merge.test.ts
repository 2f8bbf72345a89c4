import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { mergeInto, unsafeKey } from "../../../../runtime-modules/core/merge";
import { mergeLayers } from "../../../../generator/config/merge";

const proto = Object.prototype as Record<string, unknown>;
afterEach(() => {
  // A failing case must not leak into the next one.
  delete proto.polluted;
});

/** JSON values whose objects may hold the dangerous keys as own keys (as JSON.parse builds them). */
const key = fc.oneof(fc.constantFrom("__proto__", "constructor", "prototype", "a", "b", "polluted", "toString"), fc.string({ maxLength: 4 }));
const { json } = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.boolean(), fc.constant(null)),
    tie("obj"),
    fc.array(tie("json"), { maxLength: 3 }),
  ),
  obj: fc.dictionary(key, tie("json"), { maxKeys: 4 }),
}));
/** The source as text, parsed: "__proto__" stays an own key. */
const parsedObject = fc.dictionary(key, json, { maxKeys: 5 }).map((o) => JSON.stringify(o).replace(/"(constructor|prototype|toString)"/g, '"__proto__"'));

/** The reference: a JSON-level merge without the unsafe keys. */
function expected(target: unknown, source: unknown): unknown {
  const plain = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (!plain(source)) return target;
  const out: Record<string, unknown> = plain(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(source)) {
    if (unsafeKey(k)) continue;
    out[k] = plain(v) ? expected(Object.prototype.hasOwnProperty.call(out, k) ? out[k] : undefined, v) : v;
  }
  return out;
}

describe("mergeInto (the one guarded deep merge: own keys only; __proto__, constructor and prototype skipped)", () => {
  it("merges objects key by key and replaces everything else (lists too)", () => {
    expect(mergeInto({ a: { b: 1, c: [1] }, d: 1 }, { a: { c: [2], e: 3 }, d: { x: 1 } })).toEqual({ a: { b: 1, c: [2], e: 3 }, d: { x: 1 } });
    expect(mergeInto({ a: 1 }, undefined)).toEqual({ a: 1 });
  });

  it('"an object with a "__proto__" key (one built by JSON.parse) pollutes Object.prototype": never through the merge', () => {
    fc.assert(
      fc.property(parsedObject, parsedObject, (t, s) => {
        const target = JSON.parse(t) as Record<string, unknown>;
        const source = JSON.parse(s) as Record<string, unknown>;
        const want = expected(JSON.parse(t), source);
        const before = Object.getOwnPropertyNames(Object.prototype).join();
        const out = mergeInto(target, source);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.getOwnPropertyNames(Object.prototype).join()).toBe(before);
        // Same JSON as the reference, with the unsafe keys left where the target had them.
        expect(JSON.parse(JSON.stringify(out))).toEqual(JSON.parse(JSON.stringify(want)));
      }),
      { numRuns: 500, seed: 22 },
    );
  });

  it("the classic payloads change no prototype, at the top or nested", () => {
    for (const text of [
      '{"__proto__":{"polluted":1}}',
      '{"a":{"__proto__":{"polluted":1}}}',
      '{"constructor":{"prototype":{"polluted":1}}}',
      '{"a":{"constructor":{"prototype":{"polluted":1}}}}',
    ]) {
      const target: Record<string, unknown> = { a: {} };
      mergeInto(target, JSON.parse(text));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
      expect(Object.getPrototypeOf(target.a)).toBe(Object.prototype);
    }
  });

  it("reads own keys only: inherited keys are not merged", () => {
    const source = Object.create({ inherited: 1 }) as Record<string, unknown>;
    source.own = 2;
    // Not a plain object (its prototype is another object): a value, not merged.
    expect(mergeInto({}, { x: source })).toEqual({ x: source });
    const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { own: 1 });
    expect(mergeInto({}, nullProto)).toEqual({ own: 1 });
  });

  it("copies the source's objects (the target never shares them) and keeps a cycle as a value", () => {
    const inner = { b: 1 };
    const out = mergeInto<Record<string, unknown>>({}, { a: inner });
    expect(out.a).toEqual(inner);
    expect(out.a).not.toBe(inner);
    const cyclic: Record<string, unknown> = { n: 1 };
    cyclic.self = cyclic;
    const merged = mergeInto<Record<string, unknown>>({}, cyclic);
    expect(merged.self).toBe(cyclic);
  });

  it("serves the generator's config layers too (mergeLayers): later layers win key by key", () => {
    const layers = [{ a: { b: 1, c: 2 }, l: [1] }, undefined, { a: { c: 3 }, l: [2] }, JSON.parse('{"__proto__":{"polluted":1},"a":{"d":4}}')];
    expect(mergeLayers(...layers)).toEqual({ a: { b: 1, c: 3, d: 4 }, l: [2] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

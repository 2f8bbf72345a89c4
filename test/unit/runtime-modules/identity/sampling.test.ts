/** The sampling decision (runtime-modules/identity/sampling.ts; docs/identity.md, "Sampling"). */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { createSampling, sampledIn } from "../../../../runtime-modules/identity/sampling";

/** Visitor ids as the runtime makes them: a random 52-bit integer in base 36. */
const visitorId = fc
  .tuple(fc.integer({ min: 0, max: 2 ** 26 - 1 }), fc.integer({ min: 0, max: 2 ** 26 - 1 }))
  .map(([high, low]) => (high * 2 ** 26 + low).toString(36));

describe('"Sampling: production 100, others 1; many sites 1 or 2; monitoring default 1 with sampled-in/out cookie per host"', () => {
  it("a rate of 2 samples in about 2% of 5,000 generated visitor ids (within 4.5 standard deviations of the binomial mean)", () => {
    for (const seed of [1, 2, 3]) {
      const ids = fc.sample(fc.noBias(visitorId), { numRuns: 5000, seed });
      expect(new Set(ids).size).toBeGreaterThan(4990);
      const count = ids.filter((id) => sampledIn(id, 2)).length;
      const mean = 5000 * 0.02;
      const sd = Math.sqrt(5000 * 0.02 * 0.98);
      expect(Math.abs(count - mean)).toBeLessThan(4.5 * sd);
    }
  });

  it("the same id gives the same answer every time; 100 takes everyone, 0 no one; a higher rate keeps everyone a lower one took", () => {
    fc.assert(
      fc.property(visitorId, fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), (id, a, b) => {
        expect(sampledIn(id, a)).toBe(sampledIn(id, a));
        expect(sampledIn(id, 100)).toBe(true);
        expect(sampledIn(id, 0)).toBe(false);
        if (sampledIn(id, Math.min(a, b))) expect(sampledIn(id, Math.max(a, b))).toBe(true);
      }),
    );
  });

  it("the decision is made once per page from the visitor's sampling id: written to the host cookie when missing, read when present; logged (the log reaches the monitor)", () => {
    const jar: Record<string, string> = {};
    const writes: unknown[] = [];
    const logged: unknown[] = [];
    const deps = (random: number) => ({
      config: { sampling: 2, identity: { cookies: { sampling: "kiwi_sampling", lifetimeDays: 60 } } } as never,
      cookies: { get: (n: string) => jar[n], set: (n: string, v: string, o?: unknown) => void (writes.push([n, v, o]), (jar[n] = v)), remove: () => undefined },
      host: "bigfuture-qa.kiwi.example",
      log: { info: (m: string, d?: unknown) => void logged.push([m, d]) } as never,
      random: () => random,
    });
    const first = createSampling(deps(0.123456789));
    const decision = first.sampledIn();
    expect(first.sampledIn()).toBe(decision);
    const id = Math.floor(0.123456789 * 4503599627370496).toString(36);
    expect(writes).toEqual([["kiwi_sampling", id, { maxAgeSeconds: 60 * 86400, domain: "bigfuture-qa.kiwi.example", sameSite: "Lax" }]]);
    expect(decision).toBe(sampledIn(id, 2));
    expect(logged).toEqual([["sampling decided", { rate: 2, sampledIn: decision }]]);
    // The next page: the cookie's id, whatever the random number says now.
    expect(createSampling(deps(0.99)).sampledIn()).toBe(decision);
    expect(writes).toHaveLength(1);
  });
});

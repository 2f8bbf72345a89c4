/**
 * The sampled tags (issue #19, docs/identity.md "Sampling"): "Tag settings
 * per host: environment, sampling rate, ..." (spec section 3) and
 * "Sampling: production 100, others 1; many sites 1 or 2; monitoring default
 * 1 with sampled-in/out cookie per host" (section 9). A tag declared sampled
 * (the rum family by default) loads only when the host's rate takes the
 * visitor (core/tag-loader.ts through the real sampling service); other tags
 * are never sampled; a bundle without a sampled tag carries no sampling code.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BundleConfig, ResolvedTag } from "../../../../generator/config/bundle-config.js";
import { featureImports, featureKeyOf, featureSetOf } from "../../../../generator/bundle/features.js";
import { resolveTags } from "../../../../generator/config/tags-check.js";
import { loadTag } from "../../../../runtime-modules/core/tag-loader";
import { createSampling, sampledIn } from "../../../../runtime-modules/identity/sampling";
import { TAG_SAMPLED_OUT } from "../../../../runtime-modules/core/messages";
import { bundleConfig, consentFor } from "../helpers/config";
import { fakePage } from "../helpers/fake-page";

const HOST = "site-qa.kiwi.example";
const visitorId = fc
  .tuple(fc.integer({ min: 0, max: 2 ** 26 - 1 }), fc.integer({ min: 0, max: 2 ** 26 - 1 }))
  .map(([high, low]) => (high * 2 ** 26 + low).toString(36));

const rum: ResolvedTag = { code: "rum", category: "performance", lifecycle: "pageTop", kind: "script", src: "https://rum.example/rum.js", sampled: true };
const plain: ResolvedTag = { code: "plain", category: "performance", lifecycle: "pageTop", kind: "script", src: "https://plain.example/p.js" };

/** One page of an internal site (consent always given unless `internal` is false) with the sampling cookie set to `id`. */
function page({ id, rate, internal = true }: { id?: string; rate: number; internal?: boolean }) {
  const fake = fakePage({ url: `https://${HOST}/page`, readyState: "complete" });
  const win = fake.window;
  const bundle = bundleConfig({ site: { code: "site", name: "Site", appId: "23", spa: false, internal }, sampling: rate });
  const logged: Array<[string, unknown]> = [];
  const log = { debug() {}, info: (m: string, d?: unknown) => void logged.push([m, d]), warn() {}, error() {}, entries: [] } as never;
  const jar: Record<string, string> = id ? { kiwi_sampling: id } : {};
  const cookies = { get: (n: string) => jar[n], set: (n: string, v: string) => void (jar[n] = v), remove: () => undefined };
  const sampling = createSampling({ config: bundle, cookies, host: HOST, log, random: () => 0.5 });
  const inserted: string[] = [];
  const events: Array<Record<string, unknown>> = [];
  const services = {
    log,
    monitor: { emit: (type: string, e: Record<string, unknown>) => void (type === "tag" && events.push(e)) },
    consent: consentFor(bundle, win, log),
    loadScript: (src: string) => (inserted.push(src), Promise.resolve()),
    win: win as never,
    bundle,
    page: { host: HOST } as never,
    sampling,
    tagFamilies: {},
  };
  return { services, inserted, events, logged, jar, sampling };
}

describe('"Tag settings per host: ... sampling rate" decides, stably per visitor, whether the sampled tags run', () => {
  it("a sampled tag loads exactly when the visitor's id is sampled in at the host's rate; an unsampled tag always loads; the same id the same answer on every page", () => {
    fc.assert(
      fc.property(visitorId, fc.constantFrom(0, 1, 2, 50, 100), (id, rate) => {
        const expected = sampledIn(id, rate);
        for (let load = 0; load < 2; load++) {
          const p = page({ id, rate });
          loadTag(p.services, rum);
          loadTag(p.services, plain);
          expect(p.inserted.includes(rum.src)).toBe(expected);
          expect(p.inserted).toContain(plain.src);
          expect(p.sampling.decided).toBe(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("the decision goes with the tag's monitor event (the preview's tags panel) and the debug log: sampled out is skipped with reason sampled-out and TAG_SAMPLED_OUT", () => {
    const ids = fc.sample(fc.noBias(visitorId), { numRuns: 2000, seed: 7 });
    const inId = ids.find((id) => sampledIn(id, 2))!;
    const outId = ids.find((id) => !sampledIn(id, 2))!;
    const a = page({ id: inId, rate: 2 });
    loadTag(a.services, rum);
    expect(a.events[0]).toMatchObject({ tag: "rum", state: "loading", sampling: { rate: 2, sampledIn: true } });
    expect(a.logged).toContainEqual(["sampling decided", { rate: 2, sampledIn: true }]);
    const b = page({ id: outId, rate: 2 });
    loadTag(b.services, rum);
    expect(b.inserted).toEqual([]);
    expect(b.events).toEqual([{ tag: "rum", state: "skipped", reason: "sampled-out", sampling: { rate: 2, sampledIn: false } }]);
    expect(b.logged).toContainEqual([TAG_SAMPLED_OUT, { tag: "rum", rate: 2 }]);
    // An unsampled tag's event carries no decision.
    const c = page({ id: outId, rate: 2 });
    loadTag(c.services, plain);
    expect(c.events[0]).toEqual({ tag: "plain", state: "loading", src: plain.src, lifecycle: "pageTop", sampling: undefined });
  });

  it("no decision and no sampling cookie before the tag's consent (the cookie is written only once the gate allows the tag)", () => {
    const p = page({ rate: 100, internal: false });
    loadTag(p.services, rum);
    expect(p.jar).toEqual({});
    expect(p.sampling.decided).toBeUndefined();
    expect(p.inserted).toEqual([]);
  });
});

describe("which tags are sampled: the declaration in YAML (generator/config/tags-check.ts)", () => {
  const consent = { defaultCategory: "marketing" } as never;
  const tag = (extra: Record<string, unknown>) => ({
    enabled: true,
    category: "performance",
    script: { default: "https://v.example/t.js" },
    excludeAppIds: [],
    attributes: {},
    settings: {},
    hostSettings: {},
    ...extra,
  });
  it('"monitoring default 1 with sampled-in/out cookie per host": a rum tag is sampled unless it says sampled: false; any other tag only when it says sampled: true', () => {
    const { tags } = resolveTags(
      { consent, tags: { a: tag({ rum: {} }), b: tag({ rum: {}, sampled: false }), c: tag({ sampled: true }), d: tag({}) } } as never,
      "qa",
    );
    expect(Object.fromEntries(tags.map((t) => [t.code, t.sampled]))).toEqual({ a: true, b: undefined, c: true, d: undefined });
  });

  it("the core carries the sampling service only when an enabled tag is sampled (0 B otherwise); the feature key is unchanged without it", () => {
    const base = { rules: [] } as Pick<BundleConfig, "rules">;
    const none = featureSetOf({ ...base, modules: { tags: { enabled: true, tags: [plain] } } });
    expect(none.sampling).toBeUndefined();
    expect(featureKeyOf(none)).toBe(featureKeyOf(featureSetOf(base)));
    expect(featureImports(none, "/rt", ".js").imports.join("\n")).not.toContain("sampling");
    const some = featureSetOf({ ...base, modules: { tags: { enabled: true, tags: [plain, rum] } } });
    expect(some.sampling).toEqual(["createSampling"]);
    expect(featureKeyOf(some)).not.toBe(featureKeyOf(none));
    const { imports, table } = featureImports(some, "/rt", ".js");
    expect(imports).toContain('import { createSampling as s_createSampling } from "/rt/identity/sampling.js";');
    expect(table).toContain("sampling: { createSampling: s_createSampling }");
  });
});

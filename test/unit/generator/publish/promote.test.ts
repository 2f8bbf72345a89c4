import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { embedTag } from "../../../../generator/publish/embed.js";
import { differingKeys, promote } from "../../../../generator/publish/promote.js";
import { publish } from "../../../../generator/publish/publish.js";
import { loadCatalogue } from "../../../../generator/config/load.js";
import { MODULE_NAMES } from "../../../../generator/bundle/build.js";
import { BUCKET, startS3, type LocalS3 } from "../../../helpers/s3.js";
import { SITES } from "../../../helpers/fs.js";
import { warmSharedCache } from "../../../helpers/shared-cache.js";
import { buildVariant, type Built } from "./fixtures.js";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 600_000 });

let s3: LocalS3;
let A: Built;
let C: Built;
beforeAll(async () => {
  s3 = await startS3();
  // The repository's compile cache: these tests are about publishing, not compiling.
  const cacheDir = await warmSharedCache();
  A = await buildVariant("A", cacheDir);
  C = await buildVariant("C", cacheDir);
});
afterAll(async () => {
  await s3?.close();
});

const staging = (n: number) => `s3://${BUCKET}/staging-${n}`;
const prod = (n: number) => `s3://${BUCKET}/prod-${n}`;
const key = (target: string, path: string) => `${target.replace(`s3://${BUCKET}/`, "")}/${path}`;

describe("sitetags promote", () => {
  it('"the same bundle bytes move from qa to prod without a rebuild, when the config says the two environments build the same bundle": staging to production, the same bytes', async () => {
    expect((await publish({ sitesDir: A.sitesDir, outDir: A.outDir, to: staging(1), endpoint: s3.endpoint })).exitCode).toBe(0);
    const r = await promote({ sitesDir: A.sitesDir, from: staging(1), to: prod(1), endpoint: s3.endpoint, envs: ["prod"] });
    expect(r.diagnostics).toEqual([]);
    expect(r.exitCode).toBe(0);
    const prodEntries = A.manifest.bundles.filter((e) => e.env === "prod");
    // Each bundle's first file and the deferred file it names (split task, #21).
    expect(r.written.hashed.sort()).toEqual(prodEntries.flatMap((e) => [e.file, e.deferred!.file]).sort());
    for (const e of prodEntries) {
      const deferred = await s3.get(key(prod(1), e.deferred!.file));
      expect(deferred.body.equals(A.bytes(e.deferred!.file)), e.deferred!.file).toBe(true);
      expect(deferred.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      for (const path of [e.file, e.alias]) expect((await s3.get(key(prod(1), path))).body.equals(A.bytes(e.file)), path).toBe(true);
      expect((await s3.get(key(prod(1), e.file))).headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    }
    expect(JSON.parse((await s3.get(key(prod(1), "manifest.json"))).body.toString())).toEqual({ bundles: prodEntries });
    // Again: nothing left to do.
    const again = await promote({ sitesDir: A.sitesDir, from: staging(1), to: prod(1), endpoint: s3.endpoint, envs: ["prod"] });
    expect(again.written).toEqual({ hashed: [], aliases: [], manifest: false });
  });

  it('"otherwise it refuses with the reason": qa to prod on the real catalogue names the differing keys, and writes nothing', async () => {
    expect((await publish({ sitesDir: A.sitesDir, outDir: A.outDir, to: staging(2), endpoint: s3.endpoint })).exitCode).toBe(0);
    const r = await promote({ sitesDir: A.sitesDir, from: staging(2), to: prod(2), endpoint: s3.endpoint, fromEnv: "qa", toEnv: "prod", sites: ["bigfuture"] });
    expect(r.exitCode).toBe(4);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0].code).toBe("PUBLISH_PROMOTE_REFUSED");
    expect(r.diagnostics[0].message).toMatch(/^qa and prod build different bundles for bigfuture: they differ in /);
    for (const k of [
      "env",
      "sampling",
      "analytics.datastreamId",
      "analytics.reportSuite",
      "the data-layer checks (in non-production bundles only)",
      "budget.gzipBytes",
    ])
      expect(r.diagnostics[0].message).toContain(k);
    expect((await s3.get(key(prod(2), "manifest.json"))).status).toBe(404);
  });

  it("refuses a source built from other inputs than the configuration gives now (the config changed since staging)", async () => {
    expect((await publish({ sitesDir: C.sitesDir, outDir: C.outDir, to: staging(3), endpoint: s3.endpoint })).exitCode).toBe(0);
    const r = await promote({ sitesDir: A.sitesDir, from: staging(3), to: prod(3), endpoint: s3.endpoint, sites: ["go"], envs: ["prod"] });
    expect(r.exitCode).toBe(4);
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      expect.stringMatching(
        /^prod\/go in the source was built from other inputs \(inputsHash [0-9a-f]{16}\) than the configuration, runtime and toolchain give now \([0-9a-f]{16}\): build and publish it to the source first$/,
      ),
    ]);
  });

  it("differingKeys names nested keys two levels deep", () => {
    expect(differingKeys({ a: 1, b: { c: 1, d: { e: 1 } } }, { a: 1, b: { c: 2, d: { e: 2 } }, f: 1 })).toEqual(["b.c", "b.d", "f"]);
    expect(differingKeys({ a: [1] }, { a: [1] })).toEqual([]);
  });
});

describe("sitetags embed", () => {
  it('"the default is the alias"; "the --pinned form uses the content-hashed URL with integrity and crossorigin"', async () => {
    const alias = await embedTag({ site: "bigfuture", env: "prod", sitesDir: A.sitesDir, outDir: A.outDir });
    expect(alias.tag).toBe('<script src="https://tags.kiwi.example/prod/bigfuture/sitetags.min.js" async></script>');
    const entry = A.manifest.bundles.find((e) => e.site === "bigfuture" && e.env === "prod")!;
    const pinned = await embedTag({ site: "bigfuture", env: "prod", pinned: true, sitesDir: A.sitesDir, outDir: A.outDir });
    expect(pinned.tag).toBe(`<script src="https://tags.kiwi.example/${entry.file}" integrity="${entry.integrity}" crossorigin="anonymous" async></script>`);
    const unknown = await embedTag({ site: "bigfuture", env: "oat", sitesDir: A.sitesDir, outDir: A.outDir });
    expect([unknown.exitCode, unknown.diagnostics[0].code]).toEqual([1, "CONFIG_UNKNOWN_ENV_OPTION"]);
  });

  it("publishing settings never reach a bundle: no bundle's inlined config holds them", async () => {
    const catalogue = await loadCatalogue({ sitesDir: SITES, moduleNames: MODULE_NAMES });
    expect(catalogue.org?.publishing.baseUrl).toBe("https://tags.kiwi.example/");
    for (const b of catalogue.bundles) {
      expect(Object.keys(b.config)).not.toContain("publishing");
      expect(JSON.stringify(b.config)).not.toContain("max-age");
    }
  });
});

import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { publish } from "../../../../generator/publish/publish.js";
import { listReleases, rollback } from "../../../../generator/publish/rollback.js";
import { createClient } from "../../../../generator/publish/target.js";
import { BUCKET, startDroppingProxy, startS3, type LocalS3 } from "../../../helpers/s3.js";
import { warmSharedCache } from "../../../helpers/shared-cache.js";
import { buildVariant, type Built } from "./fixtures.js";

// Cold compiles and a real server on a loaded two-core machine: generous.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 600_000 });

let s3: LocalS3;
let A: Built;
let B: Built;
let C: Built;
let prefixes = 0;
const nextTarget = () => `s3://${BUCKET}/tags-${++prefixes}`;
const keyIn = (target: string, path: string) => `${target.replace(`s3://${BUCKET}/`, "")}/${path}`;
const releaseId = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 12);

beforeAll(async () => {
  s3 = await startS3();
  // The repository's compile cache: these tests are about publishing, not compiling.
  const cacheDir = await warmSharedCache();
  A = await buildVariant("A", cacheDir);
  B = await buildVariant("B", cacheDir);
  C = await buildVariant("C", cacheDir);
});
afterAll(async () => {
  await s3?.close();
});

const run = (built: Built, to: string, endpoint = s3.endpoint, extra: { maxAttempts?: number } = {}) =>
  publish({ sitesDir: built.sitesDir, outDir: built.outDir, to, endpoint, ...extra });

/** What the store serves under every alias of a manifest, compared with a build's bytes. */
async function aliasesServe(target: string, built: Built) {
  for (const entry of built.manifest.bundles) {
    const got = await s3.get(keyIn(target, entry.alias));
    expect(got.status, entry.alias).toBe(200);
    expect(got.body.equals(built.bytes(entry.file)), `${entry.alias} serves ${built === A ? "A" : "another build"}'s bytes`).toBe(true);
  }
}

describe("sitetags publish (a real S3-compatible server on 127.0.0.1)", () => {
  it('"publish into an empty bucket, then an unchanged publish that uploads nothing"; "content-hashed files first, then the aliases, then the manifest, last"', async () => {
    const target = nextTarget();
    const proxy = await startDroppingProxy(s3.port, Number.POSITIVE_INFINITY);
    try {
      const first = await run(A, target, proxy.endpoint);
      expect(first.diagnostics).toEqual([]);
      expect(first.exitCode).toBe(0);
      const n = A.manifest.bundles.length;
      expect(n).toBeGreaterThan(10);
      // Each bundle's first file and the deferred file it names (split task, #21): hashed, before any alias.
      expect(A.manifest.bundles.every((e) => e.deferred?.file.startsWith(`${e.env}/${e.site}/sitetags.defer.`))).toBe(true);
      expect(first.written.hashed.sort()).toEqual(A.manifest.bundles.flatMap((e) => [e.file, e.deferred!.file]).sort());
      expect(first.written.aliases.sort()).toEqual(A.manifest.bundles.map((e) => e.alias).sort());
      expect(first.written.manifest).toBe(true);
      expect(first.skipped).toEqual([]);
      expect(first.release).toBe(releaseId(A.manifestText));
      // The order on the wire: every hashed PUT before any alias PUT; the release record, then the manifest, last.
      const puts = proxy.log.filter((r) => r.method === "PUT").map((r) => r.path.replace(`/${BUCKET}/${keyIn(target, "")}`, ""));
      const lastHashed = Math.max(...puts.map((p, i) => (/\.[0-9a-f]{10}\.min\.js$/.test(p) ? i : -1)));
      const firstAlias = puts.findIndex((p) => p.endsWith("/sitetags.min.js"));
      expect(lastHashed).toBe(2 * n - 1);
      expect(firstAlias).toBe(2 * n);
      expect(puts.slice(-2)).toEqual([`releases/${first.release}.json`, "manifest.json"]);
      expect(first.requests).toBe(1 + 3 * n + 2);
    } finally {
      await proxy.close();
    }
    // Headers and metadata as served.
    const entry = A.manifest.bundles[0];
    const hashed = await s3.get(keyIn(target, entry.file));
    expect(hashed.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(hashed.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(hashed.headers["x-amz-meta-integrity"]).toBe(entry.integrity);
    const alias = await s3.get(keyIn(target, entry.alias));
    expect(alias.headers["cache-control"]).toBe("public, max-age=300");
    expect(alias.headers["x-amz-meta-integrity"]).toBe(entry.integrity);
    const manifest = await s3.get(keyIn(target, "manifest.json"));
    expect(manifest.body.toString()).toBe(A.manifestText);
    expect(manifest.headers["cache-control"]).toBe("no-cache");
    expect((await s3.get(keyIn(target, `releases/${releaseId(A.manifestText)}.json`))).body.toString()).toBe(A.manifestText);
    await aliasesServe(target, A);

    const again = await run(A, target);
    expect(again.exitCode).toBe(0);
    expect(again.written).toEqual({ hashed: [], aliases: [], manifest: false });
    expect(again.skipped.length).toBe(A.manifest.bundles.length);
    expect(again.changes).toEqual([]);
    expect(again.requests).toBe(1);
  });

  it('"one site changed uploads one hashed file, its alias and the manifest"', async () => {
    const target = nextTarget();
    expect((await run(A, target)).exitCode).toBe(0);
    const changed = B.manifest.bundles.filter((b) => !A.manifest.bundles.some((a) => a.file === b.file));
    expect(changed.map((e) => `${e.env}/${e.site}`)).toEqual(["qa/bigfuture"]);
    const r = await run(B, target);
    expect(r.exitCode).toBe(0);
    expect(r.written).toEqual({ hashed: [changed[0].file], aliases: [changed[0].alias], manifest: true });
    expect(r.skipped.length).toBe(B.manifest.bundles.length - 1);
    expect(r.changes).toEqual([
      { bundle: "qa/bigfuture", from: A.manifest.bundles.find((a) => a.site === "bigfuture" && a.env === "qa")!.file, to: changed[0].file },
    ]);
    expect(r.requests).toBe(1 + 2 + 2);
    expect((await s3.get(keyIn(target, changed[0].alias))).body.equals(B.bytes(changed[0].file))).toBe(true);
    expect((await s3.get(keyIn(target, "manifest.json"))).body.toString()).toBe(B.manifestText);
  });

  it('"a network failure or a refusal mid-way leaves the remote serving the previous release. It is safe to run again": the connection dropped after half the uploads', async () => {
    const target = nextTarget();
    expect((await run(A, target)).exitCode).toBe(0);
    const n = C.manifest.bundles.length;
    expect(C.manifest.bundles.every((c) => !A.manifest.bundles.some((a) => a.file === c.file))).toBe(true);
    const proxy = await startDroppingProxy(s3.port, Math.floor(n / 2));
    let failed;
    try {
      failed = await run(C, target, proxy.endpoint, { maxAttempts: 2 });
    } finally {
      await proxy.close();
    }
    expect(failed.ok).toBe(false);
    expect(failed.exitCode).toBe(4);
    expect(failed.diagnostics.map((d) => d.code)).toEqual(["PUBLISH_FAILED"]);
    expect(failed.previousRelease).toBe(releaseId(A.manifestText));
    expect(proxy.dropped).toBeGreaterThan(0);
    // The previous release, untouched: every alias serves A's bytes, the manifest is A's.
    await aliasesServe(target, A);
    expect((await s3.get(keyIn(target, "manifest.json"))).body.toString()).toBe(A.manifestText);

    const rerun = await run(C, target);
    expect(rerun.diagnostics).toEqual([]);
    expect(rerun.exitCode).toBe(0);
    expect(rerun.written.aliases.length).toBe(n);
    await aliasesServe(target, C);
    expect((await s3.get(keyIn(target, "manifest.json"))).body.toString()).toBe(C.manifestText);
  });

  it('"the upload\'s checksum verified": bytes damaged on the way are caught by the ETag check (exit 4) before any alias moves', async () => {
    const target = nextTarget();
    const proxy = await startDroppingProxy(s3.port, Number.POSITIVE_INFINITY, { corrupt: true });
    let r;
    try {
      r = await run(A, target, proxy.endpoint);
    } finally {
      await proxy.close();
    }
    expect(r.exitCode).toBe(4);
    expect(r.diagnostics[0].message).toMatch(/: the store answered ETag "[0-9a-f]{32}" for bytes whose MD5 is [0-9a-f]{32}$/);
    expect(proxy.log.filter((l) => l.method === "PUT").every((l) => /\.[0-9a-f]{10}\.min\.js$/.test(l.path))).toBe(true);
    expect((await s3.get(keyIn(target, "manifest.json"))).status).toBe(404);
    const rerun = await run(A, target);
    expect(rerun.exitCode).toBe(0);
    await aliasesServe(target, A);
  });

  it('"rollback --to RELEASE points the aliases back to an earlier release\'s files without rebuilding"; "releases lists them"', async () => {
    const target = nextTarget();
    const a = await run(A, target);
    const b = await run(B, target);
    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
    const before = await listReleases({ to: target, endpoint: s3.endpoint });
    expect(before.releases.map((r) => [r.id, r.current, r.bundles]).sort()).toEqual(
      [
        [a.release, false, A.manifest.bundles.length],
        [b.release, true, B.manifest.bundles.length],
      ].sort(),
    );

    const client = createClient({ endpoint: s3.endpoint });
    const back = await rollback({ sitesDir: A.sitesDir, to: target, release: a.release!, endpoint: s3.endpoint, client });
    client.s3.destroy();
    expect(back.diagnostics).toEqual([]);
    expect(back.exitCode).toBe(0);
    // One alias rewritten from the hashed file already in the store (no dist/, no hashed upload), then the manifest.
    expect(back.written).toEqual({ hashed: [], aliases: ["qa/bigfuture/sitetags.min.js"], manifest: true });
    await aliasesServe(target, A);
    const served = await s3.get(keyIn(target, "qa/bigfuture/sitetags.min.js"));
    expect(served.headers["cache-control"]).toBe("public, max-age=300");
    expect((await s3.get(keyIn(target, "manifest.json"))).body.toString()).toBe(A.manifestText);
    const after = await listReleases({ to: target, endpoint: s3.endpoint });
    expect(after.releases.find((r) => r.current)?.id).toBe(a.release);

    // Rolling back to where it is changes nothing; an unknown release is refused (exit 4).
    const same = await rollback({ sitesDir: A.sitesDir, to: target, release: a.release!, endpoint: s3.endpoint });
    expect(same.written).toEqual({ hashed: [], aliases: [], manifest: false });
    const unknown = await rollback({ sitesDir: A.sitesDir, to: target, release: "0123456789ab", endpoint: s3.endpoint });
    expect([unknown.exitCode, unknown.diagnostics[0].code]).toEqual([4, "PUBLISH_NO_RELEASE"]);
  });

  it('"only what changed", with --dry-run: the summary says what would change and nothing is written', async () => {
    const target = nextTarget();
    expect((await run(A, target)).exitCode).toBe(0);
    const dry = await publish({ sitesDir: B.sitesDir, outDir: B.outDir, to: target, endpoint: s3.endpoint, dryRun: true });
    expect(dry.exitCode).toBe(0);
    expect(dry.written.hashed.length).toBe(1);
    expect(dry.release).toBe(releaseId(B.manifestText));
    expect(dry.requests).toBe(1);
    expect((await s3.get(keyIn(target, "manifest.json"))).body.toString()).toBe(A.manifestText);
  });

  it("--site narrows the publish: the other bundles of the remote manifest stay as they were", async () => {
    const target = nextTarget();
    expect((await run(A, target)).exitCode).toBe(0);
    const r = await publish({ sitesDir: C.sitesDir, outDir: C.outDir, to: target, endpoint: s3.endpoint, sites: ["go"] });
    expect(r.exitCode).toBe(0);
    const published = JSON.parse((await s3.get(keyIn(target, "manifest.json"))).body.toString()) as typeof A.manifest;
    for (const e of published.bundles) {
      const from = e.site === "go" ? C : A;
      expect(e).toEqual(from.manifest.bundles.find((x) => x.site === e.site && x.env === e.env));
    }
    expect(r.written.hashed.every((p) => p.includes("/go/"))).toBe(true);
  });
});

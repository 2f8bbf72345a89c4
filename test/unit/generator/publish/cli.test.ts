import { spawn } from "node:child_process";
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { build } from "../../../../generator/bundle/build.js";
import { main } from "../../../../generator/cli/main.js";
import { BUCKET, startS3, type LocalS3 } from "../../../helpers/s3.js";
import { REPO, snapshotTree, tempDir } from "../../../helpers/fs.js";
import { warmSharedCache } from "../../../helpers/shared-cache.js";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 600_000 });

const BIN = join(REPO, "bin", "sitetags.js");
/** The CLI in a child process (async: the S3 server runs in this one). */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, env: { ...process.env, FORCE_COLOR: "0" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The same CLI in this process: bin/sitetags.js's main(argv, io) with its
 * output captured. Each verb keeps a real process above (the bin's exit code
 * and output); the other calls run here, without a node start and the
 * generator's load each.
 */
async function cliIn(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false, cwd: REPO });
  return { code, stdout, stderr };
}

let s3: LocalS3;
let dist: string;
let shards: string[];
beforeAll(async () => {
  s3 = await startS3();
  // The repository's compile cache: these tests are about publishing, not compiling.
  const cacheDir = await warmSharedCache();
  dist = tempDir("dist");
  expect((await build({ sites: ["go"], outDir: dist, cacheDir })).ok).toBe(true);
  shards = [tempDir("shard"), tempDir("shard")];
  for (const [i, outDir] of shards.entries()) expect((await build({ sites: ["go"], outDir, cacheDir, shard: { index: i + 1, count: 2 } })).ok).toBe(true);
});
afterAll(async () => {
  await s3?.close();
});

const USAGE_FIRST = ["publish"] as const;

describe("the publishing verbs of the CLI", () => {
  it('"Exit codes fit the contract: 0 done, 2 usage": wrong usage is exit 2 with the reason', async () => {
    for (const [args, reason] of [
      [USAGE_FIRST, /publish needs --to s3:\/\/BUCKET\/PREFIX/],
      [["publish", "--to", "https://bucket/x"], /--to: expected s3:\/\/BUCKET\/PREFIX/],
      [["rollback", "--to", "latest", "--target", "s3://b1/x"], /rollback needs --to RELEASE, a release id of 12 hex digits/],
      [["releases"], /releases needs --target s3:\/\/BUCKET\/PREFIX/],
      [["promote", "--from", "s3://bkt/a", "--to", "s3://bkt/a"], /--from and --to are the same/],
      [["promote", "--from", "s3://bkt/a", "--to", "s3://bkt/b", "--from-env", "qa"], /--from-env and --to-env go together/],
      [["embed", "go"], /embed needs exactly one --env ENV/],
      [["manifest", "merge"], /manifest merge takes the shard folders/],
    ] as const) {
      // The first through a real process, the others in this one.
      const r = args === USAGE_FIRST ? await cli([...args]) : await cliIn([...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(reason);
    }
  });

  it('"a new code for a failed publish, documented": an unreachable store is exit 4, and says the target still serves its previous release', async () => {
    const r = await cli(["publish", "--to", `s3://${BUCKET}/x`, "--out", dist, "--endpoint", "http://127.0.0.1:9"]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error PUBLISH_FAILED: /m);
    expect(r.stderr).toMatch(/publish failed: s3:\/\/kiwi-cdn\/x still serves release \(none\); it is safe to run again/);
    expect(readFileSync(join(REPO, "docs", "publishing.md"), "utf8")).toMatch(/\| 4 \|/);
  });

  it("an invalid configuration (publishing settings of sites/_org.yaml) is exit 1 with the located diagnostic, before any request", async () => {
    const sites = tempDir("sites");
    cpSync(join(REPO, "test", "fixtures", "bad-configs", "_base"), sites, { recursive: true });
    cpSync(join(REPO, "test", "fixtures", "bad-configs", "85-publishing-base-url-without-slash"), sites, { recursive: true });
    const r = await cliIn(["publish", "--to", `s3://${BUCKET}/bad`, "--sites", sites, "--out", dist, "--endpoint", s3.endpoint]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/_org\.yaml:84:12 error CONFIG_INVALID_VALUE: must end with \/ at publishing\.baseUrl\n/);
    expect((await s3.get("bad/manifest.json")).status).toBe(404);
  });

  it("publish, releases, rollback and embed from the command line (text and --json)", async () => {
    const target = `s3://${BUCKET}/cli`;
    const first = await cli(["publish", "--to", target, "--out", dist, "--endpoint", s3.endpoint]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const { bundles } = JSON.parse(readFileSync(join(dist, "manifest.json"), "utf8")) as { bundles: Array<{ deferred?: unknown }> };
    const n = bundles.length;
    // Hashed files: each bundle's first file and its deferred second file (issue #21).
    const deferred = bundles.filter((b) => b.deferred).length;
    expect(deferred).toBe(n);
    expect(first.stdout).toMatch(
      new RegExp(
        `^publish ${target}: release [0-9a-f]{12}\\n  wrote ${n + deferred} hashed files, ${n} aliases, the manifest and its release record; skipped 0 hashed files already there\\n`,
      ),
    );
    const again = await cliIn(["publish", "--to", target, "--out", dist, "--endpoint", s3.endpoint, "--json"]);
    const report = JSON.parse(again.stdout) as { ok: boolean; written: unknown; requests: number; release: string };
    expect(report).toMatchObject({ ok: true, written: { hashed: [], aliases: [], manifest: false }, requests: 1 });
    const releases = await cli(["releases", "--target", target, "--endpoint", s3.endpoint]);
    expect(releases.stdout).toMatch(new RegExp(`^\\* ${report.release}  \\S+  ${n} bundles\\n$`));
    const back = await cli(["rollback", "--to", report.release, "--target", target, "--endpoint", s3.endpoint]);
    expect(back.code).toBe(0);
    expect(back.stdout).toMatch(/wrote 0 hashed files, 0 aliases, no manifest \(unchanged\)/);
    const embed = await cli(["embed", "go", "--env", "prod", "--pinned", "--out", dist]);
    expect(embed.stdout).toMatch(
      /^<script src="https:\/\/tags\.kiwi\.example\/prod\/go\/sitetags\.[0-9a-f]{10}\.min\.js" integrity="sha384-\S+" crossorigin="anonymous" async><\/script>\n$/,
    );
  });

  it("manifest merge from the command line: merged is the unsharded dist; a missing shard is exit 3", async () => {
    const out = tempDir("merged");
    const ok = await cli(["manifest", "merge", ...shards, "--out", out]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^merged 2 shards: \d+ bundles into /);
    expect(snapshotTree(out)).toEqual(snapshotTree(dist));
    const missing = await cliIn(["manifest", "merge", shards[0], "--out", tempDir("merged")]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/^error MERGE_MISSING: shard 2\/2 missing/m);
  });
});

/**
 * The `publish` case of npm run bench: the whole matrix (every site x
 * environment, built once) published through the CLI to a local s3rver on
 * 127.0.0.1, cold (an empty prefix) and then unchanged (the same dist again),
 * each run into a new prefix. Reports the wall time of the CLI process
 * (start included), the time publish() itself reports, and the HTTP requests
 * it sent (the SDK's own count, retries included).
 */
import { spawnSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const tmp = (p) => mkdtempSync(join(tmpdir(), `sitetags-bench-${p}-`));
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

function cli(bin, args, env) {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) =>
      code === 0 ? resolve({ ms: performance.now() - t, report: JSON.parse(stdout) }) : reject(new Error(`publish exited ${code}: ${stderr}`)),
    );
  });
}

/** `sites`: build and publish only these (a smoke run), not the whole matrix. */
export async function publishBench({ root, runs, sites }) {
  const bin = join(root, "bin", "sitetags.js");
  const out = tmp("out");
  // The dist to publish, built on the repository's compile cache (.sitetags-cache/, as the edge and rule-engine cases do): this case measures publishing, not a cold build (the build-matrix case does).
  const only = (sites ?? []).flatMap((site) => ["--site", site]);
  const built = spawnSync(process.execPath, [bin, "build", ...only, "--out", out, "--cache", join(root, ".sitetags-cache"), "--json"], {
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
  const bundles = JSON.parse(built.stdout).bundles.length;
  const { default: S3rver } = await import("s3rver");
  const store = tmp("s3");
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: store, configureBuckets: [{ name: "bench" }] });
  const { port } = await server.run();
  const env = { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER", AWS_REGION: "us-east-1" };
  const cold = [];
  const unchanged = [];
  try {
    for (let run = 0; run < runs; run++) {
      const args = ["publish", "--to", `s3://bench/run-${run}`, "--out", out, "--endpoint", `http://127.0.0.1:${port}`, "--json"];
      cold.push(await cli(bin, args, env));
      unchanged.push(await cli(bin, args, env));
    }
  } finally {
    await server.close();
    for (const d of [out, store]) rmSync(d, { recursive: true, force: true });
  }
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const summary = (list) => ({
    wallMs: list.map((r) => Math.round(r.ms)),
    publishMs: list.map((r) => r.report.timeMs),
    requests: list.map((r) => r.report.requests),
    written: list[0].report.written.hashed.length + list[0].report.written.aliases.length,
  });
  const c = summary(cold);
  const u = summary(unchanged);
  return {
    rows: [
      ["bundles", bundles, ""],
      [
        "cold publish, whole matrix (CLI, incl. process start)",
        s(median(c.wallMs)),
        `publish() ${s(median(c.publishMs))}; ${median(c.requests)} requests (${c.written} objects + manifest GET, release record, manifest)`,
      ],
      [
        "unchanged publish (CLI, incl. process start)",
        s(median(u.wallMs)),
        `publish() ${s(median(u.publishMs))}; ${median(u.requests)} request${median(u.requests) === 1 ? "" : "s"}`,
      ],
    ],
    data: { runs, bundles, store: "s3rver on 127.0.0.1", cold: c, unchanged: u },
  };
}

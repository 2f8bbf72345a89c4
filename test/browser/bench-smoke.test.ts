/**
 * Issue #21, "Benches cannot rot": `npm test` runs every case of
 * `npm run bench` in its smoke mode (one run, one sample per page, 1,000
 * pushes, a build matrix of one site, a scale of 60 sites (the smoke size), one alloy build)
 * and checks that each case runs to the end and prints its table. It checks no timing: the targets are the bench's to judge
 * on an idle machine, not a test's.
 */
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Rows each case must print (their labels), so that a case that runs but prints nothing useful fails. */
const ROWS: Record<string, RegExp[]> = {
  "build-matrix": [/^bundles\s+\d+/m, /^cold build, whole matrix/m, /^warm rebuild, nothing changed/m, /^median gzip\s+\d+ B/m],
  "rule-engine": [/events\/s|events per second/im, /retained/im],
  edge: [
    /alloy/im,
    /gzip/im,
    /^first file, median production site/m,
    /^main-thread script ms, first visit/m,
    /^main-thread script ms, returning visitor/m,
    /^main-thread script ms with microtasks, first visit/m,
    /^main-thread script ms with microtasks, returning visitor/m,
    /^first page-view request/m,
  ],
  publish: [/cold/im, /unchanged/im, /requests/im],
  scale: [
    /^cold build, generated/m,
    /^warm rebuild, nothing changed \(generated\)/m,
    /^rebuild after one site changed \(generated\)/m,
    /^peak memory of a build \(generated\)\s+\d+ MB/m,
  ],
  // Task "sizeprof": the first file's size profile.
  size: [
    /^median: prod\/\S+ first file, gzip\s+\d+ B/m,
    /^ {2}edge\s+\d+ B\s+marginal gzip/m,
    /^ {2}\(inlined config\)\s+\d+ B/m,
    /^ {4}runtime-modules\/\S+\.ts\s+\d+ B/m,
  ],
  // mainthread (#21): the first-visit profile.
  "edge-profile": [
    /^profile, first visit, .*: our script, sampled/m,
    /^profile, returning visitor: document\.cookie and Web Storage/m,
    /^ {2}self time, first visit/m,
  ],
};

function runSmoke(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["scripts/bench.js", "--smoke"], { cwd: ROOT });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe('"npm test runs every bench case in a small smoke mode … It checks that each case runs and prints its table; it checks no timing"', () => {
  it("every case of scripts/bench.js runs in --smoke mode, prints its heading and rows, and leaves bench-results.json alone", async () => {
    // Every case the bench has is listed here, so a new case cannot escape the smoke run.
    const cases = spawnSync(process.execPath, ["scripts/bench.js", "--list"], { cwd: ROOT, encoding: "utf8" }).stdout.trim().split("\n");
    expect(cases.sort()).toEqual(Object.keys(ROWS).sort());
    const { code, stdout, stderr } = await runSmoke();
    expect(code, `bench --smoke failed:\n${stderr}\n${stdout}`).toBe(0);
    for (const [name, rows] of Object.entries(ROWS)) {
      const start = stdout.indexOf(`## ${name}\n`);
      expect(start, `no table for ${name}`).toBeGreaterThanOrEqual(0);
      const end = stdout.indexOf("\n## ", start + 1);
      const table = stdout.slice(start, end < 0 ? undefined : end);
      for (const row of rows) expect(table, `${name} lacks ${row}`).toMatch(row);
    }
    expect(stdout).toContain("smoke run: bench-results.json left as it was");
  }, 900_000);
});

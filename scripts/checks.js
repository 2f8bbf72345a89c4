#!/usr/bin/env node
/**
 * `npm test`'s static checks: the commands of the `typecheck` and `lint`
 * scripts (package.json, each split at " && "), run two at a time instead of
 * one after the other. Each is one single-threaded process (tsc, ESLint,
 * Prettier), so on CI's two cores the four take about the time of the two
 * longest instead of their sum. Each command's output is printed whole when
 * it ends; the exit code is 1 when any failed (all of them run).
 *
 *   node scripts/checks.js        (run by npm test; npm puts node_modules/.bin on PATH)
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const { scripts } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const commands = ["typecheck", "lint"].flatMap((name) => scripts[name].split(" && ").map((c) => c.trim()));
const LANES = 2;
const env = { ...process.env, PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH ?? ""}` };

function run(command) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn("sh", ["-c", command], { cwd: ROOT, env });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => {
      process.stdout.write(`> ${command} (${((Date.now() - started) / 1000).toFixed(1)} s${code === 0 ? "" : `, exit ${code}`})\n${output}`);
      resolve(code === 0);
    });
  });
}

const queue = [...commands];
let failed = false;
await Promise.all(
  Array.from({ length: LANES }, async () => {
    for (let command = queue.shift(); command !== undefined; command = queue.shift()) if (!(await run(command))) failed = true;
  }),
);
process.exit(failed ? 1 : 0);

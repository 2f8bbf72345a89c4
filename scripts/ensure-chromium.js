#!/usr/bin/env node
/**
 * Makes sure the Chromium the browser tests drive is installed (npm test runs
 * this first). The browser suite never skips: without Chromium it fails.
 *
 * - /usr/bin/chromium exists: exit 0.
 * - Otherwise, as root with apt-get available: `apt-get update` and
 *   `apt-get install -y chromium` (output shown), then check again: 0 or 1.
 * - Otherwise: print how to install it and exit 1.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const CHROMIUM = "/usr/bin/chromium";
const HINT = "Chromium is missing. Install it with: sudo apt-get update && sudo apt-get install -y chromium";

function hasAptGet() {
  const probe = spawnSync("apt-get", ["--version"], { stdio: "ignore" });
  return !probe.error && probe.status === 0;
}

function run(args) {
  const result = spawnSync("apt-get", args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  return !result.error && result.status === 0;
}

function main() {
  if (existsSync(CHROMIUM)) return 0;
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (!root || !hasAptGet()) {
    console.error(HINT);
    return 1;
  }
  console.error(`${CHROMIUM} not found: installing Chromium with apt-get.`);
  if (!run(["update"]) || !run(["install", "-y", "chromium"]) || !existsSync(CHROMIUM)) {
    console.error(`Installing Chromium failed (${CHROMIUM} is still missing).`);
    console.error(HINT);
    return 1;
  }
  console.error(`Chromium installed at ${CHROMIUM}.`);
  return 0;
}

process.exitCode = main();

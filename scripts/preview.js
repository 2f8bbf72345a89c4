#!/usr/bin/env node
/**
 * `npm run preview`: the QA preview (docs/preview.md).
 *
 * Builds what is missing (the bundles when dist/manifest.json is absent,
 * the React app when preview/dist is missing or stale), then starts the
 * preview server (preview/server/main.ts, TypeScript loaded through Vite's
 * module runner) on one HTTPS port and prints the URL and a ready-to-paste
 * Chromium command line.
 *
 *   npm run preview -- [--port N] [--dist DIR] [--compare-dist DIR] [--bind ADDR] [--rebuild-app] [--open] [--proxy PORT]
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

const USAGE = `usage: npm run preview -- [options]

  --port N            HTTPS port (default 8443; 0 picks a free one)
  --dist DIR          the dist to serve (default dist/)
  --compare-dist DIR  a second dist, to compare two builds of the same page
  --bind ADDR         address to listen on (default 127.0.0.1)
  --rebuild-app       rebuild the React app even if it is up to date
  --open              start Chromium on the preview (needs a chromium binary)
  --proxy PORT        proxy mode: also an HTTP proxy on PORT (0: any); Chromium through it opens the real
                      site hosts with their production tag replaced by the chosen bundle (docs/preview.md)
  --help              this text`;

function fail(message, code = 2) {
  process.stderr.write(`preview: ${message}\n`);
  process.exit(code);
}

let args;
try {
  args = parseArgs({
    options: {
      port: { type: "string", default: "8443" },
      dist: { type: "string" },
      "compare-dist": { type: "string" },
      bind: { type: "string", default: "127.0.0.1" },
      "rebuild-app": { type: "boolean", default: false },
      open: { type: "boolean", default: false },
      proxy: { type: "string" },
      help: { type: "boolean", default: false },
    },
  }).values;
} catch (e) {
  fail(`${e.message}\n${USAGE}`);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const port = Number(args.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, got ${args.port}`);

const proxyPort = args.proxy === undefined ? undefined : Number(args.proxy);
if (proxyPort !== undefined && (!Number.isInteger(proxyPort) || proxyPort < 0 || proxyPort > 65535)) fail(`--proxy must be a port number, got ${args.proxy}`);

const distDir = resolve(args.dist ?? join(ROOT, "dist"));
if (!existsSync(join(distDir, "manifest.json"))) {
  if (args.dist) fail(`no manifest.json in ${distDir}`);
  process.stdout.write("preview: dist/manifest.json is missing; building every bundle (npx sitetags build)…\n");
  if (!existsSync(join(ROOT, "build", "generator", "cli", "main.js"))) {
    const compile = spawnSync("npm", ["run", "compile"], { cwd: ROOT, stdio: "inherit" });
    if (compile.status !== 0) fail("npm run compile failed", 3);
  }
  const built = spawnSync(process.execPath, [join(ROOT, "bin", "sitetags.js"), "build"], { cwd: ROOT, stdio: "inherit" });
  if (built.status !== 0) fail(`sitetags build failed (exit ${built.status})`, 3);
}

const { runnerImport } = await import("vite");
const { module: server } = await runnerImport(join(ROOT, "preview", "server", "main.ts"), { configFile: false, root: ROOT, logLevel: "error" });
const log = (line) => process.stdout.write(`preview: ${line}\n`);

let preview;
try {
  preview = await server.startPreview({
    distDir,
    compareDistDir: args["compare-dist"] && resolve(args["compare-dist"]),
    port,
    bind: args.bind,
    rebuildApp: args["rebuild-app"],
    log,
    proxyPort,
  });
} catch (e) {
  if (e.code === "EADDRINUSE") fail(`port ${port} is in use; pick another with --port N (0 for any)`, 1);
  throw e;
}

const bundles = preview.dists.all();
const problems = preview.dists.problems();
process.stdout.write(`
sitetags preview: ${bundles.length} bundles from ${distDir}${args["compare-dist"] ? ` and ${resolve(args["compare-dist"])}` : ""}

  ${preview.url}

The preview answers for the fictional host names on https://${args.bind}:${preview.port}.
Open it in a Chromium that maps them there (a throwaway profile):

  ${preview.chromiumCommand()}

Or add the names to /etc/hosts and listen on 443 (docs/preview.md).
${
  preview.proxyPort !== undefined
    ? `
Proxy mode (the real site hosts, their production tag replaced by the chosen bundle):

  chromium --user-data-dir=/tmp/sitetags-preview-proxy --proxy-server=http://${args.bind}:${preview.proxyPort} --ignore-certificate-errors ${preview.url}
`
    : ""
}${problems.length ? `\nProblems:\n${problems.map((p) => `  - ${p}`).join("\n")}\n` : ""}
Ctrl-C stops it.
`);

if (args.open) {
  const binary = ["chromium", "chromium-browser", "google-chrome"].find((b) => spawnSync("which", [b]).status === 0);
  if (!binary) process.stderr.write("preview: --open: no chromium, chromium-browser or google-chrome on PATH\n");
  else
    spawn(
      binary,
      ["--user-data-dir=/tmp/sitetags-preview-profile", `--host-resolver-rules=${server.hostRules(preview.port)}`, "--ignore-certificate-errors", preview.url],
      { stdio: "ignore", detached: true },
    ).unref();
}

const stop = async () => {
  await preview.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

/**
 * The `sitetags` command line: a thin layer over the generator API.
 * Artifacts and reports go to stdout (or files), diagnostics to stderr.
 * Exit codes: 0 ok, 1 invalid configuration, 2 wrong usage, 3 build failed
 * (or a merge refused), 4 a publish, rollback or promotion failed.
 */
import { parseArgs } from "node:util";
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
// Only what a build needs is loaded up front: the schemas (zod), the YAML loader, inspect and publishing are imported by the commands that use them (issue #21: a one-site rebuild at 600 sites spent half a second loading zod).
import { build } from "../bundle/build.js";
import { defaultPaths } from "../bundle/paths.js";
import { MODULE_NAMES } from "../config/module-names.js";
import { toJson } from "../diagnostics/diagnostic.js";
import { table, formatBytes } from "./format.js";
import { defaultIo, displayDir, errorsIn, finishBuild, loadedSoFar, reportDiagnostics, withLoad, type CliIo } from "./finish.js";
import { isPublishCommand, PUBLISH_USAGE, PublishUsageError, runPublishCommand } from "./publish-commands.js";

const USAGE = `Usage: sitetags <command> [options]

Commands:
  build                  compile bundles into dist/ (every site x environment unless narrowed)
  validate               check every config file and print all problems; builds nothing
  list                   sites, their environments and modules
  inspect SITE --env ENV which modules a bundle holds and why, bytes per module
  schema                 write the JSON Schema of the site files (sites/site.schema.json, sites/org.schema.json)
${PUBLISH_USAGE}
Options:
  --site CODE            narrow to a site (repeatable)
  --env ENV              narrow to an environment (repeatable)
  --shard I/N            build slice I of N of the sorted bundle list
  --sites DIR            config directory (default sites/)
  --out DIR              output directory (default dist/; for schema: where to write)
  --json                 machine-readable output on stdout
  --cache DIR            compile cache (default .sitetags-cache/)
  --force                rebuild even when the manifest says a bundle is up to date
  --workers N            worker threads (default: one per core)
  -h, --help             this text
`;

class UsageError extends Error {}

export type { CliIo } from "./finish.js";

function parseShard(value: string | undefined) {
  if (value === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(value);
  if (!m) throw new UsageError(`--shard takes I/N, e.g. 1/4 (got "${value}")`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) throw new UsageError(`--shard ${value}: I must be between 1 and N`);
  return { index, count };
}

/** `own`: main is the process's command (bin/sitetags.js), so the time since the process started is the CLI's loading. */
export async function main(argv: string[], io: CliIo = defaultIo(), own = false): Promise<number> {
  const loaded = own ? loadedSoFar() : undefined;
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        site: { type: "string", multiple: true },
        env: { type: "string", multiple: true },
        shard: { type: "string" },
        sites: { type: "string" },
        out: { type: "string" },
        json: { type: "boolean", default: false },
        force: { type: "boolean", default: false },
        workers: { type: "string" },
        cache: { type: "string" },
        to: { type: "string" },
        from: { type: "string" },
        target: { type: "string" },
        endpoint: { type: "string" },
        region: { type: "string" },
        "dry-run": { type: "boolean", default: false },
        pinned: { type: "boolean", default: false },
        release: { type: "string" },
        "from-env": { type: "string" },
        "to-env": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (err) {
    io.stderr(`sitetags: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    (values.help ? io.stdout : io.stderr)(USAGE);
    return values.help ? 0 : 2;
  }
  const defaults = defaultPaths(io.cwd);
  const sitesDir = values.sites ? resolve(io.cwd, values.sites) : defaults.sitesDir;
  const outDir = values.out ? resolve(io.cwd, values.out) : defaults.outDir;
  const cacheDir = values.cache ? resolve(io.cwd, values.cache) : defaults.cacheDir;
  const json = values.json;
  try {
    const workers = values.workers === undefined ? undefined : Number(values.workers);
    if (workers !== undefined && !(Number.isInteger(workers) && workers > 0)) throw new UsageError(`--workers takes a positive whole number`);
    if (isPublishCommand(command)) return await runPublishCommand(command, rest, values, io, { sitesDir, outDir });
    switch (command) {
      case "build": {
        if (rest.length) throw new UsageError(`build takes no positional arguments (got ${rest.join(" ")})`);
        const shard = parseShard(values.shard);
        const progress = makeProgress(io, json);
        const result = await build({
          sitesDir,
          outDir,
          cacheDir,
          sites: values.site,
          envs: values.env,
          shard,
          force: values.force,
          workers,
          onProgress: progress.update,
        });
        progress.end();
        return finishBuild(io, loaded ? withLoad(result, loaded) : result, json, displayDir(io.cwd, outDir));
      }
      case "validate": {
        onlyOptionsOfBuild(command, rest, values);
        const { loadCatalogue } = await import("../config/load.js");
        const catalogue = await loadCatalogue({ sitesDir, moduleNames: MODULE_NAMES });
        const errors = errorsIn(catalogue.diagnostics);
        if (json)
          io.stdout(
            `${JSON.stringify({ ok: errors === 0, sites: catalogue.sites.length, bundles: catalogue.bundles.length, diagnostics: catalogue.diagnostics.map(toJson) }, null, 2)}\n`,
          );
        reportDiagnostics(io, catalogue.diagnostics, json);
        if (errors) return 1;
        if (!json) io.stdout(`${catalogue.sites.length} sites, ${catalogue.bundles.length} bundles: configuration is valid\n`);
        return 0;
      }
      case "list": {
        onlyOptionsOfBuild(command, rest, values);
        const { loadCatalogue } = await import("../config/load.js");
        const catalogue = await loadCatalogue({ sitesDir, moduleNames: MODULE_NAMES });
        if (errorsIn(catalogue.diagnostics)) {
          if (json) io.stdout(`${JSON.stringify({ diagnostics: catalogue.diagnostics.map(toJson) }, null, 2)}\n`);
          reportDiagnostics(io, catalogue.diagnostics, json);
          return 1;
        }
        reportDiagnostics(io, catalogue.diagnostics, json);
        const rows = catalogue.sites.map((s) => {
          const bundles = catalogue.bundles.filter((b) => b.site === s.code);
          const modules = [...new Set(bundles.flatMap((b) => b.modules))].sort();
          return { site: s.code, name: s.data.name, appId: s.data.appId, spa: s.data.spa, internal: s.data.internal, envs: s.envs, modules };
        });
        if (json) io.stdout(`${JSON.stringify({ sites: rows }, null, 2)}\n`);
        else {
          io.stdout(
            table(
              ["site", "name", "app id", "spa", "envs", "modules"],
              rows.map((r) => [r.site, r.name, r.appId, r.spa ? "yes" : "", r.envs.join(","), r.modules.join(",") || "-"]),
            ),
          );
          io.stdout(`\n${rows.length} sites, ${catalogue.bundles.length} bundles\n`);
        }
        return 0;
      }
      case "inspect": {
        if (rest.length !== 1) throw new UsageError("inspect takes one site code: sitetags inspect SITE --env ENV");
        if (values.env?.length !== 1) throw new UsageError("inspect needs exactly one --env ENV");
        const { inspectBundle } = await import("./inspect.js");
        const report = await inspectBundle({ site: rest[0], env: values.env[0], sitesDir, cacheDir, outDir });
        if (!report.ok) {
          if (json) io.stdout(`${JSON.stringify({ diagnostics: report.diagnostics.map(toJson) }, null, 2)}\n`);
          reportDiagnostics(io, report.diagnostics, json);
          return report.exitCode;
        }
        if (json) io.stdout(`${JSON.stringify(report.data, null, 2)}\n`);
        else io.stdout(report.text);
        return 0;
      }
      case "schema": {
        const dir = values.out ? outDir : sitesDir;
        const { jsonSchemas } = await import("../config/json-schema.js");
        const schemas = jsonSchemas();
        if (json) {
          io.stdout(`${JSON.stringify(schemas, null, 2)}\n`);
          return 0;
        }
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, "site.schema.json"), `${JSON.stringify(schemas.site, null, 2)}\n`);
        await writeFile(join(dir, "org.schema.json"), `${JSON.stringify(schemas.org, null, 2)}\n`);
        io.stdout(`wrote ${join(dir, "site.schema.json")} and ${join(dir, "org.schema.json")}\n`);
        return 0;
      }
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (err) {
    if (err instanceof UsageError || err instanceof PublishUsageError) {
      io.stderr(`sitetags: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    io.stderr(`sitetags: internal error: ${(err as Error).stack ?? String(err)}\n`);
    return 3;
  }
}

/** validate and list take no positional arguments and none of build's narrowing options (wrong usage, exit 2). */
function onlyOptionsOfBuild(
  command: string,
  rest: string[],
  values: { shard?: string; site?: string[]; env?: string[]; force?: boolean; workers?: string },
): void {
  if (rest.length) throw new UsageError(`${command} takes no positional arguments (got ${rest.join(" ")})`);
  for (const [name, given] of [
    ["--shard", values.shard !== undefined],
    ["--site", !!values.site?.length],
    ["--env", !!values.env?.length],
    ["--force", !!values.force],
    ["--workers", values.workers !== undefined],
  ] as const)
    if (given) throw new UsageError(`${command} checks the whole catalogue: ${name} applies to build (and inspect) only`);
}

function makeProgress(io: CliIo, json: boolean) {
  let last = "";
  return {
    update: ({ done, total, label }: { done: number; total: number; label: string }) => {
      if (json) return;
      if (io.isTTY) {
        const width = 30;
        const filled = Math.round((done / Math.max(1, total)) * width);
        last = `\r[${"#".repeat(filled)}${" ".repeat(width - filled)}] ${done}/${total} ${label}`.padEnd(80);
        io.stderr(last);
      } else io.stderr(`[${done}/${total}] ${label}\n`);
    },
    end: () => {
      if (io.isTTY && last) io.stderr(`\r${" ".repeat(80)}\r`);
    },
  };
}

export { formatBytes };

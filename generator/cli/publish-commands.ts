/**
 * The publishing verbs of the CLI: manifest merge, publish, releases,
 * rollback, promote, embed. Thin: each calls one generator API function and
 * prints its report (text, or --json on stdout); diagnostics go to stderr.
 * Exit codes: 0 done, 1 invalid configuration, 2 wrong usage, 3 a merge
 * refused its shards, 4 a publish, rollback or promotion failed (the target
 * still serves its previous release).
 */
import { resolve } from "node:path";
import { formatDiagnostic, toJson, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { PublishReport } from "../publish/publish.js";
import { parseTarget, TargetError } from "../publish/target.js";

export const PUBLISH_USAGE = `  manifest merge DIR…    combine the partial outputs of a sharded build (build --shard I/N) into --out
  publish --to s3://BUCKET/PREFIX
                         upload dist/: hashed files, then aliases, then the manifest; only what changed
  releases --target s3://BUCKET/PREFIX
                         list the target's releases, newest first
  rollback --to RELEASE --target s3://BUCKET/PREFIX
                         point the aliases back to an earlier release's files
  promote --from s3://… --to s3://… [--release ID] [--from-env ENV --to-env ENV]
                         copy a published release to another target, when the config builds the same bundles
  embed SITE --env ENV [--pinned]
                         print the script tag for the site's pages (the alias, or the hashed URL with integrity)

Publishing options:
  --endpoint URL         an S3-compatible endpoint (MinIO, R2, a local server); credentials: the AWS SDK's usual chain
  --region REGION        default AWS_REGION, else us-east-1
  --dry-run              say what would be written; write nothing
`;

export class PublishUsageError extends Error {}

export interface PublishValues {
  site?: string[];
  env?: string[];
  json: boolean;
  to?: string;
  from?: string;
  target?: string;
  endpoint?: string;
  region?: string;
  "dry-run"?: boolean;
  pinned?: boolean;
  release?: string;
  "from-env"?: string;
  "to-env"?: string;
}

interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

interface Paths {
  sitesDir: string;
  outDir: string;
}

const PUBLISH_COMMANDS = new Set(["manifest", "publish", "releases", "rollback", "promote", "embed"]);
export const isPublishCommand = (command: string) => PUBLISH_COMMANDS.has(command);

function s3Url(value: string | undefined, option: string, command: string): string {
  if (!value) throw new PublishUsageError(`${command} needs ${option} s3://BUCKET/PREFIX`);
  try {
    return parseTarget(value).url;
  } catch (err) {
    if (err instanceof TargetError) throw new PublishUsageError(`${option}: ${err.message}`);
    throw err;
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Headlines (with file:line:col and a code frame for configuration problems), then the count. */
function printDiagnostics(io: Io, diagnostics: Diagnostic[]) {
  for (const d of diagnostics) io.stderr(formatDiagnostic(d));
  if (diagnostics.length > 1) io.stderr(`\n${diagnostics.length} errors\n`);
}

function finish(io: Io, verb: string, report: PublishReport, json: boolean): number {
  if (json) io.stdout(`${JSON.stringify({ ...report, diagnostics: report.diagnostics.map(toJson) }, null, 2)}\n`);
  printDiagnostics(io, json ? [] : report.diagnostics);
  if (!report.ok) {
    if (!json && report.exitCode === 4)
      io.stderr(`${verb} failed: ${report.target} still serves release ${report.previousRelease ?? "(none)"}; it is safe to run again\n`);
    return report.exitCode;
  }
  if (json) return 0;
  const w = report.written;
  const would = report.dryRun ? "would write" : "wrote";
  const parts = [
    plural(w.hashed.length, "hashed file"),
    plural(w.aliases.length, "alias").replace(/aliass$/, "aliases"),
    w.manifest ? "the manifest and its release record" : "no manifest (unchanged)",
  ];
  io.stdout(
    `${verb} ${report.target}${report.dryRun ? " (dry run)" : ""}: release ${report.release ?? "(none)"}${report.previousRelease && report.previousRelease !== report.release ? ` (was ${report.previousRelease})` : ""}\n`,
  );
  io.stdout(`  ${would} ${parts.join(", ")}; skipped ${plural(report.skipped.length, "hashed file")} already there\n`);
  for (const c of report.changes) io.stdout(`  ${c.bundle}: ${c.from ? c.from.split("/").pop() : "(new)"} -> ${c.to.split("/").pop()}\n`);
  io.stdout(`  ${plural(report.requests, "request")}, ${(report.timeMs / 1000).toFixed(1)} s\n`);
  return 0;
}

export async function runPublishCommand(command: string, rest: string[], values: PublishValues, io: Io, paths: Paths): Promise<number> {
  // Loaded here, not with the CLI: they load the config's schemas, which a build from the cache never needs (cli/main.ts).
  const [{ mergeShards }, { embedTag }, { promote }, { publish }, { listReleases, rollback }] = await Promise.all([
    import("../bundle/merge.js"),
    import("../publish/embed.js"),
    import("../publish/promote.js"),
    import("../publish/publish.js"),
    import("../publish/rollback.js"),
  ]);
  const json = values.json;
  const client = { endpoint: values.endpoint, region: values.region };
  const common = { ...client, sitesDir: paths.sitesDir, dryRun: values["dry-run"], sites: values.site, envs: values.env };
  switch (command) {
    case "manifest": {
      if (rest[0] !== "merge" || rest.length < 2)
        throw new PublishUsageError("manifest merge takes the shard folders: sitetags manifest merge DIR… [--out DIR]");
      const result = await mergeShards({ dirs: rest.slice(1).map((d) => resolve(io.cwd, d)), outDir: paths.outDir, sitesDir: paths.sitesDir });
      if (json) io.stdout(`${JSON.stringify({ ok: result.ok, bundles: result.bundles, diagnostics: result.diagnostics.map(toJson) }, null, 2)}\n`);
      else printDiagnostics(io, result.diagnostics);
      if (!result.ok) {
        if (!json) io.stderr(`merge refused: ${paths.outDir} was left as it was\n`);
        return result.exitCode;
      }
      if (!json) io.stdout(`merged ${plural(rest.length - 1, "shard")}: ${plural(result.bundles, "bundle")} into ${paths.outDir}\n`);
      return 0;
    }
    case "publish": {
      if (rest.length) throw new PublishUsageError(`publish takes no positional arguments (got ${rest.join(" ")})`);
      return finish(io, "publish", await publish({ ...common, to: s3Url(values.to, "--to", command), outDir: paths.outDir }), json);
    }
    case "releases": {
      if (rest.length) throw new PublishUsageError(`releases takes no positional arguments (got ${rest.join(" ")})`);
      const target = s3Url(values.target, "--target", command);
      try {
        const { releases, requests } = await listReleases({ ...client, to: target });
        if (json) io.stdout(`${JSON.stringify({ target, releases, requests }, null, 2)}\n`);
        else if (!releases.length) io.stdout(`${target} has no releases\n`);
        else for (const r of releases) io.stdout(`${r.current ? "*" : " "} ${r.id}  ${r.lastModified ?? ""}  ${plural(r.bundles, "bundle")}\n`);
        return 0;
      } catch (err) {
        io.stderr(`error PUBLISH_FAILED: ${(err as Error).message}\n`);
        return 4;
      }
    }
    case "rollback": {
      if (rest.length) throw new PublishUsageError(`rollback takes no positional arguments (got ${rest.join(" ")})`);
      if (!values.to || !/^[0-9a-f]{12}$/.test(values.to))
        throw new PublishUsageError(`rollback needs --to RELEASE, a release id of 12 hex digits (sitetags releases lists them)`);
      if (values.site?.length || values.env?.length) throw new PublishUsageError("rollback restores a whole release: --site and --env do not apply");
      return finish(io, "rollback", await rollback({ ...common, to: s3Url(values.target, "--target", command), release: values.to }), json);
    }
    case "promote": {
      if (rest.length) throw new PublishUsageError(`promote takes no positional arguments (got ${rest.join(" ")})`);
      if (Boolean(values["from-env"]) !== Boolean(values["to-env"])) throw new PublishUsageError("--from-env and --to-env go together");
      if (values["from-env"] && values.env?.length) throw new PublishUsageError("--env does not apply with --from-env/--to-env");
      if (values.release !== undefined && !/^[0-9a-f]{12}$/.test(values.release)) throw new PublishUsageError("--release takes a release id of 12 hex digits");
      const from = s3Url(values.from, "--from", command);
      const to = s3Url(values.to, "--to", command);
      if (from === to && !values["from-env"])
        throw new PublishUsageError("promote copies between two targets (or two environments): --from and --to are the same");
      return finish(io, "promote", await promote({ ...common, from, to, release: values.release, fromEnv: values["from-env"], toEnv: values["to-env"] }), json);
    }
    case "embed": {
      if (rest.length !== 1) throw new PublishUsageError("embed takes one site code: sitetags embed SITE --env ENV [--pinned]");
      if (values.env?.length !== 1) throw new PublishUsageError("embed needs exactly one --env ENV");
      const result = await embedTag({ site: rest[0], env: values.env[0], pinned: values.pinned, sitesDir: paths.sitesDir, outDir: paths.outDir });
      if (json) io.stdout(`${JSON.stringify({ ...result, diagnostics: result.diagnostics.map(toJson) }, null, 2)}\n`);
      else if (result.ok) io.stdout(`${result.tag}\n`);
      else printDiagnostics(io, result.diagnostics);
      return result.exitCode;
    }
    default:
      throw new PublishUsageError(`unknown command "${command}"`);
  }
}

/** `sitetags inspect SITE --env ENV`: modules in a bundle, why, and their bytes. */
import { build, hasDevChecks, MODULE_NAMES, type Diagnostic } from "../index.js";
import { formatBytes, table } from "./format.js";

export interface InspectData {
  site: string;
  env: string;
  hosts: string[];
  bytes: number;
  gzipBytes: number;
  budgetGzipBytes: number;
  file: string;
  integrity: string;
  /** The second file, loaded after the first page view (docs/tracking.md, "The deferred file"); not budgeted. */
  deferred?: { file: string; bytes: number; gzipBytes: number; brotliBytes: number; integrity: string };
  modules: Array<{ name: string; included: boolean; why: string; bytes: number }>;
  /** The declared tags the bundle loads (tags:, docs/tags.md): category, lifecycle point, kind, URL, family and the file:line that enables it. */
  tags: Array<{ code: string; category: string; lifecycle: string; kind: string; src: string; family?: string; source: string }>;
}

export async function inspectBundle(options: {
  site: string;
  env: string;
  sitesDir: string;
  cacheDir: string;
  outDir: string;
}): Promise<{ ok: true; data: InspectData; text: string } | { ok: false; exitCode: number; diagnostics: Diagnostic[] }> {
  const result = await build({
    sitesDir: options.sitesDir,
    outDir: options.outDir,
    cacheDir: options.cacheDir,
    sites: [options.site],
    envs: [options.env],
    dryRun: true,
    force: true,
  });
  const report = result.bundles.find((b) => b.site === options.site && b.env === options.env);
  if (!result.ok || !report) return { ok: false, exitCode: result.exitCode || 3, diagnostics: result.diagnostics };
  const resolved = result.catalogue!.bundles.find((b) => b.site === options.site && b.env === options.env)!;
  const modules: InspectData["modules"] = [
    {
      name: "core",
      included: true,
      why: "always: boot, host check, logger, consent, identity, rules, tracking, the Edge client",
      bytes: report.moduleBytes.core ?? 0,
    },
    ...MODULE_NAMES.map((name) => ({
      name,
      included: report.modules.includes(name),
      why: report.modules.includes(name) ? `enabled at ${report.moduleSources[name] ?? "?"}` : "not enabled for this site and environment",
      bytes: report.moduleBytes[name] ?? 0,
    })),
    {
      name: "devChecks",
      included: hasDevChecks(resolved),
      why: hasDevChecks(resolved)
        ? "non-production: data-layer pushes are checked against their documented shapes"
        : "production bundles skip the data-layer checks",
      bytes: report.moduleBytes.devChecks ?? 0,
    },
    { name: "config", included: true, why: "this site x environment's settings, inlined as data", bytes: report.moduleBytes.config ?? 0 },
  ];
  const data: InspectData = {
    site: report.site,
    env: report.env,
    hosts: resolved.config.hosts[resolved.env] ?? [],
    bytes: report.bytes,
    gzipBytes: report.gzipBytes,
    budgetGzipBytes: report.budgetGzipBytes,
    file: report.file,
    integrity: report.integrity,
    ...(report.deferred ? { deferred: report.deferred } : {}),
    modules,
    tags: (resolved.config.modules.tags?.tags ?? []).map((t) => ({
      code: t.code,
      category: t.category,
      lifecycle: t.lifecycle,
      kind: t.kind,
      src: t.src,
      ...(t.family ? { family: t.family } : {}),
      source: resolved.tagSources?.[t.code] ?? "?",
    })),
  };
  const text =
    `${report.env}/${report.site}: ${formatBytes(report.bytes)} minified, ${formatBytes(report.gzipBytes)} gzip (budget ${formatBytes(report.budgetGzipBytes)})\n` +
    `hosts: ${data.hosts.join(", ")}\nfile: ${report.file}\n` +
    (report.deferred
      ? `deferred file: ${report.deferred.file}, ${formatBytes(report.deferred.bytes)} minified, ${formatBytes(report.deferred.gzipBytes)} gzip, after the first page view (not budgeted)\n`
      : "") +
    "\n" +
    table(
      ["module", "in bundle", "minified bytes", "why"],
      modules.map((m) => [m.name, m.included ? "yes" : "no", m.included ? m.bytes : "-", m.why]),
    ) +
    (data.tags.length
      ? "\n\n" +
        table(
          ["tag", "category", "lifecycle", "kind", "family", "source"],
          data.tags.map((t) => [t.code, t.category, t.lifecycle, t.kind, t.family ?? "-", t.source]),
        )
      : "\n\nno declared tags");
  return { ok: true, data, text };
}

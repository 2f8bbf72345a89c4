/**
 * The `size` case of npm run bench (issue #21, "the file a production page
 * loads first is at most 20,000 B gzip for the median production site, and
 * at most 24,000 B for the largest"): builds the production bundles with the
 * CLI, then profiles the median and the largest first file.
 *
 * The profile is of the real bundle: its pieces are compiled again by the
 * build's own rollup and terser with source maps (generator/bundle/profile.ts)
 * and linked as the build links them; the linked code must equal the file in
 * dist/, byte for byte. Each character is attributed to its source file, each
 * file to a part (its folder under runtime-modules/, an npm package, the
 * inlined config, the generated entry). A part's or a file's gzip cost is
 * marginal, as docs/runtime.md measures: the gzip of the whole file minus the
 * gzip of the file without that part's characters (so the parts add up to
 * more than the whole: what they share compresses in either).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync, brotliCompressSync, constants as zlib } from "node:zlib";

const TARGET_MEDIAN = 20000;
const TARGET_LARGEST = 24000;
const gz = (text) => gzipSync(text, { level: 9 }).length;
const br = (text) =>
  brotliCompressSync(text, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_LGWIN]: Math.max(10, Math.ceil(Math.log2(text.length + 16))) } })
    .length;

/** The characters of `code` whose owner is not in `drop`. */
function without(code, owner, drop) {
  let out = "";
  let from = -1;
  for (let i = 0; i <= code.length; i++) {
    const keep = i < code.length && !drop.has(owner[i]);
    if (keep && from < 0) from = i;
    else if (!keep && from >= 0) {
      out += code.slice(from, i);
      from = -1;
    }
  }
  return out;
}

/** One first file's profile: sizes, parts and files with their characters and marginal gzip. */
export function attribute(profile, partOf) {
  const { code, sources, owner } = profile;
  const whole = gz(code);
  const chars = new Array(sources.length).fill(0);
  for (const o of owner) chars[o]++;
  const marginal = (ids) => whole - gz(without(code, owner, new Set(ids)));
  const byPart = new Map();
  sources.forEach((s, i) => {
    if (!chars[i]) return;
    const part = partOf(s);
    byPart.set(part, [...(byPart.get(part) ?? []), i]);
  });
  const parts = [...byPart].map(([part, ids]) => ({ part, chars: ids.reduce((a, i) => a + chars[i], 0), gzip: marginal(ids) })).sort((a, b) => b.gzip - a.gzip);
  const files = sources
    .map((source, i) => ({ source, chars: chars[i], gzip: chars[i] ? marginal([i]) : 0 }))
    .filter((f) => f.chars)
    .sort((a, b) => b.gzip - a.gzip);
  return { gzip: whole, brotli: br(code), chars: code.length, parts, files };
}

export async function sizeBench({ root, smoke }) {
  const { loadCatalogue, MODULE_NAMES, profileBundle, partOf } = await import(join(root, "build/generator/index.js"));
  const out = mkdtempSync(join(tmpdir(), "sitetags-bench-size-"));
  const cacheDir = join(root, ".sitetags-cache");
  // A smoke run builds one site (go): its median and largest are the same bundle, and its numbers are not read.
  const args = [join(root, "bin", "sitetags.js"), "build", "--env", "prod", "--out", out, "--cache", cacheDir, "--json", ...(smoke ? ["--site", "go"] : [])];
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`build failed (${r.status}): ${r.stderr}`);
  const bundles = JSON.parse(r.stdout)
    .bundles.filter((b) => b.env === "prod")
    .sort((a, b) => a.gzipBytes - b.gzipBytes);
  const median = bundles[bundles.length >> 1];
  const largest = bundles[bundles.length - 1];
  const catalogue = await loadCatalogue({ sitesDir: join(root, "sites"), moduleNames: MODULE_NAMES });
  const rows = [
    ["production first files", bundles.length, smoke ? "smoke: the site go only" : ""],
    ["deferred file (every site)", `${median.deferred?.gzipBytes ?? 0} B`, `gzip; brotli ${median.deferred?.brotliBytes ?? 0} B`],
  ];
  const data = { bundles: bundles.length, deferred: median.deferred && { gzip: median.deferred.gzipBytes, brotli: median.deferred.brotliBytes } };
  // A smoke run's one bundle is both: profiled once.
  const targets = [["median", median, TARGET_MEDIAN], ...(largest === median ? [] : [["largest", largest, TARGET_LARGEST]])];
  for (const [label, report, target] of targets) {
    const bundle = catalogue.bundles.find((b) => b.site === report.site && b.env === report.env);
    const profile = await profileBundle({ root, cacheDir, bundle });
    if (profile.code !== readFileSync(join(out, report.file), "utf8")) throw new Error(`the profile of prod/${report.site} differs from the built file`);
    const p = attribute(profile, partOf);
    if (p.gzip !== report.gzipBytes) throw new Error(`prod/${report.site}: gzip ${p.gzip} B here, ${report.gzipBytes} B in the manifest`);
    rows.push(
      [
        `${label}: prod/${report.site} first file, gzip`,
        `${p.gzip} B`,
        `target <= ${target} → ${p.gzip <= target ? "met" : "MISSED"} (${p.gzip - target > 0 ? "+" : ""}${p.gzip - target} B); brotli ${p.brotli} B; ${p.chars} characters minified`,
      ],
      ...p.parts.map((x) => [`  ${x.part}`, `${x.gzip} B`, `marginal gzip; ${x.chars} characters`]),
      [`  ten biggest source files of prod/${report.site}`, "", ""],
      ...p.files.slice(0, 10).map((f) => [`    ${f.source}`, `${f.gzip} B`, `marginal gzip; ${f.chars} characters`]),
    );
    data[label] = { site: report.site, gzip: p.gzip, brotli: p.brotli, chars: p.chars, parts: p.parts, files: p.files.slice(0, 10) };
  }
  rmSync(out, { recursive: true, force: true });
  return { rows, data };
}

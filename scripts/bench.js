#!/usr/bin/env node
/**
 * npm run bench: reproducible measurements, printed as a table and written to
 * bench-results.json. Each case is a function in CASES; later work adds cases.
 *
 *   node scripts/bench.js [case ...] [--runs N]
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir, cpus } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(ROOT, "bin", "sitetags.js");
const args = process.argv.slice(2);
const runsIndex = args.indexOf("--runs");
const RUNS = runsIndex >= 0 ? Number(args[runsIndex + 1]) : 3;
const selected = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--runs");

const tmp = (p) => mkdtempSync(join(tmpdir(), `sitetags-bench-${p}-`));
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

function cliBuild(sites, out, cache) {
  const t = performance.now();
  const r = spawnSync(process.execPath, [BIN, "build", "--sites", sites, "--out", out, "--cache", cache, "--json"], { encoding: "utf8", maxBuffer: 64 << 20 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`build failed (${r.status}): ${r.stderr}`);
  const parsed = JSON.parse(r.stdout);
  return { ms, built: parsed.built, reused: parsed.reused, bundles: parsed.bundles };
}

/** Case 1: the whole matrix, cold / warm / one site changed, against an esbuild baseline. */
async function buildMatrix() {
  const rows = [];
  const cold = [];
  const warm = [];
  const oneSite = [];
  let bundles = [];
  for (let run = 0; run < RUNS; run++) {
    const sites = tmp("sites");
    cpSync(join(ROOT, "sites"), sites, { recursive: true });
    const out = tmp("out");
    const cache = tmp("cache");
    const c = cliBuild(sites, out, cache);
    cold.push(c.ms);
    bundles = c.bundles;
    const w = cliBuild(sites, out, cache);
    if (w.built !== 0) throw new Error(`warm rebuild rebuilt ${w.built} bundles`);
    warm.push(w.ms);
    const goFile = join(sites, "go.yaml");
    writeFileSync(goFile, `${readFileSync(goFile, "utf8")}\ntiming:\n  pageLoad: ${3000 + run}\n`);
    const o = cliBuild(sites, out, cache);
    oneSite.push(o.ms);
    if (o.built < 1 || o.built > 8) throw new Error(`one-site change rebuilt ${o.built} bundles`);
    for (const d of [sites, out, cache]) rmSync(d, { recursive: true, force: true });
  }
  const baseline = await esbuildBaseline(RUNS);
  const gz = bundles.map((b) => b.gzipBytes).sort((a, b) => a - b);
  const largest = [...bundles].sort((a, b) => b.gzipBytes - a.gzipBytes)[0];
  const coldMs = median(cold);
  rows.push(
    ["bundles", bundles.length, ""],
    ["cold build, whole matrix (CLI, incl. process start)", `${(coldMs / 1000).toFixed(2)} s`, `target <= 3x esbuild = ${((baseline.ms * 3) / 1000).toFixed(2)} s → ${coldMs <= baseline.ms * 3 ? "met" : "MISSED"} (${(coldMs / baseline.ms).toFixed(1)}x)`],
    ["esbuild baseline (same generated entries, bundle+minify)", `${(baseline.ms / 1000).toFixed(2)} s`, `${baseline.entries} entries in one esbuild call`],
    ["warm rebuild, nothing changed", `${(median(warm) / 1000).toFixed(2)} s`, `target < 1.5 s → ${median(warm) < 1500 ? "met" : "MISSED"}`],
    ["rebuild after one site's YAML changed", `${(median(oneSite) / 1000).toFixed(2)} s`, `target < 3 s → ${median(oneSite) < 3000 ? "met" : "MISSED"}`],
    ["median gzip", `${gz[gz.length >> 1]} B`, ""],
    ["largest gzip", `${largest.gzipBytes} B`, `${largest.env}/${largest.site}`],
    ["total gzip", `${gz.reduce((a, b) => a + b, 0)} B`, ""],
  );
  return {
    rows,
    data: { runs: RUNS, bundles: bundles.length, coldMs: cold, warmMs: warm, oneSiteMs: oneSite, esbuildMs: baseline.all, medianGzip: gz[gz.length >> 1], largestGzip: largest.gzipBytes, largest: `${largest.env}/${largest.site}` },
  };
}

/**
 * The baseline: the same generated entries (one per site x env, config inlined
 * as a constant), bundled and minified by esbuild straight from the runtime's
 * TypeScript sources, all in one esbuild call.
 */
async function esbuildBaseline(runs) {
  const esbuild = await import("esbuild");
  const { loadCatalogue } = await import(join(ROOT, "build/generator/config/load.js"));
  const { MODULE_NAMES } = await import(join(ROOT, "build/generator/build/build.js"));
  const { readRegistry } = await import(join(ROOT, "build/generator/build/registry.js"));
  const { writeEntry, CONFIG_TOKEN } = await import(join(ROOT, "build/generator/build/entry.js"));
  const tsMorph = await import("ts-morph");
  const catalogue = await loadCatalogue({ sitesDir: join(ROOT, "sites"), moduleNames: MODULE_NAMES });
  const { entries: registry } = await readRegistry(join(ROOT, "runtime-modules"));
  const dir = join(ROOT, ".sitetags-cache", "bench-esbuild");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const entryPoints = [];
  for (const b of catalogue.bundles) {
    const file = join(dir, `${b.env}-${b.site}.ts`);
    const source = writeEntry(tsMorph, { runtimeDir: join(ROOT, "runtime-modules"), bundleConfigTypes: join(ROOT, "generator/config/bundle-config.ts"), entryFile: file, extension: "", modules: registry.filter((r) => b.modules.includes(r.name)), devChecks: b.env !== "prod" });
    writeFileSync(file, source.replace(`declare const ${CONFIG_TOKEN}: BundleConfig;`, `const ${CONFIG_TOKEN}: BundleConfig = ${JSON.stringify(b.config)};`));
    entryPoints.push(file);
  }
  const all = [];
  for (let i = 0; i < runs; i++) {
    const out = tmp("esbuild");
    const t = performance.now();
    await esbuild.build({ entryPoints, bundle: true, minify: true, format: "iife", target: "es2020", outdir: out, write: true, logLevel: "error" });
    all.push(performance.now() - t);
    rmSync(out, { recursive: true, force: true });
  }
  rmSync(dir, { recursive: true, force: true });
  return { ms: median(all), all, entries: entryPoints.length };
}

/**
 * Case 2: the rule engine in Chromium. 100,000 data-layer pushes through 50
 * rules (10 event names, conditions on data elements and the computed state,
 * setVariables actions), on a dev bundle served from 127.0.0.1. Reports
 * events per second and the JS heap retained after the run (after GC, against
 * the heap after GC before it).
 */
async function ruleEngine() {
  const { createServer } = await import("node:http");
  const { chromium } = await import("playwright-core");
  const PUSHES = 100_000;
  const sites = tmp("sites");
  cpSync(join(ROOT, "sites", "_org.yaml"), join(sites, "_org.yaml"));
  const rules = [];
  for (let i = 0; i < 50; i++) {
    rules.push(`  - id: r${i}
    name: Rule ${i}
    order: ${[0, 5, 10, 50][i % 4]}
    events: [{ type: dataLayerPush, event: e${i % 10} }]
    conditions:
      - { type: dataElement, name: value, gt: ${i % 7} }
      - type: anyOf
        conditions: [{ type: dataElement, name: kind, equals: k${i % 3} }, { type: path, startsWith: / }]
    actions:
      - { type: setVariables, variables: { eVar${(i % 20) + 1}: "%kind%-%value%" } }`);
  }
  writeFileSync(
    join(sites, "benchsite.yaml"),
    `code: benchsite\nname: Bench\nappId: "999"\nhosts:\n  dev: [benchsite-dev.kiwi.example]\nbudget: { gzipBytes: 60000 }\ndataElements:\n  value: { dataLayer: item.value }\n  kind: { dataLayer: item.kind }\ndisabledRules: [page-view, internal-search, modal, application-error]\nrules:\n${rules.join("\n")}\n`,
  );
  const out = tmp("out");
  const r = spawnSync(process.execPath, [BIN, "build", "--sites", sites, "--out", out, "--cache", join(ROOT, ".sitetags-cache"), "--json"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`bench bundle failed: ${r.stderr}`);
  const bundle = readFileSync(join(out, "dev", "benchsite", "sitetags.min.js"), "utf8");
  const server = createServer((req, res) => {
    if (req.url === "/sitetags.min.js") res.writeHead(200, { "content-type": "text/javascript" }).end(bundle);
    else res.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><title>bench</title><script src="/sitetags.min.js"></script>');
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--js-flags=--expose-gc"],
  });
  const runs = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${server.address().port}/`);
      const cdp = await page.context().newCDPSession(page);
      await page.waitForFunction(() => window.sitetags && window.sitetags.site === "benchsite");
      await cdp.send("HeapProfiler.collectGarbage");
      const before = (await cdp.send("Runtime.getHeapUsage")).usedSize;
      const ms = await page.evaluate((n) => {
        const dl = window.kiwiDataLayer;
        const t0 = performance.now();
        for (let i = 0; i < n; i++) dl.push({ event: "e" + (i % 10), item: { value: i % 13, kind: "k" + (i % 3) } });
        return performance.now() - t0;
      }, PUSHES);
      await cdp.send("HeapProfiler.collectGarbage");
      const after = (await cdp.send("Runtime.getHeapUsage")).usedSize;
      runs.push({ ms, eventsPerSecond: Math.round((PUSHES / ms) * 1000), retainedBytes: after - before });
      await page.close();
    }
  } finally {
    await browser.close();
    server.close();
    for (const d of [sites, out]) rmSync(d, { recursive: true, force: true });
  }
  const eps = median(runs.map((x) => x.eventsPerSecond));
  const retained = median(runs.map((x) => x.retainedBytes));
  return {
    rows: [
      ["pushes x rules", `${PUSHES} x 50`, "10 event names, 5 rules each, 2 conditions + 1 action per rule"],
      ["events per second", eps.toLocaleString("en"), `target >= 20,000 → ${eps >= 20000 ? "met" : "MISSED"}`],
      ["heap retained after the run (after GC)", `${(retained / 1048576).toFixed(2)} MB`, `target <= 5 MB → ${retained <= 5 * 1048576 ? "met" : "MISSED"}`],
    ],
    data: { pushes: PUSHES, rules: 50, runs },
  };
}

export const CASES = { "build-matrix": buildMatrix, "rule-engine": ruleEngine };

const results = {};
const names = selected.length ? selected : Object.keys(CASES);
console.log(`sitetags bench: ${names.join(", ")} (median of ${RUNS} runs; ${cpus().length} cores, Node ${process.version})\n`);
for (const name of names) {
  if (!CASES[name]) {
    console.error(`unknown case ${name}; cases: ${Object.keys(CASES).join(", ")}`);
    process.exit(2);
  }
  const { rows, data } = await CASES[name]();
  results[name] = data;
  const w0 = Math.max(...rows.map((r) => String(r[0]).length));
  const w1 = Math.max(...rows.map((r) => String(r[1]).length));
  console.log(`## ${name}`);
  for (const [a, b, c] of rows) console.log(`${String(a).padEnd(w0)}  ${String(b).padStart(w1)}  ${c}`);
  console.log("");
}
const file = join(ROOT, "bench-results.json");
writeFileSync(file, `${JSON.stringify({ node: process.version, cores: cpus().length, runs: RUNS, results }, null, 2)}\n`);
console.log(`wrote ${file}`);

/**
 * The `scale` case of npm run bench (issue #21, "builds that scale to ten
 * times the sites"): a catalogue of N valid sites generated in a temporary
 * folder from the shipped one (each shipped site copied under new codes and
 * hosts, `_org.yaml` as it is), built by the CLI cold, warm (nothing changed)
 * and after one site's YAML changed, with the peak resident memory of each
 * build process. The shipped catalogue's size is measured the same way, so
 * the table can compare the two: the two catalogues' runs alternate, and the
 * cold-build verdict is the median of each run's ratio (generated over the
 * shipped build run right after it), not a ratio of medians taken minutes
 * apart on a machine whose speed drifts.
 *
 * Targets (issue #21): at 600 sites a warm rebuild and a one-site rebuild
 * each under 1.0 s, a cold build at most 1.5x the shipped catalogue's cold
 * build, peak memory under 400 MB.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseDocument } from "yaml";

const tmp = (p) => mkdtempSync(join(tmpdir(), `sitetags-bench-${p}-`));
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/**
 * A preload that reports the process's peak resident memory (bytes) and its
 * CPU time (user + system, microseconds, worker threads included) on stderr
 * as its last line. CPU time is printed beside the wall time: on a machine
 * other work shares, it says what the build itself cost. The preload runs
 * in the build's worker threads too: only the main thread reports (a
 * worker's exit comes early, and its report was read as the build's). The
 * peak is the whole process's, every thread's memory together: its
 * high-water mark of resident memory (VmHWM in /proc/self/status, where
 * there is one; else getrusage's maxRSS, the same figure). A build that
 * compiles the runtime runs in a child process of the CLI
 * (generator/cli/child.ts), which reports too, and the CLI, waiting for it,
 * reports last. The build's peak is then the child's high-water mark plus
 * the CLI's private memory (RssAnon + RssShmem in /proc/self/status at its
 * exit: its heap, which stays as it was while it waits), so that the pages
 * both processes map from the same files (the node binary, about 45 MB) are
 * counted once, as the kernel holds them once; the sum of the two
 * high-water marks, an upper bound, is printed beside it. Its CPU time is
 * theirs together.
 */
const PEAK = `data:text/javascript,import{isMainThread}from"node:worker_threads";import{readFileSync}from"node:fs";if(isMainThread)process.on("exit",()=>{const u=process.resourceUsage();let kb=u.maxRSS,own=kb;try{const t=readFileSync("/proc/self/status","utf8"),f=(n)=>Number(new RegExp(n+":\\\\s*(\\\\d+)").exec(t)[1]);kb=f("VmHWM");own=f("RssAnon")+f("RssShmem")}catch{}process.stderr.write("\\nsitetags-peak-rss "+kb*1024+" cpu "+(u.userCPUTime+u.systemCPUTime)+" private "+own*1024+"\\n")})`;

/**
 * Writes a catalogue of `count` sites into `dir`: the shipped sites first,
 * then copies of them as `CODEsN` with their hosts renamed the same way,
 * until there are `count`. Returns the site files written.
 */
export function generateCatalogue(root, dir, count) {
  const shipped = join(root, "sites");
  const files = readdirSync(shipped)
    .filter((f) => f.endsWith(".yaml") && f !== "_org.yaml")
    .sort();
  writeFileSync(join(dir, "_org.yaml"), readFileSync(join(shipped, "_org.yaml")));
  const written = [];
  for (let copy = 0; written.length < count; copy++) {
    for (const file of files) {
      if (written.length >= count) break;
      const text = readFileSync(join(shipped, file), "utf8");
      if (copy === 0) {
        writeFileSync(join(dir, file), text);
        written.push(file);
        continue;
      }
      const doc = parseDocument(text);
      const code = `${doc.get("code")}s${copy}`;
      doc.set("code", code);
      doc.set("name", `${doc.get("name")} ${copy}`);
      const hosts = doc.get("hosts");
      for (const pair of hosts?.items ?? []) {
        for (const item of pair.value?.items ?? []) item.value = String(item.value).replace(/^([^.]+)/, `$1-s${copy}`);
      }
      writeFileSync(join(dir, `${code}.yaml`), doc.toString());
      written.push(`${code}.yaml`);
    }
    if (copy > 1000) throw new Error("the shipped catalogue has no site to copy");
  }
  return written;
}

function build(bin, sites, out, cache) {
  const t = performance.now();
  const r = spawnSync(process.execPath, ["--import", PEAK, bin, "build", "--sites", sites, "--out", out, "--cache", cache, "--json"], {
    encoding: "utf8",
    maxBuffer: 256 << 20,
  });
  const ms = performance.now() - t;
  // With --json the diagnostics are on stdout: a failed build's error names them (a run under load once failed with exit 3 and said nothing).
  if (r.status !== 0) throw new Error(`build failed (${r.status}): ${r.stderr.slice(0, 4000)}\nstdout: ${r.stdout.slice(0, 4000)}`);
  const reports = [...r.stderr.matchAll(/sitetags-peak-rss (\d+) cpu (\d+) private (\d+)/g)];
  // The build's process's high-water mark, plus the private memory of the CLI that waited for it (the last report; see PEAK).
  const peak = reports.length ? reports.reduce((sum, m, i) => sum + Number(m[i && i === reports.length - 1 ? 3 : 1]), 0) : NaN;
  const cpu = reports.length ? reports.reduce((sum, m) => sum + Number(m[2]), 0) : NaN;
  const parsed = JSON.parse(r.stdout);
  return {
    ms,
    cpuMs: cpu / 1000,
    peak,
    // Each process's own high-water mark, the CLI's last (it exits after its child), and the CLI's private memory.
    peaks: reports.map((m) => Number(m[1])),
    cliPrivate: reports.length > 1 ? Number(reports[reports.length - 1][3]) : undefined,
    built: parsed.built,
    reused: parsed.reused,
    bundles: parsed.bundles.length,
    phases: parsed.phases ?? {},
    phaseCpu: parsed.cpuMs ?? {},
    phasePeaks: parsed.peaks ?? {},
  };
}

/** The results of a catalogue's runs (measureRun adds one). */
function newRows() {
  return {
    cold: [],
    warm: [],
    oneSite: [],
    cpu: { cold: [], warm: [], oneSite: [] },
    phases: { cold: [], oneSite: [] },
    peak: [],
    coldPeaks: [],
    bundles: 0,
    sites: 0,
  };
}

/** One run of cold, warm and one-site builds of a generated catalogue of `count` sites, added to `rows`. */
function measureRun(root, count, run, rows) {
  const bin = join(root, "bin", "sitetags.js");
  const sites = tmp("scale-sites");
  const out = tmp("scale-out");
  const cache = tmp("scale-cache");
  try {
    const files = generateCatalogue(root, sites, count);
    rows.sites = files.length;
    const cold = build(bin, sites, out, cache);
    rows.bundles = cold.bundles;
    const warm = build(bin, sites, out, cache);
    if (warm.built !== 0) throw new Error(`a warm rebuild of ${count} sites rebuilt ${warm.built} bundles`);
    const changed = join(sites, files[files.length >> 1]);
    writeFileSync(changed, `${readFileSync(changed, "utf8")}\ntiming:\n  pageLoad: ${3000 + run}\n`);
    const one = build(bin, sites, out, cache);
    if (one.built < 1 || one.built > 8) throw new Error(`a one-site change rebuilt ${one.built} bundles`);
    rows.cold.push(cold.ms);
    rows.warm.push(warm.ms);
    rows.oneSite.push(one.ms);
    rows.cpu.cold.push(cold.cpuMs);
    rows.cpu.warm.push(warm.cpuMs);
    rows.cpu.oneSite.push(one.cpuMs);
    rows.peak.push(Math.max(cold.peak, warm.peak, one.peak));
    rows.coldPeaks.push(cold);
    rows.phases.cold.push(cold);
    rows.phases.oneSite.push(one);
  } finally {
    for (const d of [sites, out, cache]) rmSync(d, { recursive: true, force: true });
  }
}

const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const range = (xs) => `${s(Math.min(...xs))}–${s(Math.max(...xs))}`;
const cpu = (xs) => `cpu ${s(median(xs))}`;
/** Each run's cold build's peak per process: the build's child's high-water mark + the CLI's private memory (its high-water mark; both summed). */
const processes = (runs) =>
  runs
    .map(({ peaks, cliPrivate }) =>
      cliPrivate === undefined
        ? peaks.map(mb).join(" + ")
        : `build ${mb(peaks[0])} + CLI private ${mb(cliPrivate)} (CLI high-water ${mb(peaks[1])}; sum of high-water marks ${mb(peaks[0] + peaks[1])})`,
    )
    .join(", ");
/**
 * The build's profile (its --json "phases", "cpuMs" and "peaks"; SITETAGS_PROFILE=1 prints the same on stderr): per phase, in order, the
 * median over the runs of its wall time, its CPU time and the process's peak resident memory at its end. "load" is the CLI's loading from
 * the process's start; "bundles:link", ":compress" and ":stage" are summed over the bundles in flight together (wall, no CPU or peak).
 */
const phases = (runs) =>
  [...new Set(runs.flatMap((r) => Object.keys(r.phases)))]
    .map((name) => {
      const cpuMs = runs.map((r) => r.phaseCpu[name]).filter((x) => x !== undefined);
      const peak = runs.map((r) => r.phasePeaks[name]).filter((x) => x !== undefined);
      const extra = [cpuMs.length ? `cpu ${s(median(cpuMs))}` : "", peak.length ? `peak ${median(peak)} MB` : ""].filter(Boolean).join(", ");
      return `${name} ${s(median(runs.map((r) => r.phases[name] ?? 0)))}${extra ? ` (${extra})` : ""}`;
    })
    .join("; ");

/** The case: `sites` generated sites (600; a smoke run passes fewer) against the shipped catalogue. */
export async function scaleBench({ root, runs, sites = 600 }) {
  const shippedCount = readdirSync(join(root, "sites")).filter((f) => f.endsWith(".yaml") && f !== "_org.yaml").length;
  const big = newRows();
  // A scale no larger than the shipped catalogue (a smoke run) is measured once and stands for both.
  const base = sites <= shippedCount ? big : newRows();
  // The two catalogues' runs interleaved (generated, shipped, generated, ...): the machine's speed drifts over minutes (2026-11-28: the
  // shipped catalogue's three cold builds, run after the generated ones, compiled the same pieces 3 s slower), so each ratio is of two
  // builds next to each other in time, and the verdict is the median of the runs' ratios.
  for (let run = 0; run < runs; run++) {
    measureRun(root, sites, run, big);
    if (base !== big) measureRun(root, shippedCount, run, base);
  }
  const ratios = big.cold.map((ms, i) => ms / base.cold[i]);
  const coldRatio = median(ratios);
  const verdict = (ok) => (ok ? "met" : "MISSED");
  const rows = [
    ["sites / bundles (shipped)", `${base.sites} / ${base.bundles}`, ""],
    ["sites / bundles (generated)", `${big.sites} / ${big.bundles}`, ""],
    ["cold build, shipped", s(median(base.cold)), `range ${range(base.cold)}; ${cpu(base.cpu.cold)}`],
    [
      "cold build, generated",
      s(median(big.cold)),
      `range ${range(big.cold)}; ${cpu(big.cpu.cold)}; target <= 1.5x shipped → ${verdict(coldRatio <= 1.5)} (${coldRatio.toFixed(2)}x, the median of the runs' ${ratios.map((r) => `${r.toFixed(2)}x`).join(", ")})`,
    ],
    [
      "warm rebuild, nothing changed (generated)",
      s(median(big.warm)),
      `range ${range(big.warm)}; ${cpu(big.cpu.warm)}; target < 1.0 s → ${verdict(median(big.warm) < 1000)}`,
    ],
    [
      "rebuild after one site changed (generated)",
      s(median(big.oneSite)),
      `range ${range(big.oneSite)}; ${cpu(big.cpu.oneSite)}; target < 1.0 s → ${verdict(median(big.oneSite) < 1000)}`,
    ],
    [
      "peak memory of a build (generated)",
      mb(median(big.peak)),
      `max ${mb(Math.max(...big.peak))}; cold builds per process ${processes(big.coldPeaks)}; target < 400 MB → ${verdict(median(big.peak) < 400 * 2 ** 20)}`,
    ],
    ["peak memory of a build (shipped)", mb(median(base.peak)), `cold builds per process ${processes(base.coldPeaks)}`],
    ["where a cold build's time goes (generated)", "", phases(big.phases.cold)],
    ["where a one-site rebuild's time goes (generated)", "", phases(big.phases.oneSite)],
  ];
  return { rows, data: { runs, shipped: base, generated: big, coldRatio, coldRatios: ratios } };
}

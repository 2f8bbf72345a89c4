/**
 * `npm run bench -- edge-profile`: where a page's main-thread time goes in
 * our production bundle (issue #21's "measured profile"). prod/bigfuture is
 * loaded as a first visit (consent given on the page, no cookies) and as a
 * returning visitor (identity and consent cookies), `loads` times each, in a
 * Chromium over a bare CDP pipe (scripts/cdp-pipe.js) with a trace running
 * (the timeline, V8's compile events and its CPU sampler): these loads are
 * instrumented and separate from the edge case's timed ones, so read their
 * shares, not their absolute times, against the target. Per scenario
 * (medians over the loads): our script's sampled time, and the part of it
 * before the page-view request leaves; V8's compile and parse of our file;
 * document.cookie and Web Storage calls (counted and timed by a wrapper the
 * page gets before any script); the main thread's busy time before the
 * page-view request; and the functions of our file with the most self time.
 * The build emits no source map, so a function is named as V8 infers it
 * (property names survive minification) with its place in the minified file
 * and an excerpt of it.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchPipe, navigateAndSettle, openTab } from "./cdp-pipe.js";
import { answerEdge, benchChromiumArgs, FIRST_VISIT_PAGE, visitorCookies as benchVisitorCookies } from "./bench-page.js";

const tmp = (p) => mkdtempSync(join(tmpdir(), `sitetags-bench-${p}-`));
const median = (xs) => (xs.length ? [...xs].sort((a, b) => a - b)[xs.length >> 1] : 0);
const ms = (v) => `${v.toFixed(1)} ms`;

/** Counts and times (ms) document.cookie reads and writes and Web Storage calls, from before any page script (a wrapper: only in these instrumented loads). */
const STORAGE_PROBE = `(() => {
  const s = (window.__storageProbe = { cookieRead: [0, 0], cookieWrite: [0, 0], storage: [0, 0] });
  const timed = (key, fn) => function (...a) { const t = performance.now(); try { return fn.apply(this, a); } finally { s[key][0]++; s[key][1] += performance.now() - t; } };
  const c = Object.getOwnPropertyDescriptor(Document.prototype, "cookie");
  Object.defineProperty(Document.prototype, "cookie", { configurable: true, get: timed("cookieRead", c.get), set: timed("cookieWrite", c.set) });
  for (const name of ["localStorage", "sessionStorage"]) {
    const d = Object.getOwnPropertyDescriptor(window, name) || Object.getOwnPropertyDescriptor(Window.prototype, name);
    if (d && d.get) Object.defineProperty(window, name, { configurable: true, get: timed("storage", d.get) });
  }
  for (const m of ["getItem", "setItem", "removeItem"]) Storage.prototype[m] = timed("storage", Storage.prototype[m]);
})();`;

const CATEGORIES = [
  "-*",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8",
  "v8.execute",
  "disabled-by-default-v8.compile",
  "disabled-by-default-v8.cpu_profiler",
].join(",");

/** One load of url in a fresh context with a trace running: the trace's events and the storage probe's counters. */
async function tracedLoad(pipe, url, cookies, settleMs) {
  const { browserContextId } = await pipe.send("Target.createBrowserContext");
  const events = [];
  const off = pipe.on((m) => {
    if (m.method === "Tracing.dataCollected") events.push(...m.params.value);
  });
  try {
    const { sessionId } = await openTab(pipe, browserContextId, cookies);
    await pipe.send("Page.enable", {}, sessionId);
    await pipe.send("Page.addScriptToEvaluateOnNewDocument", { source: STORAGE_PROBE }, sessionId);
    await pipe.send("Tracing.start", { traceConfig: { includedCategories: CATEGORIES.split(",").filter((c) => c !== "-*") }, transferMode: "ReportEvents" });
    await navigateAndSettle(pipe, sessionId, url, settleMs);
    const probe = await pipe.send("Runtime.evaluate", { expression: "JSON.stringify(window.__storageProbe)", returnByValue: true }, sessionId);
    const complete = pipe.waitFor("Tracing.tracingComplete", undefined, () => true, 30000);
    await pipe.send("Tracing.end");
    await complete;
    return { events, storage: JSON.parse(probe.result.value) };
  } finally {
    off();
    await pipe.send("Target.disposeBrowserContext", { browserContextId });
  }
}

/** What one traced load says about our script (scriptUrl) on the page's main thread. */
export function analyseTrace(events, scriptUrl) {
  const evaluate = events.find((e) => e.name === "EvaluateScript" && e.args?.data?.url?.endsWith(scriptUrl));
  if (!evaluate) throw new Error(`no EvaluateScript of ${scriptUrl} in the trace`);
  const { pid, tid } = evaluate;
  const main = events.filter((e) => e.pid === pid && e.tid === tid);
  // Time 0: the page's own request (the first the renderer sends).
  const navigation = events.find((e) => e.name === "ResourceSendRequest" && e.pid === pid);
  const t0 = navigation ? navigation.ts : evaluate.ts;
  const send = events.find((e) => e.name === "ResourceSendRequest" && /\/v1\/(interact|collect)/.test(e.args?.data?.url || ""));
  const pageViewTs = send ? send.ts : Infinity;
  // Compile and parse of our file (top-level events only: V8 nests its parse inside its compile).
  const compile = main.filter((e) => /compile|parse/i.test(e.name) && e.ph === "X" && (e.args?.data?.url || "").endsWith(scriptUrl));
  // Lazy compiles of functions at their first call (V8 names no script on them: nearly all are ours, the page has no other script of note).
  const lazy = main.filter((e) => /^V8\.(CompileLazy|CompileCode|ParseFunction)$/.test(e.name) && e.ph === "X");
  const outermost = (list) => {
    let total = 0;
    let lastEnd = -Infinity;
    for (const e of list.sort((a, b) => a.ts - b.ts)) {
      if (e.ts >= lastEnd) total += (e.dur || 0) / 1000;
      lastEnd = Math.max(lastEnd, e.ts + (e.dur || 0));
    }
    return total;
  };
  const compileMs = outermost(compile);
  const lazyCompileMs = outermost(lazy);
  // The main thread's tasks before the page-view request (RunTask, top level).
  const busyBefore =
    main
      .filter((e) => /RunTask$/.test(e.name) && e.ph === "X" && e.ts >= t0 && e.ts < pageViewTs)
      .reduce((a, e) => a + Math.min(e.dur || 0, pageViewTs - e.ts), 0) / 1000;
  // V8's sampler: the ProfileChunk events of the main thread's profile.
  const profile = events.find((e) => e.name === "Profile" && e.pid === pid && e.tid === tid) || events.find((e) => e.name === "Profile" && e.pid === pid);
  const nodes = new Map();
  let ours = 0;
  let oursBefore = 0;
  const self = new Map();
  if (profile) {
    let ts = profile.args.data.startTime;
    for (const chunk of events.filter((e) => e.name === "ProfileChunk" && e.id === profile.id)) {
      const cpu = chunk.args.data.cpuProfile || {};
      for (const n of cpu.nodes || []) nodes.set(n.id, n);
      const samples = cpu.samples || [];
      const deltas = chunk.args.data.timeDeltas || [];
      for (let i = 0; i < samples.length; i++) {
        const dt = deltas[i] || 0;
        ts += dt;
        // A sample's weight: the time to the next one (the sampler's interval), taken as this delta.
        const weight = Math.max(0, (deltas[i + 1] ?? dt) / 1000);
        // The sample's leaf, and the innermost frame of our file on its stack (a native leaf is charged to it, by name).
        const leaf = nodes.get(samples[i]);
        let node = leaf;
        while (node && !(node.callFrame.url || "").endsWith(scriptUrl)) node = nodes.get(node.parent);
        if (!node || !leaf) continue;
        ours += weight;
        if (ts < pageViewTs) oursBefore += weight;
        const at = (f) => `${f.functionName || "(anonymous)"}@${f.lineNumber}:${f.columnNumber}`;
        const key = leaf === node ? at(node.callFrame) : `${leaf.callFrame.functionName || "(native)"} in ${at(node.callFrame)}`;
        self.set(key, (self.get(key) || 0) + weight);
      }
    }
  }
  return {
    oursMs: ours,
    oursBeforePageViewMs: oursBefore,
    compileMs,
    lazyCompileMs,
    evaluateMs: (evaluate.dur || 0) / 1000,
    busyBeforePageViewMs: busyBefore,
    pageViewAtMs: Number.isFinite(pageViewTs) ? (pageViewTs - t0) / 1000 : NaN,
    self,
    sampled: Boolean(profile),
  };
}

/**
 * The profile: builds prod/bigfuture (budget lifted), serves it over HTTPS with
 * a mock edge, and traces `loads` loads per scenario. Returns the bench table's
 * rows and its data.
 */
export async function profileBench({ root, loads = 5, smoke = false }) {
  const { createServer } = await import("node:https");
  const sites = tmp("profile-sites");
  cpSync(join(root, "sites", "_org.yaml"), join(sites, "_org.yaml"));
  writeFileSync(join(sites, "bigfuture.yaml"), `${readFileSync(join(root, "sites", "bigfuture.yaml"), "utf8")}\nbudget:\n  gzipBytes: 100000\n`);
  const out = tmp("profile-out");
  const built = spawnSync(
    process.execPath,
    [join(root, "bin", "sitetags.js"), "build", "--sites", sites, "--out", out, "--cache", join(root, ".sitetags-cache"), "--env", "prod", "--json"],
    { encoding: "utf8", maxBuffer: 64 << 20 },
  );
  if (built.status !== 0) throw new Error(`build failed (${built.status}): ${built.stderr}`);
  const bundleDir = join(out, "prod", "bigfuture");
  const bundle = readFileSync(join(bundleDir, "sitetags.min.js"), "utf8");
  const certDir = tmp("profile-cert");
  const { runnerImport } = await import("vite");
  const { module: certs } = await runnerImport(join(root, "preview", "server", "certs.ts"), { configFile: false, root, logLevel: "error" });
  const cert = await certs.makeCertificate(certDir, { days: 1, name: "sitetags bench", what: "the bench's certificate" });
  const { loadCatalogue, MODULE_NAMES } = await import(join(root, "build/generator/index.js"));
  const catalogue = await loadCatalogue({ sitesDir: sites, moduleNames: MODULE_NAMES });
  const { orgId, edgeDomain } = catalogue.bundles.find((b) => b.site === "bigfuture" && b.env === "prod").config.analytics;
  const server = createServer({ key: cert.key, cert: cert.cert }, (req, res) => {
    const host = (req.headers.host || "").split(":")[0];
    const path = (req.url || "/").split("?")[0];
    if (host === edgeDomain) return answerEdge(req, res, path, orgId);
    if (path === "/ours.js") return res.writeHead(200, { "content-type": "text/javascript" }).end(bundle);
    // The deferred file (and anything else the bundle names beside itself).
    if (path.endsWith(".js")) {
      let file;
      try {
        file = readFileSync(join(bundleDir, path.slice(1)));
      } catch {
        return res.writeHead(404).end("");
      }
      return res.writeHead(200, { "content-type": "text/javascript" }).end(file);
    }
    if (path === "/first") return res.writeHead(200, { "content-type": "text/html" }).end(FIRST_VISIT_PAGE);
    if (path === "/") return res.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><title>bench</title><script src="/ours.js"></script>');
    res.writeHead(404).end("");
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const visitorCookies = benchVisitorCookies(orgId);
  const pipe = launchPipe("/usr/bin/chromium", benchChromiumArgs(server.address().port));
  const scenarios = { first: { path: "/first", cookies: [], runs: [] }, returning: { path: "/", cookies: visitorCookies, runs: [] } };
  try {
    if (!smoke) await tracedLoad(pipe, "https://bigfuture.kiwi.example/", visitorCookies, 200); // warm-up
    for (let i = 0; i < loads; i++)
      for (const s of Object.values(scenarios)) {
        const { events, storage } = await tracedLoad(pipe, `https://bigfuture.kiwi.example${s.path}`, s.cookies, smoke ? 50 : 300);
        s.runs.push({ ...analyseTrace(events, "/ours.js"), storage });
      }
  } finally {
    await pipe.close();
    server.close();
    for (const d of [sites, out, certDir]) rmSync(d, { recursive: true, force: true });
  }
  const rows = [];
  const data = { loads, bundleBytes: bundle.length, scenarios: {} };
  const excerpt = (key) => {
    const m = /@(\d+):(\d+)$/.exec(key);
    if (!m) return "";
    const lines = bundle.split("\n");
    const line = lines[Number(m[1])] || "";
    return line.slice(Number(m[2]), Number(m[2]) + 48).replace(/\s+/g, " ");
  };
  for (const [name, s] of Object.entries(scenarios)) {
    const label = name === "first" ? "first visit, consent given, no cookies" : "returning visitor";
    const med = (f) => median(s.runs.map(f));
    const st = (k, i) => med((r) => r.storage[k][i]);
    rows.push(
      [
        `profile, ${label}: our script, sampled`,
        ms(med((r) => r.oursMs)),
        `before the page-view request ${ms(med((r) => r.oursBeforePageViewMs))}; median of ${s.runs.length} traced loads (instrumented: read the shares)`,
      ],
      [
        `profile, ${label}: compile and parse of our file`,
        ms(med((r) => r.compileMs)),
        `lazy compiles of functions at their first call ${ms(med((r) => r.lazyCompileMs))}; evaluating the file (compile and first run) ${ms(med((r) => r.evaluateMs))}`,
      ],
      [
        `profile, ${label}: document.cookie and Web Storage`,
        ms(st("cookieRead", 1) + st("cookieWrite", 1) + st("storage", 1)),
        `cookie reads ${st("cookieRead", 0)} (${ms(st("cookieRead", 1))}), writes ${st("cookieWrite", 0)} (${ms(st("cookieWrite", 1))}); local/sessionStorage calls ${st("storage", 0)} (${ms(st("storage", 1))})`,
      ],
      [
        `profile, ${label}: main thread busy before the page-view request`,
        ms(med((r) => r.busyBeforePageViewMs)),
        `the request leaves ${ms(med((r) => r.pageViewAtMs))} after the page's own request (traced)`,
      ],
    );
    const total = new Map();
    for (const r of s.runs) for (const [k, v] of r.self) total.set(k, (total.get(k) || 0) + v / s.runs.length);
    const top = [...total.entries()].sort((a, b) => b[1] - a[1]).slice(0, smoke ? 3 : 10);
    for (const [k, v] of top) rows.push([`  self time, ${label}: ${k}`, ms(v), excerpt(k)]);
    data.scenarios[name] = {
      runs: s.runs.map(({ self, ...r }) => r),
      top: top.map(([fn, ms]) => ({ fn, ms, excerpt: excerpt(fn) })),
    };
  }
  if (!scenarios.first.runs.every((r) => r.sampled)) rows.push(["profile: no CPU samples in the trace", "", "the sampler's category gave nothing"]);
  return { rows, data };
}

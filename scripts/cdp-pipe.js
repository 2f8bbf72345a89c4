/**
 * A Chromium driven over --remote-debugging-pipe with nothing but the CDP
 * domains a measurement asks for. Playwright enables the Network domain (and
 * more) on every page it opens; with DevTools' Network domain on, Chromium
 * captures the JavaScript stack of every request and cookie access, and V8
 * then re-parses each function on that stack for its source positions, on
 * the main thread. A page's script time measured that way includes DevTools'
 * own cost, which no visitor's browser pays. Used by `npm run bench` (edge).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function launchPipe(executablePath, args) {
  const profile = mkdtempSync(join(tmpdir(), "sitetags-cdp-"));
  const child = spawn(executablePath, [...args, "--remote-debugging-pipe", `--user-data-dir=${profile}`, "about:blank"], {
    stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"],
  });
  const out = child.stdio[3];
  const input = child.stdio[4];
  let nextId = 1;
  const pending = new Map();
  const listeners = new Set();
  let buffer = "";
  input.setEncoding("utf8");
  input.on("data", (chunk) => {
    buffer += chunk;
    let end;
    while ((end = buffer.indexOf("\0")) >= 0) {
      const message = JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
      if (message.id !== undefined && pending.has(message.id)) {
        const { resolve, reject, method } = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) reject(new Error(`${method}: ${message.error.message}`));
        else resolve(message.result);
      } else for (const listener of listeners) listener(message);
    }
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    /** Sends a CDP command (to a target's flat session when sessionId is given). */
    send(method, params = {}, sessionId) {
      const id = nextId++;
      out.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + "\0");
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject, method }));
    },
    /** Resolves with the first event of that method (and session) that passes the test. */
    waitFor(method, sessionId, test = () => true, timeoutMs = 15000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(listener);
          reject(new Error(`no ${method} within ${timeoutMs} ms`));
        }, timeoutMs);
        const listener = (m) => {
          if (m.method === method && m.sessionId === sessionId && test(m.params)) {
            clearTimeout(timer);
            listeners.delete(listener);
            resolve(m.params);
          }
        };
        listeners.add(listener);
      });
    },
    /** Calls listener with every event (method, params, sessionId) until the returned function is called. */
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      await this.send("Browser.close").catch(() => undefined);
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      child.kill("SIGKILL");
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Navigates the session's tab to url and waits for its load event, then settleMs more (work the page starts at load counts). */
export async function navigateAndSettle(pipe, sessionId, url, settleMs) {
  const loaded = pipe.waitFor("Page.loadEventFired", sessionId);
  await pipe.send("Page.navigate", { url }, sessionId);
  await loaded;
  await new Promise((resolve) => setTimeout(resolve, settleMs));
}

/**
 * A blank tab in the browser context, with the cookies set first, attached (flat session): its target and session ids.
 * Shared by the bench's loads (scriptTime, scriptTimeWithMicrotasks, bench-profile.js's traced loads).
 */
export async function openTab(pipe, browserContextId, cookies = []) {
  if (cookies.length) await pipe.send("Storage.setCookies", { browserContextId, cookies });
  const { targetId } = await pipe.send("Target.createTarget", { url: "about:blank", browserContextId });
  const { sessionId } = await pipe.send("Target.attachToTarget", { targetId, flatten: true });
  return { targetId, sessionId };
}

/**
 * Main-thread script time (CDP Performance ScriptDuration, ms) of one load of
 * url in a fresh browser context, with the given cookies, read settleMs after
 * the load event (so that work the page starts at load is counted).
 */
export async function scriptTime(pipe, url, { cookies = [], settleMs = 500 } = {}) {
  const { browserContextId } = await pipe.send("Target.createBrowserContext");
  try {
    const { sessionId } = await openTab(pipe, browserContextId, cookies);
    await pipe.send("Performance.enable", {}, sessionId);
    await pipe.send("Page.enable", {}, sessionId);
    await navigateAndSettle(pipe, sessionId, url, settleMs);
    const { metrics } = await pipe.send("Performance.getMetrics", {}, sessionId);
    return metrics.find((m) => m.name === "ScriptDuration").value * 1000;
  } finally {
    await pipe.send("Target.disposeBrowserContext", { browserContextId });
  }
}

/**
 * The trace events that are script on the page's main thread. Chromium's ScriptDuration (scriptTime) counts a script's
 * own task, its timers and its event listeners, but not the microtask checkpoints (RunMicrotasks) after a task, where
 * promise continuations run: a page's code that runs in `then` callbacks (a fetch's answer, a queue of commands) is
 * missing from it (test/browser/cdp-pipe.test.ts).
 */
const SCRIPT_EVENTS = new Set(["EvaluateScript", "FunctionCall", "TimerFire", "EventDispatch", "v8.compile", "RunMicrotasks"]);

/** The total length (µs) of a set of [start, end] intervals, overlaps counted once. */
export function unionLength(intervals) {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let start = 0;
  let end = -Infinity;
  for (const [a, b] of sorted) {
    if (a > end) {
      if (end > start) total += end - start;
      start = a;
      end = b;
    } else if (b > end) end = b;
  }
  if (end > start) total += end - start;
  return total;
}

/**
 * One load as scriptTime's, with a light trace running (devtools.timeline and v8.execute only: task and script
 * boundaries, no sampler, no stacks): `scriptMs` is ScriptDuration as scriptTime reads it, `withMicrotasksMs` the
 * page's main-thread script time with the microtask checkpoints counted (SCRIPT_EVENTS on the thread of the page's
 * frame, overlaps once).
 */
export async function scriptTimeWithMicrotasks(pipe, url, { cookies = [], settleMs = 500 } = {}) {
  const { browserContextId } = await pipe.send("Target.createBrowserContext");
  const events = [];
  const off = pipe.on((m) => {
    if (m.method === "Tracing.dataCollected") events.push(...m.params.value);
  });
  try {
    const { targetId, sessionId } = await openTab(pipe, browserContextId, cookies);
    await pipe.send("Performance.enable", {}, sessionId);
    await pipe.send("Page.enable", {}, sessionId);
    await pipe.send("Tracing.start", { traceConfig: { includedCategories: ["devtools.timeline", "v8.execute"] }, transferMode: "ReportEvents" });
    await navigateAndSettle(pipe, sessionId, url, settleMs);
    const { metrics } = await pipe.send("Performance.getMetrics", {}, sessionId);
    const complete = pipe.waitFor("Tracing.tracingComplete", undefined, () => true, 30000);
    await pipe.send("Tracing.end");
    await complete;
    // The page's main thread: where its frame (the target's id) ran script.
    const own = events.find((e) => e.args && e.args.data && e.args.data.frame === targetId && SCRIPT_EVENTS.has(e.name));
    const spans = own
      ? events.filter((e) => e.ph === "X" && e.pid === own.pid && e.tid === own.tid && SCRIPT_EVENTS.has(e.name)).map((e) => [e.ts, e.ts + e.dur])
      : [];
    return { scriptMs: metrics.find((m) => m.name === "ScriptDuration").value * 1000, withMicrotasksMs: unionLength(spans) / 1000 };
  } finally {
    off();
    await pipe.send("Target.disposeBrowserContext", { browserContextId });
  }
}

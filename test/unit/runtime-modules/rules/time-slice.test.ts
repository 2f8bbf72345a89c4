/**
 * Time-sliced data-layer processing (issue #22, the load item): a push is
 * processed at once while this task has spent less than SLICE_MS in our
 * processing; a burst beyond it continues in later tasks, in order, never
 * dropping; hidden or unloading, whatever is queued is processed at once.
 * A fake clock: each processed push costs 1 ms.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createDataLayer } from "../../../../runtime-modules/rules/data-layer";
import { createTimeSlice, SLICE_MS } from "../../../../runtime-modules/rules/time-slice";

function page() {
  let clock = 0;
  const tasks: Array<() => void> = [];
  const listeners: Record<string, Array<() => void>> = {};
  const doc = { visibilityState: "visible", addEventListener: (type: string, fn: () => void) => void (listeners[type] ||= []).push(fn) };
  const win: Record<string, unknown> = {
    kiwiDataLayer: [],
    document: doc,
    performance: { now: () => clock },
    scheduler: { yield: () => ({ then: (fn: () => void) => void tasks.push(fn) }) },
    addEventListener: (type: string, fn: () => void) => void (listeners[type] ||= []).push(fn),
  };
  const log = { enabled: false, debug() {}, info() {}, warn() {}, error() {} };
  const dl = createDataLayer(win, "kiwiDataLayer", log, { emit() {} });
  const seen: number[] = [];
  dl.on((push) => {
    clock += 1;
    seen.push(push.n as number);
  });
  dl.start();
  const push = (n: number) => (win.kiwiDataLayer as unknown[]).push({ event: "e", n });
  /** Ends the current task (its microtasks run) and runs the next scheduled one. */
  const nextTask = async () => {
    await Promise.resolve();
    await Promise.resolve();
    const t = tasks.shift();
    t?.();
    return !!t;
  };
  const fire = (type: string) => (listeners[type] || []).forEach((f) => f());
  return { win, doc, dl, seen, push, tasks, nextTask, fire };
}

describe("time-sliced data-layer processing (issue #22: no long task from a burst of pushes)", () => {
  it("a single push is processed at once, as before (a push right before a navigation is not delayed)", () => {
    const p = page();
    p.push(1);
    expect(p.seen).toEqual([1]);
    expect(p.tasks).toHaveLength(0);
  });

  it("a burst beyond the budget: the first SLICE_MS ms of pushes are processed in the page's task, the rest in later tasks, each within the budget, in order, none dropped", async () => {
    const p = page();
    for (let i = 0; i < 100; i++) p.push(i);
    expect(p.seen).toHaveLength(SLICE_MS);
    const perTask: number[] = [];
    let before = p.seen.length;
    while (await p.nextTask()) {
      perTask.push(p.seen.length - before);
      before = p.seen.length;
    }
    expect(p.seen).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(Math.max(...perTask)).toBeLessThanOrEqual(SLICE_MS);
  });

  it("pagehide, or the page becoming hidden: whatever is queued is processed at once", async () => {
    for (const how of ["pagehide", "hidden"] as const) {
      const p = page();
      for (let i = 0; i < 50; i++) p.push(i);
      expect(p.seen.length).toBeLessThan(50);
      if (how === "pagehide") p.fire("pagehide");
      else {
        p.doc.visibilityState = "hidden";
        p.fire("visibilitychange");
      }
      expect(p.seen).toEqual(Array.from({ length: 50 }, (_, i) => i));
    }
  });

  it("a visibilitychange back to visible processes nothing early", () => {
    const p = page();
    for (let i = 0; i < 30; i++) p.push(i);
    p.fire("visibilitychange");
    expect(p.seen).toHaveLength(SLICE_MS);
  });

  it("a long burst of cheap pushes reads the clock a few times per slice, not once per push, and never overruns the share (issue #21)", async () => {
    let clock = 0;
    let reads = 0;
    const tasks: Array<() => void> = [];
    const win: Record<string, unknown> = {
      kiwiDataLayer: [],
      performance: { now: () => (reads++, clock) },
      scheduler: { yield: () => ({ then: (fn: () => void) => void tasks.push(fn) }) },
    };
    const dl = createDataLayer(win, "kiwiDataLayer", { enabled: false, debug() {}, info() {}, warn() {}, error() {} }, { emit() {} });
    let seen = 0;
    dl.on(() => {
      clock += 0.01;
      seen++;
    });
    dl.start();
    const perTask: number[] = [];
    for (let i = 0; i < 5000; i++) (win.kiwiDataLayer as unknown[]).push({ event: "e" });
    perTask.push(seen);
    reads = 0;
    while (tasks.length) {
      await Promise.resolve();
      await Promise.resolve();
      const before = seen;
      const startedAt = clock;
      tasks.shift()!();
      perTask.push(seen - before);
      // As before: the check that lets a push through may leave less than one push's time.
      expect(clock - startedAt).toBeLessThanOrEqual(SLICE_MS + 0.01);
    }
    expect(seen).toBe(5000);
    // The slices after the page's task: about 800 pushes each, read at most once per 32 pushes and a few times near the end.
    expect(reads).toBeLessThan((5000 - perTask[0]) / 16);
  });

  it("a clock too coarse to see a push's time still gets read every 32 pushes", () => {
    let reads = 0;
    const slice = createTimeSlice({ performance: { now: () => (reads++, 0) } });
    slice.begin();
    reads = 0;
    for (let i = 0; i < 320; i++) expect(slice.spent()).toBe(false);
    expect(reads).toBe(10);
    slice.end();
  });

  it("the rest goes to scheduler.yield()'s continuation where the browser has it (no gap between slices, issue #21), else a MessageChannel message, else setTimeout 0", async () => {
    const order: string[] = [];
    const yielded = createTimeSlice({ scheduler: { yield: () => Promise.resolve() }, setTimeout: () => order.push("timeout") });
    yielded.later(() => order.push("yield"));
    await Promise.resolve();
    expect(order).toEqual(["yield"]);
    const channels: Array<{ port1: { onmessage?: () => void } }> = [];
    let posted = 0;
    class Channel {
      port1: { onmessage?: () => void } = {};
      port2 = { postMessage: () => void posted++ };
      constructor() {
        channels.push(this);
      }
    }
    const channel = createTimeSlice({ scheduler: {}, MessageChannel: Channel as unknown as typeof MessageChannel });
    channel.later(() => order.push("message 1"));
    channel.later(() => order.push("message 2"));
    expect([channels.length, posted]).toEqual([1, 2]);
    channels[0].port1.onmessage!();
    channels[0].port1.onmessage!();
    expect(order).toEqual(["yield", "message 1", "message 2"]);
    const timers: Array<() => void> = [];
    createTimeSlice({ setTimeout: (fn: () => void) => void timers.push(fn) }).later(() => order.push("timeout"));
    expect(timers).toHaveLength(1);
    timers[0]();
    expect(order).toEqual(["yield", "message 1", "message 2", "timeout"]);
  });

  it("property: any interleaving of bursts and task ends processes every push once, in push order, never more than the budget per task", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 8 }), async (bursts) => {
        const p = page();
        let n = 0;
        for (const size of bursts) {
          const before = p.seen.length;
          for (let i = 0; i < size; i++) p.push(n++);
          expect(p.seen.length - before).toBeLessThanOrEqual(SLICE_MS);
          await p.nextTask();
        }
        while (await p.nextTask());
        expect(p.seen).toEqual(Array.from({ length: n }, (_, i) => i));
      }),
      { numRuns: 50 },
    );
  });
});

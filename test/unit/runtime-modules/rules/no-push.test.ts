/**
 * The noPush event source (issue #19): "track stage 1000, loading 4000,
 * failover 4000" and "failover 1500-9000 ms (default 5000)" (spec section 9)
 * as the waits for an awaited data-layer push. With a fake clock, a fake
 * engine and a fake data layer: the wait runs from the rules' start, or from
 * the last push of `after`; a push of `event` ends it; it fires once per wait.
 * Chromium: test/browser/timing-waits.test.ts.
 */
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RuleEvent } from "../../../../generator/config/bundle-config.js";
import { RuleEventSchema } from "../../../../generator/config/schemas/rules.js";
import { eventKey, type RuleEngine } from "../../../../runtime-modules/rules/engine";
import { noPush, type EventSources } from "../../../../runtime-modules/rules/events";

const TIMING = { failover: 5000, failoverTrack: 4000, trackStage: 1000, loading: 4000 };

function setup(events: Array<Record<string, unknown>>, timing = TIMING) {
  const parsed = events.map((e) => RuleEventSchema.parse({ type: "noPush", ...e }) as RuleEvent);
  const fired: Array<[number, string | undefined]> = [];
  const listeners: Array<(push: Record<string, unknown>, event: string | undefined) => void> = [];
  const engine = {
    listens: (type: string) => parsed.filter((e) => e.type === type),
    fire: (type: string, detail?: { key?: string }) => void fired.push([Date.now(), type + ":" + detail?.key]),
  } as unknown as RuleEngine;
  const src = {
    win: { setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms), clearTimeout: (t: number) => clearTimeout(t) },
    dataLayer: { on: (fn: (typeof listeners)[number]) => listeners.push(fn) },
    timing,
    log: { error: () => undefined },
  } as unknown as EventSources;
  noPush(engine, src);
  const push = (event?: string) => listeners.forEach((fn) => fn({ event }, event));
  return { fired, push, keys: parsed.map((e) => "noPush:" + eventKey(e)) };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('noPush: "failover 1500-9000 ms (default 5000)", "track stage 1000, loading 4000, failover 4000" (spec section 9) as the wait for an awaited push', () => {
  it("the schema takes only the four named waits", () => {
    for (const wait of ["failover", "failoverTrack", "trackStage", "loading"])
      expect(RuleEventSchema.safeParse({ type: "noPush", event: "x", wait }).success).toBe(true);
    for (const wait of ["pageLoad", "ruleTimeout", 5000, undefined])
      expect(RuleEventSchema.safeParse({ type: "noPush", event: "x", wait }).success).toBe(false);
    expect(RuleEventSchema.safeParse({ type: "noPush", wait: "loading" }).success).toBe(false);
  });
  it("failover: the awaited push not there failover ms after the rules start: fires once, at failover; with the push before it, never", () => {
    const late = setup([{ event: "page-view", wait: "failover" }]);
    vi.advanceTimersByTime(20000);
    expect(late.fired).toEqual([[5000, late.keys[0]]]);

    const on = setup([{ event: "page-view", wait: "failover" }]);
    vi.advanceTimersByTime(4999);
    on.push("page-view");
    vi.advanceTimersByTime(20000);
    expect(on.fired).toEqual([]);
  });
  it("the wait is the timing value the event names: the same page with failover 1500", () => {
    const t = setup([{ event: "page-view", wait: "failover" }], { ...TIMING, failover: 1500 });
    vi.advanceTimersByTime(20000);
    expect(t.fired).toEqual([[1500, t.keys[0]]]);
  });
  it("loading: each push of `after` starts the wait again; a page state still loading `loading` ms after the last push fires (after and event the same push name)", () => {
    const t = setup([{ event: "bi-report", after: "bi-report", wait: "loading" }]);
    vi.advanceTimersByTime(10000);
    expect(t.fired).toEqual([]); // no wait before the first push of `after`
    t.push("bi-report"); // at 10000
    vi.advanceTimersByTime(3000);
    t.push("bi-report"); // at 13000: again from here
    vi.advanceTimersByTime(3999);
    expect(t.fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(t.fired).toEqual([[17000, t.keys[0]]]);
  });
  it("trackStage and failoverTrack: waits of their own, side by side, each ended only by its own event", () => {
    const t = setup([
      { event: "stage-done", after: "stage", wait: "trackStage" },
      { event: "order-result", after: "order-submit", wait: "failoverTrack" },
    ]);
    t.push("stage");
    t.push("order-submit");
    t.push("other");
    vi.advanceTimersByTime(10000);
    expect(t.fired).toEqual([
      [1000, t.keys[0]],
      [4000, t.keys[1]],
    ]);
  });
  it("property: for any pushes at any times, it fires exactly where a model says (a wait from the start or from each `after`, ended by `event`)", () => {
    const name = fc.constantFrom("a", "b", "x");
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 3000 }), name), { maxLength: 12 }), fc.boolean(), (steps, fromStart) => {
        vi.useFakeTimers({ now: 0 });
        const wait = TIMING.trackStage;
        const t = setup([{ event: "b", ...(fromStart ? {} : { after: "a" }), wait: "trackStage" }]);
        // The model: a pending deadline, or none.
        const expected: number[] = [];
        let deadline: number | undefined = fromStart ? wait : undefined;
        let now = 0;
        for (const [gap, event] of steps) {
          if (deadline !== undefined && now + gap >= deadline) {
            expected.push(deadline);
            deadline = undefined;
          }
          vi.advanceTimersByTime(gap);
          now += gap;
          t.push(event);
          if (event === "b") deadline = undefined;
          if (!fromStart && event === "a") deadline = now + wait;
        }
        if (deadline !== undefined) expected.push(deadline);
        vi.advanceTimersByTime(wait + 1);
        expect(t.fired.map(([at]) => at)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});

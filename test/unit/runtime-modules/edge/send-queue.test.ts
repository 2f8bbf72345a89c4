/**
 * The Edge client's bounded send queue (issue #22, the load item): at most
 * MAX_IN_FLIGHT requests in flight, the rest in order as answers come back;
 * unloading, the queued remainder goes at once.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSendQueue, MAX_IN_FLIGHT } from "../../../../runtime-modules/edge/send-queue";

function tasks(count: number) {
  const started: number[] = [];
  const answers: Array<() => void> = [];
  const make = (i: number) => () => {
    started.push(i);
    return new Promise<void>((resolve, reject) => answers.push(i % 5 === 4 ? reject : resolve));
  };
  return { started, answers, list: Array.from({ length: count }, (_, i) => make(i)) };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe("the bounded send queue", () => {
  it("HTTP/1.1's 6 per host: at most 6 in flight, the rest start in order as answers (or failures) come back", async () => {
    expect(MAX_IN_FLIGHT).toBe(6);
    const t = tasks(20);
    const q = createSendQueue(() => false);
    t.list.forEach((task) => q.run(task));
    expect(t.started).toEqual([0, 1, 2, 3, 4, 5]);
    t.answers[0]();
    t.answers[4]();
    await tick();
    expect(t.started).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (let i = 1; i < 20; i++) {
      t.answers[i]?.();
      await tick();
    }
    expect(t.started).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it("unloading: flush starts every queued task at once, once; later tasks go at once too", async () => {
    let leaving = false;
    const t = tasks(10);
    const q = createSendQueue(() => leaving);
    t.list.slice(0, 9).forEach((task) => q.run(task));
    leaving = true;
    q.flush();
    expect(t.started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    q.run(t.list[9]);
    expect(t.started).toHaveLength(10);
    t.answers.forEach((a) => a());
    await tick();
    expect(t.started).toHaveLength(10);
  });

  it("a task that throws frees its place", () => {
    const q = createSendQueue(() => false, 1);
    const ran: string[] = [];
    q.run(() => {
      ran.push("a");
      throw new Error("x");
    });
    q.run(() => (ran.push("b"), Promise.resolve()));
    expect(ran).toEqual(["a", "b"]);
  });

  it("property: whatever the order answers come back in, every task starts exactly once, in order, never more than the limit in flight", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 8 }), fc.array(fc.nat(), { maxLength: 60 }), async (count, limit, picks) => {
        let inFlight = 0;
        let most = 0;
        const started: number[] = [];
        const open: Array<() => void> = [];
        const q = createSendQueue(() => false, limit);
        for (let i = 0; i < count; i++)
          q.run(() => {
            started.push(i);
            most = Math.max(most, ++inFlight);
            return new Promise<void>((resolve) => open.push(() => (inFlight--, resolve())));
          });
        for (const pick of picks) {
          if (!open.length) break;
          open.splice(pick % open.length, 1)[0]();
          await tick();
        }
        while (open.length) {
          open.shift()!();
          await tick();
        }
        expect(started).toEqual(Array.from({ length: count }, (_, i) => i));
        expect(most).toBeLessThanOrEqual(limit);
      }),
      { numRuns: 40 },
    );
  });
});

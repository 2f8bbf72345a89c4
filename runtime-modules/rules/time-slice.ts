/** Milliseconds of our processing per task before the rest waits for a later task (well under the 50 ms of a long task). */
export const SLICE_MS = 8;

interface SchedulerWindow {
  performance?: { now(): number };
  scheduler?: { yield?(): PromiseLike<unknown> };
  MessageChannel?: typeof MessageChannel;
  setTimeout?(fn: () => void, ms: number): unknown;
}

export interface TimeSlice {
  /** Whether this task has had its share of our processing: the rest goes later. */
  spent(): boolean;
  /** A piece of our work starts: its time counts against this task's share until end(). */
  begin(): void;
  end(): void;
  /**
   * Runs fn in a later task: scheduler.yield()'s continuation (input and rendering go first, the page's other tasks
   * after: issue #21, no gap between slices), else a MessageChannel message, else setTimeout 0.
   */
  later(fn: () => void): void;
}

/**
 * Time slicing of our own work: each task may spend `budget` ms in it,
 * counted between begin() and end(); the share starts afresh in the next
 * task (a microtask after the first piece marks the task's end). Without
 * performance.now (a bare fake window) nothing is ever spent: all work is
 * synchronous.
 */
export function createTimeSlice(win: SchedulerWindow, budget = SLICE_MS): TimeSlice {
  const perf = win.performance;
  let used = 0;
  let since = -1;
  /** In a piece: the spent() calls so far (one per piece of work done), and how many more answer "no" without the clock. */
  let calls = 0;
  let skip = 0;
  let open = false;
  let channel: MessageChannel | undefined;
  const waiting: Array<() => void> = [];
  return {
    spent() {
      if (!perf) return false;
      // The clock is read once the work done so far says half the time left could be gone: with work of even cost
      // the share is never overrun, and a long burst reads the clock a few times per slice, not once per push.
      if (since >= 0) {
        calls++;
        if (skip > 0) {
          skip--;
          return false;
        }
      }
      const ran = since < 0 ? 0 : perf.now() - since;
      const t = used + ran;
      // At most 31 unchecked (a clock too coarse to see one push's time says 0 ms).
      if (since >= 0 && t < budget) skip = Math.min(31, ((budget - t) * calls) / ran / 2) | 0;
      // No navigator.scheduling.isInputPending(): it cost more than the clock (issue #21), and input waits for one slice at most.
      return t >= budget;
    },
    begin() {
      if (!perf) return;
      calls = skip = 0;
      since = perf.now();
      if (!open) {
        open = true;
        // The end of this task: its microtasks run before the next task starts.
        Promise.resolve().then(() => {
          open = false;
          used = 0;
        });
      }
    },
    end() {
      if (perf && since >= 0) used += perf.now() - since;
      since = -1;
      skip = 0;
    },
    later(fn) {
      const s = win.scheduler;
      if (s && typeof s.yield === "function") return void s.yield().then(fn);
      if (win.MessageChannel) {
        if (!channel) {
          channel = new win.MessageChannel();
          channel.port1.onmessage = () => waiting.shift()!();
        }
        waiting.push(fn);
        return channel.port2.postMessage(0);
      }
      win.setTimeout!(fn, 0);
    },
  };
}

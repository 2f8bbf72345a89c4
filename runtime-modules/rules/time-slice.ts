/** Milliseconds of our processing per task before the rest waits for a later task (well under the 50 ms of a long task). */
export const SLICE_MS = 8;

interface SchedulerWindow {
  performance?: { now(): number };
  scheduler?: { postTask?(fn: () => void, options?: { priority?: string }): unknown };
  navigator?: { scheduling?: { isInputPending?(): boolean } };
  MessageChannel?: typeof MessageChannel;
  setTimeout?(fn: () => void, ms: number): unknown;
}

export interface TimeSlice {
  /** Whether this task has had its share of our processing (or, past 1 ms, input is waiting): the rest goes later. */
  spent(): boolean;
  /** A piece of our work starts: its time counts against this task's share until end(). */
  begin(): void;
  end(): void;
  /** Runs fn in a later task: scheduler.postTask, else a MessageChannel message, else setTimeout 0. */
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
  let open = false;
  let channel: MessageChannel | undefined;
  const waiting: Array<() => void> = [];
  return {
    spent() {
      if (!perf) return false;
      const t = used + (since < 0 ? 0 : perf.now() - since);
      const s = win.navigator && win.navigator.scheduling;
      return t >= budget || (t > 1 && !!s && typeof s.isInputPending === "function" && s.isInputPending());
    },
    begin() {
      if (!perf) return;
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
    },
    later(fn) {
      const s = win.scheduler;
      if (s && typeof s.postTask === "function") return void s.postTask(fn, { priority: "user-visible" });
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

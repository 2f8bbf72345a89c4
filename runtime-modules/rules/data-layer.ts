import type { Logger, Monitor } from "../core/types";
import { DATA_LAYER_INVALID_PUSH, DATA_LAYER_LISTENER_FAILED } from "../core/messages";
import { errorText } from "../core/log";
import { isObject } from "../core/is-object";
import { mergeInto } from "../core/merge";
import { createTimeSlice } from "./time-slice";

export type Push = Record<string, unknown>;

/** The global array keeps this many processed pushes; the computed state keeps everything. */
export const KEEP_PUSHES = 100;
export type PushListener = (push: Push, event: string | undefined) => void;
/** Checks a push against its documented shape (non-production bundles only). */
export type PushValidator = (push: Push, log: Logger) => void;

export interface DataLayer {
  /** The computed state: the deep merge of every push's data (all keys but `event`). */
  state(): Record<string, unknown>;
  /** A dotted path into the computed state. */
  get(path: string): unknown;
  on(listener: PushListener): void;
  /** Processes the pushes made before the bundle loaded, in order, then every later push as it comes. */
  start(): void;
  push(item: Push): void;
}

/** Each path's parts, split once (issue #21): bounded, since every path read is a data element's or the runtime's own, never the page's. Only a list counts as cached: a path "constructor" or "__proto__" is a path. */
const parts: Record<string, string[]> = {};

/** Reads a dotted path ("search.term", "items.0.id") from an object. */
export function readPath(root: unknown, path: string): unknown {
  let value = root;
  const cached = parts[path];
  for (const part of Array.isArray(cached) ? cached : (parts[path] = path.split("."))) {
    if (value === null || value === undefined) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Holds a shared snapshot of document.cookie (boot's cookie jar) and of the page's address while a slice of pushes is processed; returns its release. */
export type HoldCookies = () => () => void;

/**
 * The data layer: one global array (its name is an org-wide setting) that
 * applications push to before or after the bundle loads. Queue semantics: a
 * push made while another is processed waits its turn. Time-sliced: a push
 * is processed at once while this task has spent less than SLICE_MS in our
 * processing (a single push before a navigation behaves as it always did); a
 * burst beyond it only queues (the page's push stays cheap) and is processed
 * in later tasks, in order, never dropped. When the page is hidden or
 * unloaded, whatever is queued is processed at once.
 */
export function createDataLayer(
  win: Record<string, unknown>,
  name: string,
  log: Logger,
  monitor: Monitor,
  validate?: PushValidator,
  holdCookies?: HoldCookies,
): DataLayer {
  let array = win[name] as unknown[];
  if (!Array.isArray(array)) win[name] = array = [];
  const state: Record<string, unknown> = {};
  const listeners: PushListener[] = [];
  let queue: unknown[] = [];
  let started = false;
  let busy = false;

  function process(item: unknown): void {
    if (!isObject(item)) {
      log.warn(DATA_LAYER_INVALID_PUSH, { push: item });
      return;
    }
    let event: string | undefined;
    try {
      if (validate) validate(item, log);
      event = typeof item.event === "string" ? item.event : undefined;
      // All keys but `event`, merged without a copy of the push (issue #21).
      mergeInto(state, item, [], "event");
    } catch (e) {
      // A push whose data cannot be read (a throwing getter): skipped, the pushes after it go on.
      log.warn(DATA_LAYER_INVALID_PUSH, { push: errorText(e) });
      return;
    }
    // Its detail built only for a listener (no garbage per push otherwise).
    if (!monitor.on || monitor.on()) monitor.emit("dataLayer", { event, push: item });
    for (const listener of listeners) {
      try {
        listener(item, event);
      } catch (e) {
        log.error(DATA_LAYER_LISTENER_FAILED, errorText(e));
      }
    }
  }

  const slice = createTimeSlice(win);
  let scheduled = false;

  /** Processes the queue in order; sliced unless `all` (the page is going away, or the pushes made before the bundle). */
  function drain(all?: boolean): void {
    if (busy || !started) return;
    if (!all && slice.spent()) return schedule();
    busy = true;
    // By index, not shift(): shifting a long queue (100,000 pushes made before the bundle) moves it all each time.
    let i = 0;
    // One snapshot of document.cookie for the whole slice (boot's jar): a record reads it several times; the address is read once too.
    const release = holdCookies && holdCookies();
    slice.begin();
    try {
      while (i < queue.length && (all || !i || !slice.spent())) process(queue[i++]);
      // A long-lived page must not grow without bound.
      if (array.length > KEEP_PUSHES) array.splice(0, array.length - KEEP_PUSHES);
    } finally {
      slice.end();
      queue.splice(0, i);
      busy = false;
      if (release) release();
    }
    if (queue.length) schedule();
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    slice.later(() => {
      scheduled = false;
      drain();
    });
  }

  // Pushes made before the bundle loaded; later ones are queued by the push wrapper.
  const preloaded = array.slice();
  const nativePush = array.push;
  array.push = function (...items: unknown[]): number {
    const length = nativePush.apply(array, items);
    try {
      queue.push(...items);
      drain();
    } catch (e) {
      log.error(DATA_LAYER_LISTENER_FAILED, errorText(e));
    }
    return length;
  };

  return {
    state: () => state,
    get: (path) => readPath(state, path),
    on: (listener) => void listeners.push(listener),
    start() {
      if (started) return;
      started = true;
      queue = preloaded.concat(queue);
      // Before the library-loaded rules, as always: every push made before the bundle, at once.
      drain(true);
      // Hidden or unloading: whatever is queued is processed now, so that nothing is lost.
      const doc = win.document as Document | undefined;
      const flush = () => {
        if (doc && doc.visibilityState === "hidden") drain(true);
      };
      const add = (target: unknown, type: string, fn: () => void) => {
        const t = target as { addEventListener?: (type: string, fn: () => void, capture: boolean) => void } | undefined;
        if (t && typeof t.addEventListener === "function") t.addEventListener(type, fn, true);
      };
      add(win, "pagehide", () => drain(true));
      add(doc, "visibilitychange", flush);
    },
    push: (item) => void array.push(item),
  };
}

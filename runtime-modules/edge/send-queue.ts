/** Requests in flight at once: HTTP/1.1's 6 connections per host. */
export const MAX_IN_FLIGHT = 6;

/** One attempt: settles when its answer has been handled (a beacon at once). */
export type SendTask = () => Promise<unknown>;

export interface SendQueue {
  /** Runs the task when fewer than the limit are in flight, else after those before it, in order. */
  run(task: SendTask): void;
  /** Runs every queued task now (the page is unloading: by beacon, once). */
  flush(): void;
}

/**
 * A bounded send queue: at most `limit` requests in flight, the rest wait in
 * order and go as answers come back. While `unbounded()` (the page is
 * unloading) tasks go at once. Each queued task holds only its request (URL
 * parts and the serialised body).
 */
export function createSendQueue(unbounded: () => boolean, limit = MAX_IN_FLIGHT): SendQueue {
  let active = 0;
  let head = 0;
  let queue: Array<SendTask | undefined> = [];
  function go(task: SendTask): void {
    active++;
    // A promise settles once: free runs once.
    const free = () => {
      active--;
      pump();
    };
    try {
      task().then(free, free);
    } catch (e) {
      free();
    }
  }
  function pump(all?: boolean): void {
    while (head < queue.length && (all || active < limit)) {
      const task = queue[head]!;
      queue[head++] = undefined;
      go(task);
    }
    // By index, not shift() (a burst queues thousands); the array is dropped once drained.
    if (head >= queue.length) {
      queue = [];
      head = 0;
    }
  }
  return {
    run(task) {
      queue.push(task);
      pump(unbounded());
    },
    flush: () => pump(true),
  };
}

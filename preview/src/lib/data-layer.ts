/**
 * The data layer as the runtime processed it: its `dataLayer` monitor
 * events (`event`, absent for a data-only push, and `push`), and the
 * computed state (docs/rules.md: the deep merge of every push's data, every
 * key but `event`; lists replace).
 */
import { deepMerge, isObject, type Obj } from "./json";
import type { Entry } from "./protocol";

export interface Push {
  page: number;
  at: number;
  t?: number;
  event?: string;
  push: unknown;
}

export function pushesOf(entries: readonly Entry[], page?: number): Push[] {
  const out: Push[] = [];
  for (const e of entries)
    if (e.kind === "monitor" && e.event.type === "dataLayer" && (page === undefined || e.page === page))
      out.push({ page: e.page, at: e.at, t: e.event.t, event: typeof e.event.event === "string" ? e.event.event : undefined, push: e.event.push });
  return out;
}

/** The computed state after these pushes. */
export function computedState(pushes: readonly Pick<Push, "push">[]): Obj {
  let state: Obj = {};
  for (const p of pushes) {
    if (!isObject(p.push)) continue;
    const { event: _event, ...data } = p.push;
    state = deepMerge(state, data);
  }
  return state;
}

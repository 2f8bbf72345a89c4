import type { ConsentCategory } from "../../generator/config/bundle-config.js";
import type { ConsentState } from "./state";
import { CATEGORIES } from "./categories";
import { categoryAllowed } from "./state";
import { onDomReady } from "../core/dom-ready";

/** Page milestones tags are loaded at, in page order. */
export type Lifecycle = "pageTop" | "domReady" | "windowLoaded";

/**
 * "Tags load after the consent banner closes, at page top, DOM ready and
 * window loaded": the four moments the loader runs. "consent" stands for any
 * consent change (banner closed, groups updated).
 */
export type LifecycleEvent = "consent" | "page-top" | "dom-ready" | "window-loaded";

export interface TagSlot {
  category: ConsentCategory;
  lifecycle: Lifecycle;
}

export interface SchedulerState {
  consent: ConsentState;
  /** Milestones the page has reached. */
  reached: Lifecycle[];
  /** Slots already run on this page, as slotKey(). */
  ran: string[];
}

/** The milestones in page order. */
export const LIFECYCLES: readonly Lifecycle[] = ["pageTop", "domReady", "windowLoaded"];
const EVENT_LIFECYCLE = { "page-top": "pageTop", "dom-ready": "domReady", "window-loaded": "windowLoaded" } as const;

export function slotKey(slot: TagSlot): string {
  return slot.category + "@" + slot.lifecycle;
}

/**
 * The first milestone a category loads at: "Performance tags ... at page
 * top; functional and program tags ... and marketing tags ... at DOM ready."
 */
export function earliestLifecycle(category: ConsentCategory): Lifecycle {
  return category === "performance" ? "pageTop" : "domReady";
}

/** Runs load at its category's earliest milestone: a performance tag at once, any other at DOM ready. */
export function atEarliestLifecycle(doc: Pick<Document, "readyState" | "addEventListener">, category: ConsentCategory, load: () => void): void {
  if (earliestLifecycle(category) === "pageTop") load();
  else onDomReady(doc, load);
}

/** A tag's slot: its requested milestone, never earlier than its category's. */
export function tagSlot(category: ConsentCategory, requested?: Lifecycle): TagSlot {
  const earliest = earliestLifecycle(category);
  const lifecycle = requested && LIFECYCLES.indexOf(requested) > LIFECYCLES.indexOf(earliest) ? requested : earliest;
  return { category, lifecycle };
}

export function isLifecycleEvent(value: unknown): value is LifecycleEvent {
  return value === "consent" || value === "page-top" || value === "dom-ready" || value === "window-loaded";
}

export function initialSchedulerState(consent: ConsentState): SchedulerState {
  return { consent, reached: [], ran: [] };
}

/**
 * Which (category, lifecycle) slots are due now, and the state after running
 * them. A slot is due when its milestone has been reached, its category has
 * consent and it has not run yet; "each category and lifecycle pair once per
 * page". Consent given late makes every reached slot of that category due at
 * the "consent" event, once. Milestones are reached in page order: a later
 * one implies the earlier ones. An unknown event changes nothing ("Load-tags
 * needs consent type and lifecycle event").
 */
export function dueTags(state: SchedulerState, event: unknown): { due: TagSlot[]; next: SchedulerState } {
  if (!isLifecycleEvent(event)) return { due: [], next: state };
  let reached = state.reached;
  if (event !== "consent") {
    const upTo = LIFECYCLES.indexOf(EVENT_LIFECYCLE[event]);
    reached = LIFECYCLES.filter((l, i) => i <= upTo || state.reached.indexOf(l) >= 0);
  }
  const due: TagSlot[] = [];
  for (const lifecycle of LIFECYCLES) {
    if (reached.indexOf(lifecycle) < 0) continue;
    for (const category of CATEGORIES) {
      const slot = { category, lifecycle };
      if (LIFECYCLES.indexOf(lifecycle) < LIFECYCLES.indexOf(earliestLifecycle(category))) continue;
      if (state.ran.indexOf(slotKey(slot)) >= 0 || !categoryAllowed(state.consent, category)) continue;
      due.push(slot);
    }
  }
  return { due, next: { consent: state.consent, reached, ran: state.ran.concat(due.map(slotKey)) } };
}

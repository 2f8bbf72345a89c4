import type { Timing } from "../../generator/config/bundle-config.js";
import type { ConsentGate, Logger } from "../core/types";
import { connectTagLifecycle } from "./tag-lifecycle";
import { onDomReady } from "../core/dom-ready";
import { errorText } from "../core/log";
import { RULE_ACTION_FAILED } from "../core/messages";
import type { DataLayer } from "./data-layer";
import { eventKey, type RuleEngine, type TriggerDetail } from "./engine";

export interface EventSources {
  win: Window;
  doc: Document;
  dataLayer: DataLayer;
  timing: Pick<Timing, "routeChange" | "elementWait" | "elementPoll" | "pageLoad" | "failover" | "failoverTrack" | "trackStage" | "loading">;
  log: Logger;
  /** Called on every SPA route change, before the routeChange rules run. */
  onRoute(): void;
  consent: ConsentGate;
  /** The event sources the bundle carries (the generated entry's table; see EventTable). */
  table: EventTable;
}

/** The event types that need a listener of their own (the others are the data layer's, direct calls' and the library's). */
export type SourcedEvent = "domReady" | "windowLoaded" | "click" | "routeChange" | "elementExists" | "timer" | "noPush";

/**
 * The event sources a bundle carries, by event type: the generated core entry
 * imports from this file only the sources its rules listen to (each exported
 * under its event type's name), so the listener of an event no rule of the
 * bundle uses is not in the bundle (generator/bundle/features.ts).
 * allRuleFeatures() (features.ts) has them all.
 */
export type EventTable = { [K in SourcedEvent]?: (engine: RuleEngine, src: EventSources) => void };

/** fn, its exceptions logged (RULE_ACTION_FAILED) instead of thrown. */
function guarded(src: EventSources, fn: () => void): () => void {
  return () => {
    try {
      fn();
    } catch (e) {
      src.log.error(RULE_ACTION_FAILED, errorText(e));
    }
  };
}

export function domReady(engine: RuleEngine, src: EventSources): void {
  onDomReady(
    src.doc,
    guarded(src, () => engine.fire("domReady")),
  );
}

/** At the load event, or timing.pageLoad after the rules start when the load has not come by then (a hanging image), once. */
export function windowLoaded(engine: RuleEngine, src: EventSources): void {
  let fired = 0;
  const fire = guarded(src, () => fired++ || engine.fire("windowLoaded"));
  if (src.doc.readyState === "complete") src.win.setTimeout(fire, 0);
  else {
    src.win.addEventListener("load", fire, { once: true });
    src.win.setTimeout(fire, src.timing.pageLoad);
  }
}

export function click(engine: RuleEngine, src: EventSources): void {
  const selectors = engine.listens("click").map((e) => eventKey(e)!);
  // One delegated listener, in the capture phase so a page's stopPropagation cannot hide clicks.
  src.doc.addEventListener(
    "click",
    (event) => {
      const target = event.target as Element | null;
      if (!target || typeof target.closest !== "function") return;
      for (const selector of selectors) {
        let element: Element | null = null;
        try {
          element = target.closest(selector);
        } catch (e) {
          src.log.error(RULE_ACTION_FAILED, errorText(e));
        }
        if (element) engine.fire("click", { key: selector, element });
      }
    },
    true,
  );
}

export function routeChange(engine: RuleEngine, src: EventSources): void {
  const { win } = src;
  let last = win.location.href;
  let timer: number | undefined;
  const changed = () => {
    if (timer !== undefined) win.clearTimeout(timer);
    timer = win.setTimeout(
      guarded(src, () => {
        if (win.location.href === last) return;
        last = win.location.href;
        src.onRoute();
        engine.fire("routeChange");
      }),
      src.timing.routeChange,
    );
  };
  for (const method of ["pushState", "replaceState"] as const) {
    const original = win.history[method];
    win.history[method] = function (this: History, ...args: Parameters<History["pushState"]>) {
      const result = original.apply(this, args);
      changed();
      return result;
    };
  }
  win.addEventListener("popstate", changed);
  win.addEventListener("hashchange", changed);
}

export function elementExists(engine: RuleEngine, src: EventSources): void {
  for (const event of engine.listens("elementExists")) {
    if (event.type !== "elementExists") continue;
    let waited = 0;
    const poll = guarded(src, () => {
      const element = src.doc.querySelector(event.selector);
      if (element) engine.fire("elementExists", { key: event.selector, element });
      else if ((waited += src.timing.elementPoll) <= src.timing.elementWait) src.win.setTimeout(poll, src.timing.elementPoll);
    });
    onDomReady(src.doc, poll);
  }
}

export function timer(engine: RuleEngine, src: EventSources): void {
  const { win } = src;
  for (const event of engine.listens("timer")) {
    if (event.type !== "timer") continue;
    const key = eventKey(event);
    if (event.interval !== undefined) {
      let count = 0;
      const handle = win.setInterval(
        guarded(src, () => {
          engine.fire("timer", { key });
          if (event.limit !== undefined && ++count >= event.limit) win.clearInterval(handle);
        }),
        event.interval,
      );
    } else
      win.setTimeout(
        guarded(src, () => engine.fire("timer", { key })),
        event.delay ?? 0,
      );
  }
}

/**
 * An awaited push that did not come (issue #19): each noPush event waits its
 * timing value (failover, failoverTrack, trackStage or loading) from the
 * rules' start, or from every push of its `after` event (again from the last
 * one), and fires once that wait has passed with no push of its `event`; a
 * push of `event` ends the wait.
 */
export function noPush(engine: RuleEngine, src: EventSources): void {
  const { win } = src;
  for (const event of engine.listens("noPush")) {
    if (event.type !== "noPush") continue;
    const key = eventKey(event);
    let timer: number | undefined;
    const stop = () => {
      if (timer !== undefined) win.clearTimeout(timer);
      timer = undefined;
    };
    const start = () => {
      stop();
      timer = win.setTimeout(
        guarded(src, () => {
          timer = undefined;
          engine.fire("noPush", { key });
        }),
        src.timing[event.wait],
      );
    };
    src.dataLayer.on((_, name) => {
      if (name === event.event) stop();
      if (name === event.after) start();
    });
    if (!event.after) start();
  }
}

/**
 * Connects the page to the engine: one listener per kind of event the rules
 * use, nothing for kinds no rule uses (and no code for them: see EventTable).
 * Returns `track(name, detail)` for direct calls. libraryLoaded fires at once.
 */
export function connectEvents(engine: RuleEngine, src: EventSources): (name: string, detail?: unknown) => void {
  const { doc, win } = src;
  // One detail for every push, read as its firing starts (issue #21: none made per push); the push not kept after.
  const pushed: TriggerDetail = {};
  src.dataLayer.on((push, event) => {
    pushed.key = event;
    pushed.data = push;
    engine.fire(event === undefined ? "dataOnly" : "dataLayerPush", pushed);
    pushed.data = undefined;
  });

  // In the table's order (the schema's: domReady, windowLoaded, click, routeChange, elementExists, timer, noPush).
  for (const type of Object.keys(src.table) as SourcedEvent[]) if (engine.listens(type).length) src.table[type]!(engine, src);

  connectTagLifecycle(engine, { doc, win, consent: src.consent, dataLayer: src.dataLayer, log: src.log });
  // Pushes made before the bundle loaded, in order, then the library-loaded rules.
  src.dataLayer.start();
  engine.fire("libraryLoaded");
  return (name, detail) => engine.fire("directCall", { key: name, data: detail });
}

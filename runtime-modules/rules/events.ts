import type { Timing } from "../../generator/config/bundle-config.js";
import type { ConsentGate, Logger } from "../core/types";
import { connectTagLifecycle } from "./tag-lifecycle";
import { onDomReady } from "../core/dom-ready";
import { errorText } from "../core/log";
import { RULE_ACTION_FAILED } from "../core/messages";
import type { DataLayer } from "./data-layer";
import { eventKey, type RuleEngine } from "./engine";

export interface EventSources {
  win: Window;
  doc: Document;
  dataLayer: DataLayer;
  timing: Pick<Timing, "routeChange" | "elementWait" | "elementPoll">;
  log: Logger;
  /** Called on every SPA route change, before the routeChange rules run. */
  onRoute(): void;
  consent: ConsentGate;
}

/**
 * Connects the page to the engine: one listener per kind of event the rules
 * use, nothing for kinds no rule uses. Returns `track(name, detail)` for
 * direct calls. libraryLoaded fires at once.
 */
export function connectEvents(engine: RuleEngine, src: EventSources): (name: string, detail?: unknown) => void {
  const { win, doc } = src;
  const guard = (fn: () => void) => () => {
    try {
      fn();
    } catch (e) {
      src.log.error(RULE_ACTION_FAILED, errorText(e));
    }
  };

  src.dataLayer.on((push, event) => (event === undefined ? engine.fire("dataOnly", { data: push }) : engine.fire("dataLayerPush", { key: event, data: push })));

  if (engine.listens("domReady").length)
    onDomReady(
      doc,
      guard(() => engine.fire("domReady")),
    );
  if (engine.listens("windowLoaded").length) {
    if (doc.readyState === "complete")
      win.setTimeout(
        guard(() => engine.fire("windowLoaded")),
        0,
      );
    else
      win.addEventListener(
        "load",
        guard(() => engine.fire("windowLoaded")),
        { once: true },
      );
  }

  const clicks = engine.listens("click");
  if (clicks.length) {
    const selectors = clicks.map((e) => eventKey(e)!);
    // One delegated listener, in the capture phase so a page's stopPropagation cannot hide clicks.
    doc.addEventListener(
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

  if (engine.listens("routeChange").length) {
    let last = win.location.href;
    let timer: number | undefined;
    const changed = () => {
      if (timer !== undefined) win.clearTimeout(timer);
      timer = win.setTimeout(
        guard(() => {
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

  for (const event of engine.listens("elementExists")) {
    if (event.type !== "elementExists") continue;
    let waited = 0;
    const poll = guard(() => {
      const element = doc.querySelector(event.selector);
      if (element) engine.fire("elementExists", { key: event.selector, element });
      else if ((waited += src.timing.elementPoll) <= src.timing.elementWait) win.setTimeout(poll, src.timing.elementPoll);
    });
    onDomReady(doc, poll);
  }

  for (const event of engine.listens("timer")) {
    if (event.type !== "timer") continue;
    const key = eventKey(event);
    if (event.interval !== undefined) {
      let count = 0;
      const handle = win.setInterval(
        guard(() => {
          engine.fire("timer", { key });
          if (event.limit !== undefined && ++count >= event.limit) win.clearInterval(handle);
        }),
        event.interval,
      );
    } else
      win.setTimeout(
        guard(() => engine.fire("timer", { key })),
        event.delay ?? 0,
      );
  }

  connectTagLifecycle(engine, { doc, win, consent: src.consent, dataLayer: src.dataLayer, log: src.log });
  // Pushes made before the bundle loaded, in order, then the library-loaded rules.
  src.dataLayer.start();
  engine.fire("libraryLoaded");
  return (name, detail) => engine.fire("directCall", { key: name, data: detail });
}

import type { ConsentCategory } from "../../generator/config/bundle-config.js";
import type { ConsentGate, Logger } from "../core/types";
import { MISSING_CONSENT_TYPE_OR_LIFECYCLE } from "../core/messages";
import { onDomReady } from "../core/dom-ready";
import type { DataLayer } from "./data-layer";
import type { RuleEngine } from "./engine";
import { normalizeCategory } from "../consent/categories";
import { LIFECYCLES as ORDER, type Lifecycle } from "../core/lifecycle";

/**
 * A load-tags push's lifecycleEvent as docs/events.md writes it
 * (consent, page-top, dom-ready, window-loaded; the rule config's pageTop,
 * domReady, windowLoaded too), any case. "consent": as soon as consent allows.
 */
export function pushedLifecycle(value: unknown): Lifecycle | undefined {
  if (typeof value !== "string") return undefined;
  const key = value.replace(/[\s_-]+/g, "").toLowerCase();
  return key === "consent" ? "pageTop" : ORDER.find((l) => l.toLowerCase() === key);
}

/** The (category, lifecycle) pairs due now: reached, granted, not yet run. Pure. */
export function duePairs(
  pairs: Array<[ConsentCategory, Lifecycle]>,
  reached: Lifecycle,
  allows: (c: ConsentCategory) => boolean,
  done: readonly string[],
): string[] {
  const out: string[] = [];
  for (const [category, lifecycle] of pairs) {
    const key = category + ":" + lifecycle;
    if (done.indexOf(key) < 0 && out.indexOf(key) < 0 && ORDER.indexOf(lifecycle) <= ORDER.indexOf(reached) && allows(category)) out.push(key);
  }
  return out;
}

/**
 * "Tags load after the consent banner closes, at page top, DOM ready and
 * window loaded, each category and lifecycle pair once per page." Fires the
 * tagsLoad rules of each pair once, when its lifecycle point has passed and
 * its category is granted; re-checked on every consent change. A data-layer
 * push `{ event: "load-tags", consentType, lifecycleEvent }` asks for a pair
 * ("Load-tags needs consent type and lifecycle event").
 */
export function connectTagLifecycle(engine: RuleEngine, deps: { doc: Document; win: Window; consent: ConsentGate; dataLayer: DataLayer; log: Logger }): void {
  const pairs: Array<[ConsentCategory, Lifecycle]> = [];
  for (const e of engine.listens("tagsLoad")) if (e.type === "tagsLoad") pairs.push([e.category, e.lifecycle]);
  const requested: Array<[ConsentCategory, Lifecycle]> = [];
  const done: string[] = [];
  let reached: Lifecycle = "pageTop";
  const check = () => {
    for (const key of duePairs(pairs.concat(requested), reached, deps.consent.allows, done)) {
      done.push(key);
      engine.fire("tagsLoad", { key });
    }
  };
  deps.dataLayer.on((push, event) => {
    if (event !== "load-tags") return;
    // "Performance, Functional, Marketing, Program-Functional or Program-Marketing (any case)".
    const category = typeof push.consentType === "string" && push.consentType.trim() ? normalizeCategory(push.consentType) : undefined;
    const lifecycle = pushedLifecycle(push.lifecycleEvent);
    if (!category || !lifecycle) {
      deps.log.warn(MISSING_CONSENT_TYPE_OR_LIFECYCLE, { push });
      return;
    }
    requested.push([category, lifecycle]);
    check();
  });
  if (!pairs.length) return;
  deps.consent.onChange(check);
  onDomReady(deps.doc, () => {
    if (ORDER.indexOf(reached) < 1) reached = "domReady";
    check();
  });
  const loaded = () => {
    reached = "windowLoaded";
    check();
  };
  if (deps.doc.readyState === "complete") deps.win.setTimeout(loaded, 0);
  else deps.win.addEventListener("load", loaded, { once: true });
  check();
}

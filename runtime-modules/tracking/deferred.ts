import { linkClickHandler } from "./link-clicks";
import type { DeferredParts } from "./start-tracking";
import { subscribeWebVitals } from "./vitals-source";

/**
 * The deferred file's code (docs/tracking.md, "The deferred file"): what the
 * first page view does not need, loaded after it as a second content-hashed
 * file. The build compiles this one export as the piece "deferred" and wraps
 * it so that it hands itself to the waiting first file (DEFERRED_HOOK).
 */
export function deferredParts(): DeferredParts {
  return { vitals: subscribeWebVitals, links: linkClickHandler };
}

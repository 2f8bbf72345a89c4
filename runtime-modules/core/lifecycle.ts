import type { ConsentCategory } from "../../generator/config/bundle-config.js";
import { onDomReady } from "./dom-ready";

/**
 * Page milestones tags are loaded at, in page order: "Tags load after the
 * consent banner closes, at page top, DOM ready and window loaded" (the
 * tagsLoad rules' pairs: rules/tag-lifecycle.ts).
 */
export type Lifecycle = "pageTop" | "domReady" | "windowLoaded";

/** The milestones in page order. */
export const LIFECYCLES: readonly Lifecycle[] = ["pageTop", "domReady", "windowLoaded"];

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

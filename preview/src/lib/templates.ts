/**
 * Templates for the data-layer editor: the documented event shapes
 * (docs/events.md, generated from runtime-modules/data-layer-events: each
 * event's example push) when that table is in the tree, then pushes the
 * catalogue's rules read (docs/rules.md), so every template is one click
 * from a push.
 */
import { isObject } from "./json";

export interface PushTemplate {
  id: string;
  label: string;
  group: "documented events" | "catalogue rules";
  when?: string;
  push: Record<string, unknown>;
}

/** The pushes the catalogue's own rules listen to (sites/_org.yaml, sites/bigfuture.yaml). */
export const RULE_TEMPLATES: PushTemplate[] = [
  { id: "rule:search", label: "search (org internal-search rule)", group: "catalogue rules", push: { event: "search", search: { term: "sat dates", type: "site" } } },
  { id: "rule:modal", label: "modal (org modal rule)", group: "catalogue rules", push: { event: "modal", modal: { name: "Checklist", state: "shown" } } },
  { id: "rule:error", label: "error (org application-error rule)", group: "catalogue rules", push: { event: "error", error: { code: "bf-ui-failure" } } },
  { id: "rule:list-change", label: "list-change, 6th item (bigfuture list-milestone rule)", group: "catalogue rules", push: { event: "list-change", list: { newTotalItemsInList: 6 } } },
  { id: "rule:data-only", label: "data-only push", group: "catalogue rules", push: { order: { id: "SAT-2026-000123" } } },
];

/** Templates from the event docs module (EVENT_DOCS: name -> { when, example }); [] for anything else. */
export function templatesFromDocs(module: unknown): PushTemplate[] {
  const docs = isObject(module) ? module.EVENT_DOCS : undefined;
  if (!isObject(docs)) return [];
  const out: PushTemplate[] = [];
  for (const [event, doc] of Object.entries(docs)) {
    if (!isObject(doc) || !isObject(doc.example)) continue;
    out.push({ id: `doc:${event}`, label: event, group: "documented events", when: typeof doc.when === "string" ? doc.when : undefined, push: { event, ...doc.example } });
  }
  return out;
}

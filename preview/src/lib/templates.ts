/**
 * Templates for the data-layer editor, all from the runtime's event table
 * (runtime-modules/data-layer-events/event-docs.ts, docs/events.md): each
 * documented event's example push, then, for each rule of the bundle that
 * listens to a data-layer event, that event's example under the rule's
 * name (so the catalogue's rules are one click from a push they hear).
 * Nothing is hand-written: a template is what the bundle's data-layer
 * checks accept.
 */
import type { PreviewConfig } from "./bundle-config";
import { isObject, str } from "./json";

export interface PushTemplate {
  id: string;
  label: string;
  group: "documented events" | "catalogue rules";
  when?: string;
  push: Record<string, unknown>;
}

/** Templates from the event docs module (EVENT_DOCS: name -> { when, example }); [] for anything else. */
export function templatesFromDocs(module: unknown): PushTemplate[] {
  const docs = isObject(module) ? module.EVENT_DOCS : undefined;
  if (!isObject(docs)) return [];
  const out: PushTemplate[] = [];
  for (const [event, doc] of Object.entries(docs)) {
    if (!isObject(doc) || !isObject(doc.example)) continue;
    out.push({
      id: `doc:${event}`,
      label: event,
      group: "documented events",
      when: typeof doc.when === "string" ? doc.when : undefined,
      push: { event, ...doc.example },
    });
  }
  return out;
}

/** For each rule of the bundle listening to a documented data-layer event: that event's example, named after the rule. */
export function ruleTemplates(config: Pick<PreviewConfig, "rules"> | undefined, documented: readonly PushTemplate[]): PushTemplate[] {
  const byEvent = new Map(documented.map((t) => [String(t.push.event), t]));
  const out: PushTemplate[] = [];
  for (const rule of config?.rules ?? [])
    for (const e of rule.events) {
      const event = e.type === "dataLayerPush" ? str(e.event) : undefined;
      const doc = event ? byEvent.get(event) : undefined;
      if (doc)
        out.push({ id: `rule:${rule.id}:${event}`, label: `${event} (rule ${rule.id})`, group: "catalogue rules", when: rule.name ?? rule.id, push: doc.push });
    }
  return out;
}

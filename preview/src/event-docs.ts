/**
 * The documented event shapes, when the tree has them: a glob, so the app
 * still builds (with the catalogue-rule templates only) where the table is
 * absent or renamed.
 */
import { RULE_TEMPLATES, templatesFromDocs, type PushTemplate } from "./lib/templates";

const modules = import.meta.glob("../../runtime-modules/data-layer-events/event-docs.ts", { eager: true });

export const PUSH_TEMPLATES: PushTemplate[] = [...Object.values(modules).flatMap((m) => templatesFromDocs(m)), ...RULE_TEMPLATES];

/**
 * The documented event shapes, when the tree has them: a glob, so the app
 * still builds (with no templates) where the table is absent or renamed.
 */
import type { PreviewConfig } from "./lib/bundle-config";
import { ruleTemplates, templatesFromDocs, type PushTemplate } from "./lib/templates";

const modules = import.meta.glob("../../runtime-modules/data-layer-events/event-docs.ts", { eager: true });

export const DOC_TEMPLATES: PushTemplate[] = Object.values(modules).flatMap((m) => templatesFromDocs(m));

/** The editor's templates for a bundle: every documented event, then those its rules listen to. */
export function pushTemplates(config: Pick<PreviewConfig, "rules"> | undefined): PushTemplate[] {
  return [...DOC_TEMPLATES, ...ruleTemplates(config, DOC_TEMPLATES)];
}

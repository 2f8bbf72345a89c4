import type { TagModuleConfig } from "../../../generator/config/bundle-config.js";
import type { ModuleInstance, ModuleServices } from "../../core/types";
import { loadTag } from "../../core/tag-loader";

/** The command listing the declared tags of this bundle; also the module's marker (module.ts). */
const COMMAND = "declaredTags";

/**
 * The tags of the `tags:` section (docs/tags.md): each loaded by its kind
 * (script with the CSP nonce, 1x1 image, hidden iframe; its settings global
 * and queue stub first when declared), once per page, through the consent
 * gate, at its lifecycle point; a tag of a family through its family's
 * hooks too. Command: `declaredTags()`.
 */
export function createTags(services: ModuleServices<TagModuleConfig>): ModuleInstance {
  const codes: string[] = [];
  for (const tag of services.config.tags) {
    codes.push(tag.code);
    loadTag(services, tag);
  }
  const commands: Record<string, () => unknown> = {};
  commands[COMMAND] = () => codes.slice();
  return { commands };
}

import type { TagFamilyModuleConfig } from "../../../generator/config/bundle-config.js";
import type { ModuleInstance, ModuleServices } from "../../core/types";

/** The command telling whether this visitor is sampled in; also the module's marker (module.ts). */
const COMMAND = "rumSampledIn";

/**
 * Real-user monitoring (family `rum` of the declared tags, docs/tags.md):
 * its tags are sampled by default ("monitoring default 1 with sampled-in/out
 * cookie per host", spec section 9), so the host's sampling rate decides,
 * stably per visitor, whether they load (services.sampling, through the
 * generic loader: docs/identity.md, "Sampling"). Command: `rumSampledIn()`:
 * the visitor's decision once a sampled tag asked for it (true/false), else
 * undefined (no decision without consent).
 */
export function createRum(services: ModuleServices<TagFamilyModuleConfig>): ModuleInstance {
  const { sampling } = services;
  // No vendor behaviour of its own: the family's hook is there so that its tags load (core/tag-loader.ts).
  services.tagFamilies.rum = {};
  const commands: Record<string, () => unknown> = {};
  commands[COMMAND] = () => sampling && sampling.decided;
  return { commands };
}

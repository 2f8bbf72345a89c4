import type { TagFamilyModuleConfig } from "../../../generator/config/bundle-config.js";
import type { ModuleInstance, ModuleServices } from "../../core/types";
import { TAG_SAMPLED_OUT } from "../../core/messages";
import { rumSampling } from "./sampling";

/** The command telling whether this visitor is sampled in, per tag; also the module's marker (module.ts). */
const COMMAND = "rumSampledIn";

/**
 * Real-user monitoring (family `rum` of the declared tags, docs/tags.md):
 * once the gate allows a rum tag (performance consent, page top), the
 * host's sampled-in/out cookie decides (written when absent, so only with
 * consent); a visitor sampled out loads nothing. Command:
 * `rumSampledIn()`: tag code → true/false, for the tags decided so far.
 */
export function createRum(services: ModuleServices<TagFamilyModuleConfig>): ModuleInstance {
  const { cookies, page, log } = services;
  const decided: Record<string, boolean> = {};
  services.tagFamilies.rum = {
    prepare(tag) {
      const rum = tag.rum!;
      const d = rumSampling(cookies.get(rum.cookie), rum.sampleRate, Math.random);
      if (d.write) cookies.set(rum.cookie, d.write, { domain: page.host, maxAgeSeconds: rum.cookieDays * 86400 });
      decided[tag.code] = d.sampledIn;
      if (!d.sampledIn) log.info(TAG_SAMPLED_OUT, { tag: tag.code, rate: rum.sampleRate });
      return d.sampledIn;
    },
  };
  const commands: Record<string, () => unknown> = {};
  commands[COMMAND] = () => ({ ...decided });
  return { commands };
}

import type { TagFamilyModuleConfig } from "../../../generator/config/bundle-config.js";
import type { ModuleInstance, ModuleServices } from "../../core/types";
import { regexMatches } from "../../core/match-page";
import { TAG_HOST_NOT_MATCHED } from "../../core/messages";
import { beaconSettings, type BeaconEmbedSettings } from "./beacon-env";

/** The command returning the embed settings written, per tag; also the module's marker (module.ts). */
const COMMAND = "beaconEmbedSettings";

/**
 * The behavioural beacon (family `beacon` of the declared tags,
 * docs/tags.md): loads only on hosts its hostNameRegex matches; its script
 * is embedScriptSrc by environment with a default (the tag's script:); just
 * before it, the embed settings (name, host, domain, env, lowerYn) are
 * written to the window global `beacon.global`. Command:
 * `beaconEmbedSettings()`.
 */
export function createBeacon(services: ModuleServices<TagFamilyModuleConfig>): ModuleInstance {
  const { page, win } = services;
  const written: Record<string, BeaconEmbedSettings> = {};
  services.tagFamilies.beacon = {
    skip: (tag) => (regexMatches(tag.beacon!.hostNameRegex, page.host) ? undefined : TAG_HOST_NOT_MATCHED),
    prepare(tag) {
      const beacon = tag.beacon!;
      const settings = beaconSettings(beacon.name, page.host, beacon.subdomainEnvs, beacon.domainEnvs);
      (win as unknown as Record<string, unknown>)[beacon.global] = settings;
      written[tag.code] = settings;
      return true;
    },
  };
  const commands: Record<string, () => unknown> = {};
  commands[COMMAND] = () => ({ ...written });
  return { commands };
}

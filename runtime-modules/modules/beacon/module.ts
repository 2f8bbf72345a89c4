/** The behavioural beacon family's manifest (Node-side metadata, never bundled): see runtime-modules/registry.ts. */
import { TagFamilyModuleSchema } from "../../../generator/config/schema.js";
import type { ModuleManifest } from "../../registry.js";

export default {
  name: "beacon",
  factory: { file: "create-beacon", export: "createBeacon" },
  markers: ["beaconEmbedSettings"],
  description: "The behavioural beacon (tags: with beacon:): hostNameRegex, embed settings name, host, domain, env and lowerYn.",
  commands: ["beaconEmbedSettings"],
  provides: [],
  settings: TagFamilyModuleSchema,
} satisfies ModuleManifest<"beacon">;

/** The real-user monitoring family's manifest (Node-side metadata, never bundled): see runtime-modules/registry.ts. */
import { TagFamilyModuleSchema } from "../../../generator/config/schema.js";
import type { ModuleManifest } from "../../registry.js";

export default {
  name: "rum",
  factory: { file: "create-rum", export: "createRum" },
  markers: ["rumSampledIn"],
  description:
    "Real-user monitoring tags (tags: with rum:): performance consent; sampled at the host's rate (services.sampling, the sampled-in/out cookie per host).",
  commands: ["rumSampledIn"],
  provides: [],
  settings: TagFamilyModuleSchema,
} satisfies ModuleManifest<"rum">;

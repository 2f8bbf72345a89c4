/** The guided-help vendor family's manifest (Node-side metadata, never bundled): see runtime-modules/registry.ts. */
import { TagFamilyModuleSchema } from "../../../generator/config/schema.js";
import type { ModuleManifest } from "../../registry.js";

export default {
  name: "guidedHelp",
  factory: { file: "create-guided-help", export: "createGuidedHelp" },
  markers: ["guidedHelpPushes"],
  description:
    "The guided-help vendor (tags: with guidedHelp:): its flow and survey events as guided-help and guided-help-survey pushes (flags, step time in tenths of a second); 'guidance widget not available' when it never arrives.",
  commands: ["guidedHelpPushes"],
  provides: [],
  settings: TagFamilyModuleSchema,
} satisfies ModuleManifest<"guidedHelp">;

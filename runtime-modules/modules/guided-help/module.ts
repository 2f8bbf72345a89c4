/** The guided-help vendor family's manifest (Node-side metadata, never bundled): see runtime-modules/registry.ts. */
import { TagFamilyModuleSchema } from "../../../generator/config/schema.js";
import type { ModuleManifest } from "../../registry.js";

export default {
  name: "guidedHelp",
  factory: { file: "create-guided-help", export: "createGuidedHelp" },
  markers: ["guidedHelpPushes"],
  description:
    "The guided-help vendor (tags: with guidedHelp:): its flow and survey events as guided-help and guided-help-survey pushes (flags, step time in tenths of a second); 'guidance widget not available' when it never arrives; guidedHelpIdentify(id, properties) identifies the signed-in visitor to it ('no appcues object or identified variables').",
  commands: ["guidedHelpPushes", "guidedHelpIdentify"],
  provides: [],
  settings: TagFamilyModuleSchema,
} satisfies ModuleManifest<"guidedHelp">;

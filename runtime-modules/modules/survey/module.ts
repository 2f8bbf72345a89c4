/** The survey module's manifest (Node-side metadata, never bundled): see runtime-modules/registry.ts. */
import { SurveyModuleSchema } from "../../../generator/config/schema.js";
import type { ModuleManifest } from "../../registry.js";

export default {
  name: "survey",
  factory: { file: "create-survey", export: "createSurvey" },
  markers: ["sitetags-survey"],
  description: "Loads the helpfulness survey on trailing-slash paths of configured sites, behind performance consent.",
  commands: ["isLoaded"],
  provides: [],
  settings: SurveyModuleSchema,
} satisfies ModuleManifest<"survey">;

/** The advertising tracker family's manifest (Node-side metadata, never bundled): see runtime-modules/registry.ts. */
import { TagFamilyModuleSchema } from "../../../generator/config/schema.js";
import type { ModuleManifest } from "../../registry.js";

export default {
  name: "adTracker",
  factory: { file: "create-ad-tracker", export: "createAdTracker" },
  markers: ["adTrackerForwarded"],
  description: "Advertising trackers (tags: with adTracker:): queue stub, pixel id, data-layer events forwarded as tracker, pixel id, event name and data.",
  commands: ["adTrackerForwarded"],
  provides: [],
  settings: TagFamilyModuleSchema,
} satisfies ModuleManifest<"adTracker">;

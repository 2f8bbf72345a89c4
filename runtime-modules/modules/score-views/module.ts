/** The scoreViews module's manifest (Node-side metadata, never bundled): see runtime-modules/registry.ts. */
import { ScoreViewsModuleSchema } from "../../../generator/config/schemas/feature-modules.js";
import type { ModuleManifest } from "../../registry.js";

export default {
  name: "scoreViews",
  factory: { file: "create-score-views", export: "createScoreViews" },
  markers: ["kiwi.scoreView"],
  description: "Tracks SAT/PSAT score views (events 24/118, 88/119) from score-view pushes on score pages, logs what it skips, then resets the score data.",
  commands: ["track", "pageType"],
  provides: [],
  settings: ScoreViewsModuleSchema,
} satisfies ModuleManifest<"scoreViews">;

/** The video module's manifest (Node-side metadata, never bundled): see runtime-modules/registry.ts. */
import { VideoModuleSchema } from "../../../generator/config/schema.js";
import type { ModuleManifest } from "../../registry.js";

export default {
  name: "video",
  factory: { file: "create-video", export: "createVideo" },
  markers: ["kiwi.video"],
  description:
    "Tracks the video platform's embedded players (iframe API): player events as video pushes, milestones, played time; records started, milestones, resumed, ended, replayed and errors.",
  commands: ["players"],
  provides: [],
  settings: VideoModuleSchema,
} satisfies ModuleManifest<"video">;

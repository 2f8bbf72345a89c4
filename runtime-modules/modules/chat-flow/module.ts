/** The chat-flow popup family's manifest (Node-side metadata, never bundled): see runtime-modules/registry.ts. */
import { TagFamilyModuleSchema } from "../../../generator/config/schema.js";
import type { ModuleManifest } from "../../registry.js";

export default {
  name: "chatFlow",
  factory: { file: "create-chat-flow", export: "createChatFlow" },
  markers: ["chatFlowPopup"],
  description:
    "The chat-flow popup (tags: with chatFlow:): route pattern, once per widget_shown cookie, rate limit, exit intent, click or load trigger, the vendor's ready wait.",
  commands: ["chatFlowPopup", "chatFlowShown"],
  provides: [],
  settings: TagFamilyModuleSchema,
} satisfies ModuleManifest<"chatFlow">;

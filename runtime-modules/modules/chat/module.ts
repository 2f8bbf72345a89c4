/** The chat module's manifest (Node-side metadata, never bundled): see runtime-modules/registry.ts. */
import { ChatModuleSchema } from "../../../generator/config/schema.js";
import type { ModuleManifest } from "../../registry.js";

export default {
  name: "chat",
  factory: { file: "create-chat-widget", export: "createChatWidget" },
  markers: ["sitetags-chat-widget"],
  description: "Loads the site's chat widget on its configured pages, behind functional consent.",
  commands: ["isLoaded", "open"],
  provides: [],
  settings: ChatModuleSchema,
} satisfies ModuleManifest<"chat">;

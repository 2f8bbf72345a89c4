/** The push-notification family's manifest (Node-side metadata, never bundled): see runtime-modules/registry.ts. */
import { TagFamilyModuleSchema } from "../../../generator/config/schema.js";
import type { ModuleManifest } from "../../registry.js";

export default {
  name: "pushNotifications",
  factory: { file: "create-push-notifications", export: "createPushNotifications" },
  markers: ["pushNotificationsCalls"],
  description:
    "Push-notification tags (tags: with pushNotifications:): the vendor's queue, its init call with the app id and the settings per host, its page-view call.",
  commands: ["pushNotificationsCalls"],
  provides: [],
  settings: TagFamilyModuleSchema,
} satisfies ModuleManifest<"pushNotifications">;

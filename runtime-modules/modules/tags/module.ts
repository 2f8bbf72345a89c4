/** The generic tag loader's manifest (Node-side metadata, never bundled): see runtime-modules/registry.ts. */
import { TagModuleSchema } from "../../../generator/config/schema.js";
import type { ModuleManifest } from "../../registry.js";

export default {
  name: "tags",
  factory: { file: "create-tags", export: "createTags" },
  markers: ["declaredTags"],
  description:
    "Loads the tags declared under tags: without a family (script with the CSP nonce, 1x1 image, hidden iframe, queue stub), consent-gated, once per page.",
  commands: ["declaredTags"],
  provides: [],
  settings: TagModuleSchema,
} satisfies ModuleManifest<"tags">;

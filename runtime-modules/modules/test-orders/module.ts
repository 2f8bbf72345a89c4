/** The testOrders module's manifest (Node-side metadata, never bundled): see runtime-modules/registry.ts. */
import { TestOrdersModuleSchema } from "../../../generator/config/schemas/feature-modules.js";
import type { ModuleManifest } from "../../registry.js";

export default {
  name: "testOrders",
  factory: { file: "create-test-orders", export: "createTestOrders" },
  markers: ["kiwi.testOrder"],
  description: "SAT School Day and PSAT-family test orders and their edits, and test administration summaries.",
  commands: ["lastOrder", "lastSummary"],
  provides: [],
  settings: TestOrdersModuleSchema,
} satisfies ModuleManifest<"testOrders">;

/** The testdayPages module's manifest (Node-side metadata, never bundled): see runtime-modules/registry.ts. */
import { TestdayPagesModuleSchema } from "../../../generator/config/schema.js";
import type { ModuleManifest } from "../../registry.js";

export default {
  name: "testdayPages",
  factory: { file: "create-testday-pages", export: "createTestdayPages" },
  markers: ["printable-rosters"],
  description: "The test-day tool's page map: rooms, staff, students, irregularities, groups and their detail pages named from the path.",
  commands: ["pathCodes"],
  provides: [],
  settings: TestdayPagesModuleSchema,
} satisfies ModuleManifest<"testdayPages">;

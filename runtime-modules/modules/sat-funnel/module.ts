/** The satFunnel module's manifest (Node-side metadata, never bundled): see runtime-modules/registry.ts. */
import { SatFunnelModuleSchema } from "../../../generator/config/schemas/feature-modules.js";
import type { ModuleManifest } from "../../registry.js";

export default {
  name: "satFunnel",
  factory: { file: "create-sat-funnel", export: "createSatFunnel" },
  markers: ["kiwi.satFunnel"],
  description:
    "SAT registration funnel: flow:page page names, change-registration steps, the order-complete purchase, registration data, alerts, photo, fee waiver, dashboard states and payment errors.",
  commands: ["pageName", "changeSteps"],
  provides: ["pageName", "funnelErrorCode", "confirmationStep"],
  settings: SatFunnelModuleSchema,
} satisfies ModuleManifest<"satFunnel">;

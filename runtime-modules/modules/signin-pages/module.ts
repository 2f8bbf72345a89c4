/** The signinPages module's manifest (Node-side metadata, never bundled): see runtime-modules/registry.ts. */
import { SigninPagesModuleSchema } from "../../../generator/config/schema.js";
import type { ModuleManifest } from "../../registry.js";

export default {
  name: "signinPages",
  factory: { file: "create-signin-pages", export: "createSigninPages" },
  markers: ["forgotpw"],
  description:
    "The sign-in page map: a declared sign-in page key names the page (login enter-unpw, forgotpw reset-pw-success, reg select-type, ...; flow=idp-discovery: migrate).",
  commands: ["pageCodes"],
  provides: [],
  settings: SigninPagesModuleSchema,
} satisfies ModuleManifest<"signinPages">;

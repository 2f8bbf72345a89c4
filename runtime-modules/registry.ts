/**
 * The module registry. The generator reads this object literal statically
 * (ts-morph), never executes it, and writes each bundle's entry importing only
 * the factories a site enables. Keys match ModulesSchema in
 * generator/config/schema.ts (a unit test checks both ways).
 */
import type { ModuleName } from "../generator/config/bundle-config.js";
import type { ModuleDefinition } from "./core/types";

export const registry = {
  chat: {
    factory: "createChatWidget",
    from: "modules/chat/create-chat-widget",
    markers: ["sitetags-chat-widget"],
    description: "Loads the site's chat widget on its configured pages, behind functional consent.",
  },
  survey: {
    factory: "createSurvey",
    from: "modules/survey/create-survey",
    markers: ["sitetags-survey"],
    description: "Loads the helpfulness survey on trailing-slash paths of configured sites, behind performance consent.",
  },
} satisfies Record<ModuleName, ModuleDefinition>;

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
  video: {
    factory: "createVideo",
    from: "modules/video/create-video",
    markers: ["kiwi.video"],
    description: "Tracks the video platform's embedded players (iframe API): player events as video pushes, milestones, played time; records started, milestones, resumed, ended, replayed and errors.",
  },
  scoreViews: {
    factory: "createScoreViews",
    from: "modules/score-views/create-score-views",
    markers: ["kiwi.scoreView"],
    description: "Tracks SAT/PSAT score views (events 24/118, 88/119) from score-view pushes on score pages, logs what it skips, then resets the score data.",
  },
  satFunnel: {
    factory: "createSatFunnel",
    from: "modules/sat-funnel/create-sat-funnel",
    markers: ["kiwi.satFunnel"],
    description: "SAT registration funnel: flow:page page names, change-registration steps, the order-complete purchase, registration data, alerts, photo, fee waiver, dashboard states and payment errors.",
  },
  testOrders: {
    factory: "createTestOrders",
    from: "modules/test-orders/create-test-orders",
    markers: ["kiwi.testOrder"],
    description: "SAT School Day and PSAT-family test orders and their edits, and test administration summaries.",
  },
  signinPages: {
    factory: "createSigninPages",
    from: "modules/signin-pages/create-signin-pages",
    markers: ["forgotpw"],
    description: "The sign-in page map: a declared sign-in page key names the page (login enter-unpw, forgotpw reset-pw-success, reg select-type, ...; flow=idp-discovery: migrate).",
  },
  testdayPages: {
    factory: "createTestdayPages",
    from: "modules/testday-pages/create-testday-pages",
    markers: ["printable-rosters"],
    description: "The test-day tool's page map: rooms, staff, students, irregularities, groups and their detail pages named from the path.",
  },
} satisfies Record<ModuleName, ModuleDefinition>;

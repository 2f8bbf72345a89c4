/**
 * Coverage of the documented pushes (issue 18), generated from the runtime's
 * event table (runtime-modules/data-layer-events/event-docs.ts, the source of
 * docs/events.md): for every documented push, on a real production bundle of
 * a site that records it, the documented example push gives exactly the
 * documented record at the mock edge (event type, interaction name, analytics
 * variables: docs/rules.md), and every invalid variant of spec section 5
 * gives no record and the spec's log message where the spec names one.
 *
 * Every documented event is in exactly one place: RECORDED below, the event
 * table's `recordsNothing` (a push that records nothing by design, with its
 * reason), or NOT_YET (what is left of issue 18, each with what it needs).
 * The first test fails on any push that is in none of them, or in two.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { EVENT_DOCS } from "../../runtime-modules/data-layer-events/event-docs.js";
import type { DataLayerEvent } from "../../runtime-modules/data-layer-events/types.js";
import { buildBundles, CONSENT, settle, signInCookies, useBrowserHarness, type Bundle, type RecordedRequest } from "./harness/index.js";

const h = useBrowserHarness();

/**
 * Issue 19: every record of an anonymous visitor (this test's) carries its
 * login state and visitor type and nothing else of an identity, through the
 * org rule `identity` (sites/_org.yaml; docs/identity.md). The variable
 * numbers are read from that rule, never written here.
 */
const ANONYMOUS_IDENTITY = anonymousIdentity();

function anonymousIdentity(): Record<string, string> {
  const org = parse(readFileSync(new URL("../../sites/_org.yaml", import.meta.url), "utf8")) as {
    rules: Array<{ id: string; actions: Array<{ type: string; variables?: Record<string, string> }> }>;
  };
  const variables = org.rules.find((r) => r.id === "identity")?.actions.find((a) => a.type === "setVariables")?.variables ?? {};
  const named = (token: string) => {
    const name = Object.keys(variables).find((k) => variables[k] === token);
    if (!name) throw new Error(`the org rule identity sets no variable to ${token}`);
    return name;
  };
  return { [named("%loginState%")]: "Not Logged In", [named("%visitorType%")]: "Never Logged In" };
}

interface Record_ {
  eventType: string;
  /** The interaction name (none on a page view). */
  name: string | undefined;
  variables: Record<string, string>;
}
interface Recorded {
  /** The site whose production bundle records it. */
  site: string;
  /** The page (default /). */
  path?: string;
  /** What records it (docs/rules.md). */
  by: string;
  record: Record_;
  /** Spec section 5's invalid variants: the push (the example's fields overridden; undefined removes one), and the log message when the spec names one. */
  invalid?: Array<{ why: string; fields: Record<string, unknown>; log?: string }>;
  /** Scripts run before the page's own (the page's own measurements stubbed, so the record is exact). */
  initScripts?: string[];
  /** The record is sent when the page turns hidden (a batch): hide it after the push. */
  hide?: boolean;
}

/**
 * Task "rec" (#18): the page's own web-vitals measurements made exact. The
 * browser measures nothing of its own (no entry type is observable), and its
 * navigation entry answers the first byte at 12 ms: the web-vitals library
 * reports TTFB 12 (good, navigate) once the page has loaded, and nothing else.
 */
const EXACT_VITALS = `(() => {
  Object.defineProperty(PerformanceObserver, "supportedEntryTypes", { get: () => [] });
  const nav = { name: location.href, entryType: "navigation", type: "navigate", startTime: 0, responseStart: 12, activationStart: 0 };
  const byType = performance.getEntriesByType.bind(performance);
  performance.getEntriesByType = (type) => (type === "navigation" ? [nav] : byType(type));
})();`;

/** tdMinusNDays of a registration: days from today (the page's local date) to the administration date. */
function daysFromToday(year: number, month: number, day: number): number {
  const now = new Date();
  return Math.round((Date.UTC(year, month - 1, day) - Date.UTC(now.getFullYear(), now.getMonth(), now.getDate())) / 864e5);
}

/** The pushes recorded today, with their records (numbers: sites/*.yaml; placeholders to confirm except section 9's). */
const RECORDED: Partial<Record<DataLayerEvent, Recorded>> = {
  modal: {
    site: "help",
    by: "org rule modal",
    record: { eventType: "kiwi.modal", name: "modal:checklist:shown", variables: { eVar155: "bigfuture/dashboard" } },
    invalid: [{ why: "no modalName", fields: { modalName: undefined } }],
  },
  "form-submit": {
    site: "help",
    by: "org rule form-submit",
    record: { eventType: "kiwi.formSubmit", name: "form:newsletter-signup", variables: { events: "event51", eVar99: "newsletter-signup" } },
    invalid: [{ why: "no formName", fields: { formName: undefined } }],
  },
  "application-error": {
    site: "help",
    by: "org rule application-error",
    record: {
      eventType: "kiwi.applicationError",
      name: "error:bf-ui-failure",
      variables: { events: "event50", eVar97: "adding-college:University of Kiwi", eVar98: "ui", eVar156: "bigfuture/college-profile", eVar157: "add-to-list" },
    },
    invalid: [{ why: '"skipped if no data": no code', fields: { code: undefined } }],
  },
  "opt-in-change": {
    site: "help",
    by: "org rule opt-in-change",
    record: {
      eventType: "kiwi.optInChange",
      name: "opt-in:optin",
      variables: { events: "event52", eVar100: "optin", prop92: "student-search", prop93: "profile" },
    },
    invalid: [{ why: '"Opt-in change without change type: skipped"', fields: { changeType: undefined } }],
  },
  "list-change": {
    site: "bigfuture",
    by: "bigfuture rules list-add, list-remove, list-milestone",
    record: {
      eventType: "kiwi.listChange",
      name: "list:add:college",
      variables: { events: "event53", eVar101: "college", eVar102: "University of Kiwi", eVar103: "1234", prop94: "college-profile", prop95: "3" },
    },
    invalid: [
      { why: "no itemType", fields: { itemType: undefined } },
      { why: "no itemName", fields: { itemName: undefined } },
      { why: "newTotalItemsInList not an integer", fields: { newTotalItemsInList: "3" } },
    ],
  },
  "list-view": {
    site: "bigfuture",
    by: "bigfuture rule list-view",
    record: { eventType: "kiwi.listView", name: "list:view", variables: { events: "event58", eVar101: "career", prop95: "0", prop97: "no-careers" } },
    invalid: [{ why: '"List view needs integer itemListSize"', fields: { itemListSize: "0" } }],
  },
  "major-add": {
    site: "bigfuture",
    by: "bigfuture rules major-add, major-new-list, major-list-full",
    record: {
      eventType: "kiwi.majorAdd",
      name: "major:add",
      variables: { events: "event55,event57", eVar104: "Biology", eVar105: "life-sciences", prop96: "search", prop95: "1" },
    },
    invalid: [{ why: "listSize not an integer", fields: { listSize: "1" } }],
  },
  "checklist-task": {
    site: "bigfuture",
    by: "bigfuture rule checklist-task",
    record: {
      eventType: "kiwi.checklistTask",
      name: "checklist:task-marked-complete",
      variables: { events: "event85", eVar147: "build-your-college-list", eVar148: "task-marked-complete" },
    },
    invalid: [
      { why: '"checklist events skipped if required data missing": no taskName', fields: { taskName: undefined } },
      { why: "an action that is none of the three", fields: { action: "task-deleted" } },
    ],
  },
  "contact-us": {
    site: "help",
    by: "help rule contact-us",
    record: { eventType: "kiwi.contactUs", name: "contact us:sat-registration", variables: { events: "event78", eVar130: "sat-registration" } },
    invalid: [{ why: '"Contact-us ... skipped if required data missing"', fields: { tileName: undefined } }],
  },
  "vouchers-order": {
    site: "testday",
    by: "testday rules vouchers-order, vouchers-order-unknown-action, vouchers-order-no-id, vouchers-order-no-data",
    record: {
      eventType: "kiwi.vouchersOrder",
      name: "vouchers:order-new",
      variables: { events: "event62", eVar109: "V-5521", eVar110: "order-new", prop98: "25", prop99: "1500" },
    },
    invalid: [
      { why: '"Voucher order without id: warned, skipped"', fields: { id: undefined }, log: "vouchers order ID missing" },
      { why: '"unknown action is warned and ignored"', fields: { action: "order-cancel" }, log: "voucher action type not recognized" },
      { why: '"no payload data found": neither action nor id', fields: { action: undefined, id: undefined }, log: "no payload data found" },
    ],
  },
  "k12-bi-report": {
    site: "k12reports",
    by: "k12reports rule k12-bi-report",
    record: {
      eventType: "kiwi.biReport",
      name: "bi report:score-summary:finished-with-data",
      variables: {
        events: "event65",
        eVar111: "score-summary",
        eVar112: "finished-with-data",
        eVar113: "overview",
        eVar114: "district",
        eVar115: "2024-25",
        eVar116: "relative-year|grades",
      },
    },
    invalid: [{ why: "a status that is none of the four", fields: { biReport: { name: "score-summary", status: "done" } } }],
  },
  "k12-user-action": {
    site: "k12reports",
    by: "k12reports rule k12-user-action",
    record: { eventType: "kiwi.k12UserAction", name: "user action:export", variables: { events: "event66", eVar117: "export" } },
    invalid: [{ why: "no actionKey", fields: { actionKey: undefined } }],
  },
  "product-locker": {
    site: "k12reports",
    by: "k12reports rule product-locker",
    record: {
      eventType: "kiwi.productLocker",
      name: "product locker:filter",
      variables: { events: "event67", eVar117: "filter", eVar118: "subject", eVar119: "math" },
    },
    invalid: [{ why: "no actionKey", fields: { actionKey: undefined } }],
  },
  "question-bank-export": {
    site: "questionbank",
    by: "questionbank rule question-bank-export",
    record: {
      eventType: "kiwi.questionBankExport",
      name: "question bank:export",
      variables: { events: "event68", eVar120: "25", eVar121: "math|algebra", eVar122: "student" },
    },
    invalid: [
      { why: '"recorded only if total questions parses to non-zero": 0', fields: { totalQuestions: 0 } },
      { why: '"recorded only if total questions parses to non-zero": "0"', fields: { totalQuestions: "000" } },
      { why: "no totalQuestions", fields: { totalQuestions: undefined } },
    ],
  },
  "question-bank-filter": {
    site: "questionbank",
    by: "questionbank rule question-bank-filter",
    record: {
      eventType: "kiwi.questionBankFilter",
      name: "question bank:filter",
      variables: { events: "event69", eVar123: "domain:algebra", eVar121: "question-bank" },
    },
    invalid: [{ why: '"filter only if filterInfo exists"', fields: { filterInfo: undefined } }],
  },
  "event-app": {
    site: "events",
    by: "events rule event-app",
    record: {
      eventType: "kiwi.eventApp",
      name: "event app:college-fair",
      variables: { events: "event70", eVar124: "college-fair", eVar125: "gm-1|gm-2", prop98: "2", prop99: "1" },
    },
    invalid: [{ why: "no category", fields: { category: undefined } }],
  },
  "school-program": {
    site: "k12admin",
    by: "k12admin rule school-program",
    record: {
      eventType: "kiwi.schoolProgram",
      name: "school program:sat-school-day",
      variables: { events: "event77", eVar126: "sat-school-day", eVar127: "123456", eVar128: "Lincoln High", eVar129: "Springfield" },
    },
    invalid: [{ why: "no activityType", fields: { activityType: undefined } }],
  },
  dashboard: {
    site: "dashboard",
    by: "dashboard rule dashboard-proxy",
    record: {
      eventType: "kiwi.dashboard",
      name: "dashboard:proxy:practice",
      variables: { events: "event79", eVar131: "practice", eVar132: "practice|scholarships", eVar133: "student", eVar134: "true" },
    },
    invalid: [{ why: "a proxy event that is none of the seven", fields: { proxyEvent: "homework" } }],
  },
  "course-event": {
    site: "apcourseaudit",
    by: "apcourseaudit rule course-event",
    record: {
      eventType: "kiwi.courseEvent",
      name: "course:course-enrolment",
      variables: { events: "event80", eVar135: "course-enrolment", eVar136: "s-1", eVar137: "c-2", eVar138: "26", eVar139: "o-3" },
    },
    invalid: ["events", "studentId", "courseId", "educationPeriodCode", "courseOrgId"].map((f) => ({
      why: `"Course events need all of events, student id, course id, education period, course org id": no ${f}`,
      fields: { [f]: undefined },
    })),
  },
  inquiry: {
    site: "collegesearch",
    by: "collegesearch rule inquiry",
    record: {
      eventType: "kiwi.inquiry",
      name: "inquiry:fall:2026",
      variables: { events: "event81", eVar140: "fall", eVar141: "2026", eVar142: "3456:University of Kiwi" },
    },
    invalid: [{ why: "no school submitted", fields: { submissions: [] } }],
  },
  "mysat-dashboard": {
    site: "mysat",
    by: "mysat rule mysat-dashboard",
    record: { eventType: "kiwi.mysatDashboard", name: "mysat dashboard:requested", variables: { events: "event82", eVar143: "requested" } },
    invalid: [{ why: "no deviceRequestStatus", fields: { deviceRequestStatus: undefined } }],
  },
  qotd: {
    site: "mysat",
    by: "mysat rule qotd",
    record: { eventType: "kiwi.qotd", name: "qotd:math", variables: { events: "event83", eVar144: "math", eVar145: "email" } },
    invalid: [{ why: "no subject", fields: { subject: undefined } }],
  },
  "page-view": {
    site: "bigfuture",
    by: "the runtime (an SPA page view)",
    record: { eventType: "web.webpagedetails.pageViews", name: undefined, variables: {} },
  },
  "promo-click": {
    site: "bigfuture",
    by: "the runtime (link tracking)",
    record: {
      eventType: "web.webinteraction.linkClicks",
      name: "tnt-spring-sat-reminder",
      variables: { eVar93: "promo|pathingHit", prop82: "promo", prop85: "tnt" },
    },
  },
  search: {
    site: "bigfuture",
    by: "the runtime (internal search)",
    record: {
      eventType: "kiwi.internalSearch",
      name: "internal search",
      variables: { events: "event4", eVar5: "nursing", eVar6: "college", eVar95: "major|location", prop86: "42", prop88: "true" },
    },
  },
  "quick-search": {
    site: "bigfuture",
    by: "the runtime (internal search)",
    record: { eventType: "kiwi.quickSearch", name: "quick search", variables: { events: "event4", eVar5: "ucla", eVar6: "quick-college", prop88: "true" } },
  },
  "search-result-click": {
    site: "bigfuture",
    by: "the runtime (internal search)",
    record: {
      eventType: "web.webinteraction.linkClicks",
      name: "kiwi",
      variables: { eVar5: "kiwi", eVar6: "college", eVar93: "searchResult|pathingHit", eVar95: "location", prop82: "searchResult", prop88: "true" },
    },
  },
  "funnel-widget": {
    site: "satreg",
    path: "/register",
    by: "the satFunnel module",
    record: { eventType: "kiwi.satFunnel", name: "satreg:widget:tos-accept", variables: { eVar46: "tos-accept" } },
  },
  "test-order": {
    site: "schoolday",
    by: "the testOrders module",
    record: {
      eventType: "kiwi.testOrder",
      name: "test order edit:TO-2024-0042",
      variables: {
        events: "event251",
        eVar51: "TO-2024-0042",
        eVar52: "transactional",
        eVar53: "PSAT/NMSQT:120:150:2024::fall:10,11:12",
        eVar54: "PSAT/NMSQT:increased:30:+:-:2",
        eVar55: "billing:y|po:n|contract:n",
      },
    },
  },
  "test-admin-summary": {
    site: "schoolday",
    by: "the testOrders module",
    record: {
      eventType: "kiwi.testOrder",
      name: "test admin summary:123456",
      variables: { eVar56: "123456", eVar57: "sat|p10", eVar58: "20241016", eVar59: "y" },
    },
  },
  "score-view": {
    site: "scores",
    path: "/scores/",
    by: "the scoreViews module",
    record: {
      eventType: "kiwi.scoreView",
      name: "score view:sat:sat-school-day-202410-99",
      variables: {
        events: "event24,event118:5501",
        prop60: "score-report",
        eVar60: "sat-school-day-202410-99",
        eVar61: "5501",
        eVar62: "sat-school-day",
        eVar63: "20241016",
        eVar64: "not-avail",
        eVar65: "not-avail",
        eVar66: "not-avail",
      },
    },
  },
  "score-match": {
    site: "scores",
    by: "scores rule score-match",
    record: { eventType: "kiwi.scoreMatch", name: "score match:auto", variables: { events: "event84", eVar146: "auto" } },
    invalid: [{ why: "a blank matchType", fields: { matchType: "  " } }],
  },
  // recA (issue 18, commerce and student records): career quiz, purchases, CLEP orders, HED search, NRP award downloads.
  "career-quiz": {
    site: "careersearch",
    by: "careersearch rules career-quiz-start, career-quiz, career-quiz-complete",
    record: {
      eventType: "kiwi.careerQuiz",
      name: "career quiz:career-quiz:question",
      variables: {
        events: "event120",
        eVar170: "cq-2024",
        eVar172: "v3",
        eVar174: "|||",
        eVar175: "1:1:5:30",
        eVar176: "||",
        // Task "rec": "question pages (first, middle, last)": the page that starts the quiz is the first.
        eVar245: "first",
      },
    },
    invalid: [{ why: "no pageName", fields: { pageName: undefined } }],
  },
  purchase: {
    site: "payments",
    by: "payments rule purchase",
    record: {
      eventType: "kiwi.purchase",
      name: "purchase:Answer Services",
      variables: {
        events: "purchase",
        products: "answer-services;qas;1;18",
        eVar180: "sa-778899",
        eVar181: "answer services",
        eVar182: "Answer Services",
      },
    },
    invalid: [{ why: "no transaction id", fields: { transaction: { type: "Answer Services", purchaseIdPrefix: "sa" } } }],
  },
  "clep-order": {
    site: "clepportal",
    by: "clepportal rule clep-order",
    record: {
      eventType: "kiwi.clepOrder",
      name: "clep order:cp-1122",
      variables: { events: "purchase,event122", products: ";clep-biology;;93,;clep-spanish;;93", eVar180: "cp-1122", eVar181: "clep", eVar185: "2" },
    },
    invalid: [
      { why: "examRegCount not a positive integer", fields: { examRegCount: 0 } },
      { why: "no products", fields: { products: [] } },
    ],
  },
  "hed-search": {
    site: "collegesearch",
    by: "collegesearch rules hed-search, hed-search-six-months",
    record: {
      eventType: "kiwi.hedSearch",
      name: "hed search:purchase-plan",
      variables: {
        events: "event123",
        eVar190: "purchase-plan",
        eVar191: "state:CA",
        eVar192: "2025:annual",
        eVar193: "basic::premium",
        eVar195: "false",
      },
    },
    invalid: [{ why: '"HED search actions: purchase-plan, license-records": another action', fields: { action: "cancel-plan" } }],
  },
  "award-download": {
    site: "scholarships",
    by: "scholarships rule award-download",
    record: {
      eventType: "kiwi.awardDownload",
      name: "award download:nrp-ahsp",
      variables: {
        events: "event124",
        eVar186: "nrp-ahsp:National African American Recognition Program:2024",
        eVar188: "nrp-ahsp:2024:Award letter",
      },
    },
    invalid: [{ why: "no download", fields: { downloads: [] } }],
  },
  "comms-opt-in": {
    site: "dashboard",
    by: "dashboard rules comms-opt-in-email, -sms, -parentdata, -ccparent, -parentemail",
    record: { eventType: "kiwi.commsOptIn", name: "comms opt-in:email", variables: { events: "event125", eVar178: "email" } },
    invalid: [
      { why: '"Comms opt-in ... needs an identity key"', fields: { identityKey: undefined } },
      { why: '"tracks only channels changed to yes": email set to no, sms no', fields: { email: "no" } },
    ],
  },
  // end recA
  // ---- Task recB (issue 18): the score portal's records, the CB web event, registration steps, video, link clicks ----
  "ap-score-view": {
    site: "apscore",
    by: "apscore rule ap-score-view (reduce: max)",
    record: { eventType: "kiwi.apScoreView", name: "ap score view", variables: { events: "event90", eVar150: "2024" } },
  },
  "ap-score-send": {
    site: "apscore",
    by: "apscore rule ap-score-send (reduce: count, unique)",
    record: { eventType: "kiwi.apScoreSend", name: "ap score send:2", variables: { events: "event91", eVar151: "2", eVar152: "1234|5678" } },
    invalid: [{ why: "no DI code sent", fields: { diCodes: [] } }],
  },
  "score-send": {
    site: "scoresends",
    by: "scoresends rules score-send, score-send-no-order",
    record: {
      eventType: "kiwi.scoreSend",
      name: "score send:2",
      variables: { events: "event92", eVar151: "2", eVar153: "4321|8765", eVar154: "SS-1001" },
    },
    invalid: [{ why: "no institution code sent (blank items are left out)", fields: { institutionCodes: ["", null] } }],
  },
  "cb-web-event": {
    site: "iam",
    by: "iam rules cb-web-event-login, -registration, -migration, -registration-match",
    record: { eventType: "kiwi.cbWebEvent", name: "cb web event:registration", variables: { events: "event600,event601", eVar219: "registration" } },
    invalid: [{ why: "type none: nothing happened", fields: { type: "none", isLogin: false, isReg: false } }],
  },
  "link-click": {
    site: "bigfuture",
    by: "the runtime (a link-click push)",
    record: {
      eventType: "web.webinteraction.linkClicks",
      name: "compare colleges",
      variables: { events: "event59", eVar93: "feature|pathingHit", prop82: "feature", prop84: "/compare" },
    },
    invalid: [
      { why: '"no event code found in link track payload"', fields: { eventCode: undefined }, log: "no event code found in link track payload" },
      { why: '"Link-track rule proceeds only with hasData"', fields: { hasData: false } },
    ],
  },
  video: {
    site: "satsuite",
    by: "the video module",
    record: {
      eventType: "kiwi.video",
      name: "video:milestone:a1B2_c3-D4:60s",
      variables: { events: "event72", eVar106: "a1B2_c3-D4", eVar107: "How to register", eVar108: "60s" },
    },
    invalid: [
      { why: '"videoId (letters, digits, underscore, hyphen)"', fields: { videoId: "a1B2 c3/D4" } },
      { why: '"milestone needs milestone event": no videoMilestone', fields: { videoMilestone: undefined } },
      { why: '"Error code and message need an error event": an error without errorCode', fields: { videoEvent: "error", videoMilestone: undefined } },
    ],
  },
  "registration-step": {
    site: "satreg",
    path: "/register",
    by: "the satFunnel module (a new page of the funnel: its page view)",
    record: {
      eventType: "web.webpagedetails.pageViews",
      name: undefined,
      // The registration data (analyticsVariables.satFunnel): satRegNo, adminCode, adminDate as yyyymmdd, registrantType, fwType, tdMinusNDays, the step, the pathing hit.
      variables: {
        eVar31: "R123456",
        eVar34: "OCT24",
        eVar35: "20241005",
        eVar36: "repeat",
        eVar37: "none",
        eVar39: String(daysFromToday(2024, 10, 5)),
        eVar41: "datetc-choosecenter:view:1",
        prop31: "n",
      },
    },
    invalid: [{ why: "a page of no SAT registration flow", fields: { page: "checkout" }, log: "not a page of a SAT registration flow" }],
  },
  "privacy-change": {
    site: "privacy",
    by: "privacy rule privacy-change (as the banner's changes are recorded)",
    record: {
      eventType: "kiwi.privacyConsentChange",
      name: "privacy consent change",
      variables: { eVar71: "out", eVar72: "marketing", eVar73: "US-CA", eVar74: "preference-center" },
    },
    invalid: [
      { why: "no status", fields: { status: undefined } },
      { why: "a status neither in nor out", fields: { status: "maybe" } },
    ],
  },
  // Task "rec" (issue 18): web vitals, exact (the page's own measurements stubbed: EXACT_VITALS).
  "web-vitals": {
    site: "bigfuture",
    by: "the runtime (web vitals: the page's own metrics and the pushed ones, one batch when the page is hidden)",
    initScripts: [EXACT_VITALS],
    hide: true,
    // "Web vitals: CLS delta times 1000 rounded; others rounded": the page's TTFB first, then the pushed LCP 1830 and CLS 0.02.
    record: { eventType: "kiwi.webVitals", name: "web vitals", variables: { eVar94: "TTFB:good:navigate:12|LCP:good:navigate:1830|CLS:good:navigate:20" } },
  },
  // end rec (web vitals)
  // Task "rec" (issue 18): the tag-settings and traffic-source pushes, each a rule action only the bundles that declare it carry.
  "tag-settings": {
    site: "newsroom",
    by: "newsroom rules tag-settings (its tagStatus action keeps the status for the tag check), tag-settings-missing",
    record: { eventType: "kiwi.tagSettings", name: "tag settings:chat", variables: { events: "event130", eVar246: "chat", eVar247: "enabled", eVar248: "qa" } },
    invalid: [
      { why: '"Tag settings push needs a tag key and settings": no tagKey', fields: { tagKey: undefined }, log: "required data missing" },
      { why: '"Tag settings push needs a tag key and settings": no settings', fields: { settings: undefined }, log: "required data missing" },
      { why: "a status neither enabled nor disabled", fields: { status: "maybe" } },
    ],
  },
  "traffic-source": {
    site: "events",
    by: "events rule traffic-source (its trafficTouch action records the touch into the visit's history)",
    record: {
      eventType: "kiwi.trafficSource",
      name: "traffic source:Email",
      variables: {
        events: "event131",
        eVar80: "spring-sat-2025",
        eVar81: "Email",
        eVar87: "msg-42",
        eVar88: "r-9",
        eVar89: "s-3",
      },
    },
    invalid: [{ why: "no channel", fields: { channel: undefined } }],
  },
  // end rec (tag settings, traffic source)
  // Task "identity" (issue #19): the K12 page; k12-app-user and identity are context (the event table's recordsNothing),
  // proven in test/browser/identity-records.test.ts.
  "k12-app-page": {
    site: "k12reports",
    by: "k12reports rules k12-app-page-edu, k12-app-page-stu",
    record: {
      eventType: "kiwi.k12AppPage",
      name: "app page:edu:summary",
      variables: { events: "event604", eVar223: "edu", eVar224: "reports", eVar225: "summary", eVar226: "sat", eVar227: "table" },
    },
    invalid: [
      { why: '"App page domain educator maps to edu, student to stu": any other domain', fields: { appPage: { domain: "parent", page: "summary" } } },
      { why: "no page", fields: { appPage: { domain: "educator" } } },
    ],
  },
  // Task "tags" (#20 guided help, #18's records): apclassroom's guided-help rules; each flag pushed true adds its event (step impression: event172).
  "guided-help": {
    site: "apclassroom",
    by: "apclassroom rules guided-help, guided-help-step-impression (and the other flags' rules)",
    record: {
      eventType: "kiwi.guidedHelp",
      name: "guided help:f-123",
      variables: {
        events: "event172,event170",
        eVar230: "f-123",
        eVar231: "Onboarding",
        eVar232: "2",
        eVar237: "85",
      },
    },
    invalid: [
      { why: "no flowId", fields: { flowId: undefined } },
      { why: "a blank flowId", fields: { flowId: "  " } },
    ],
  },
  "guided-help-survey": {
    site: "apclassroom",
    by: "apclassroom rule guided-help-survey",
    record: {
      eventType: "kiwi.guidedHelpSurvey",
      name: "guided help survey:s-77",
      variables: { events: "event178", eVar230: "s-77", eVar231: "Was this helpful?", eVar238: "4", eVar239: "clear" },
    },
    invalid: [{ why: "no flowId", fields: { flowId: undefined } }],
  },
};

/** What is left of issue 18: documented pushes nothing records yet, and what each needs. */
const NOT_YET: Partial<Record<DataLayerEvent, string>> = {};

const EVENTS = Object.keys(EVENT_DOCS) as DataLayerEvent[];
const contextReason = (e: DataLayerEvent): string | undefined => (EVENT_DOCS[e] as { recordsNothing?: string }).recordsNothing;

it("every documented push is recorded (with its case here), listed as context in the event table with its reason, or listed as not yet: exactly one", () => {
  const places = EVENTS.map((e) => [e, [RECORDED[e] && "recorded", contextReason(e) && "context", NOT_YET[e] && "not yet"].filter(Boolean)] as const);
  expect(places.filter(([, p]) => p.length !== 1)).toEqual([]);
  expect(
    Object.keys(RECORDED)
      .concat(Object.keys(NOT_YET))
      .filter((e) => !(e in EVENT_DOCS)),
  ).toEqual([]);
});

type Beacon = { events: Array<{ xdm: Record<string, any>; data?: { __adobe: { analytics: Record<string, string> } } }> };
const beacons = (): Beacon[] =>
  h.web.find({ host: "edge.kiwi.example", method: "POST", path: /\/v1\/(interact|collect)$/ }).map((r: RecordedRequest) => r.json as Beacon);
const recordOf = (b: Beacon): Record_ => ({
  eventType: b.events[0].xdm.eventType,
  name: b.events[0].xdm.web?.webInteraction?.name,
  variables: b.events[0].data?.__adobe.analytics ?? {},
});
async function beaconCount(n: number, timeoutMs = 10_000): Promise<Beacon[]> {
  const until = Date.now() + timeoutMs;
  while (beacons().length < n && Date.now() < until) await settle(25);
  return beacons();
}

/** The example push with fields overridden (undefined removes one). */
function pushOf(event: DataLayerEvent, fields: Record<string, unknown> = {}): Record<string, unknown> {
  const push: Record<string, unknown> = { event, ...(EVENT_DOCS[event].example as Record<string, unknown>) };
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) delete push[k];
    else push[k] = v;
  }
  return push;
}

/** A signed-in student (the list milestones are a known user's). */
const SIGNED_IN = signInCookies({ sessionId: "S-1", accountId: "A-1", profileType: "ECL" }, { typ: "Bearer", namespace: "st", hashedId: "h-1" });
const recorded = Object.entries(RECORDED) as Array<[DataLayerEvent, Recorded]>;
/** Task "rec" (issue 18): "lists on every site that has them, and the no-... list states": each site's item type (majors: the major list). */
const LIST_SITES: Record<string, { itemType: string; state: string } | "majors"> = {
  bigfuture: { itemType: "college", state: "colleges" },
  careersearch: { itemType: "career", state: "careers" },
  scholarships: { itemType: "scholarship", state: "scholarships" },
  majors: "majors",
};
/**
 * Task "rec" (issue 18): "Purchases of every kind in the purchase-id prefix table", on each site with a purchase
 * flow (satreg's and satregconc's orders are the SAT funnel's; CLEP's the clep-order push): the kinds each records.
 */
const PURCHASE_SITES: Record<string, Array<[prefix: string, kind: string]>> = {
  payments: [
    ["sx", "cancel"],
    ["sc", "change"],
    ["sr", "sat registration"],
  ],
  apscore: [["as", "ap score sending"]],
  events: [
    ["be", "event app"],
    ["ev", "online meeting"],
  ],
  collegesearch: [
    ["hsl", "search licensing"],
    ["hsp", "plans"],
  ],
  store: [["so", "online store"]],
  scoresends: [["ss", "score sends"]],
};
let bundles: Record<string, Bundle>;
beforeAll(async () => {
  // Task "rec": the sites of "lists on every site that has them" not otherwise here (LIST_SITES).
  const sites = [...new Set(recorded.map(([, r]) => r.site).concat(Object.keys(LIST_SITES), Object.keys(PURCHASE_SITES)))];
  bundles = await buildBundles(Object.fromEntries(sites.map((s) => [s, [s, "prod"]])) as Record<string, [string, "prod"]>);
}, 600_000);

/** Opens the site's production page, waits for its page view, pushes, and returns the beacons after the page view, and the log. */
async function pushOnPage(r: Recorded, push: Record<string, unknown>, cookies?: string[]) {
  const bundle = bundles[r.site];
  const host = bundle.config.hosts.prod![0];
  const tab = await h.browser.openPage(h.web.page(`https://${host}${r.path ?? "/"}`, { bundle, cookies }), {
    consentGroups: CONSENT.performance,
    initScripts: r.initScripts,
  });
  const [view] = await beaconCount(1);
  expect(view && recordOf(view).eventType).toBe("web.webpagedetails.pageViews");
  // The page's own web vitals are observed by the deferred second file (issue #21): the push waits until it has run.
  if (r.hide)
    await tab.page.waitForFunction(
      () =>
        performance.getEntriesByType("resource").some((e) => /\/sitetags\.defer\.[0-9a-f]{10}\.min\.js$/.test(e.name)) &&
        (window as any)[Symbol.for("sitetags.deferred")] === undefined,
      undefined,
      { timeout: 8000 },
    );
  await tab.page.evaluate((p) => (window as any).kiwiDataLayer.push(p), push);
  if (r.hide)
    await tab.page.evaluate(() => {
      Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
    });
  return tab;
}

describe("each documented example push gives exactly its record on a production bundle; each invalid variant none", () => {
  for (const [event, r] of recorded) {
    it(`${event} on prod/${r.site} (${r.by}): ${r.record.name}`, async () => {
      await pushOnPage(r, pushOf(event));
      const all = await beaconCount(2);
      await settle(300);
      expect(beacons().length).toBe(2);
      // A batch's metrics in any order (the page's own arrive from the deferred file; the spec orders none).
      const metrics = (v: Record<string, string>) => (v.eVar94 === undefined ? v : { ...v, eVar94: v.eVar94.split("|").sort().join("|") });
      const got = recordOf(all[1]);
      expect({ ...got, variables: metrics(got.variables) }).toEqual({ ...r.record, variables: metrics({ ...ANONYMOUS_IDENTITY, ...r.record.variables }) });
    });
    for (const bad of r.invalid ?? [])
      it(`${event} on prod/${r.site}: ${bad.why}: no record${bad.log ? `, '${bad.log}'` : ""}`, async () => {
        const tab = await pushOnPage(r, pushOf(event, bad.fields));
        await settle(500);
        expect(beacons().length).toBe(1);
        if (bad.log) expect((await tab.logEntries()).map((e) => e.message)).toContain(bad.log);
      });
  }
});

// recA (issue 18): records that need more than one push, or a push beyond the example.
describe("records across pushes (recA, issue 18)", () => {
  const quiz = RECORDED["career-quiz"]!;
  const hed = RECORDED["hed-search"]!;
  const lastRecord = async (n: number) => {
    const all = await beaconCount(n);
    await settle(300);
    expect(beacons().length).toBe(n);
    return recordOf(all[n - 1]).variables;
  };
  it('career quiz on prod/careersearch: "start records start time; completion records stop time and duration, then resets both"; complete=1 and timeToComplete; "question pages (first, middle, last)"', async () => {
    const tab = await pushOnPage(quiz, pushOf("career-quiz"));
    await beaconCount(2);
    // The start was kept in session storage; make it 90 s old, as if the visitor took that long.
    const kept = await tab.page.evaluate(() => {
      const key = "sitetags:timer:careerQuiz:start";
      const start = sessionStorage.getItem(key);
      sessionStorage.setItem(key, String(Number(start) - 90_000));
      return start;
    });
    expect(Number(kept)).toBeGreaterThan(0);
    // Task "rec": a page that neither starts nor completes the quiz is a middle question page.
    await tab.page.evaluate((p) => (window as any).kiwiDataLayer.push(p), pushOf("career-quiz", { start: undefined, currentPage: 3, latestPage: 3 }));
    expect((await lastRecord(3)).eVar245).toBe("middle");
    const complete = pushOf("career-quiz", { start: undefined, complete: 1, pageName: "career-quiz:results", pageState: "last", currentPage: 6 });
    await tab.page.evaluate((p) => (window as any).kiwiDataLayer.push(p), complete);
    const variables = await lastRecord(4);
    expect(variables.events).toBe("event120,event121");
    expect(variables.eVar171).toBe("last");
    expect(variables.eVar245).toBe("last");
    expect(Number(variables.eVar177)).toBeGreaterThanOrEqual(90);
    expect(Number(variables.eVar177)).toBeLessThan(120);
    // Reset: nothing of the timer is left for the next quiz.
    expect(await tab.page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith("sitetags:timer:")))).toEqual([]);
    // "timeToComplete in seconds (0 if not a number)": a completion without a start.
    await tab.page.evaluate((p) => (window as any).kiwiDataLayer.push(p), complete);
    expect((await lastRecord(5)).eVar177).toBe("0");
  });
  it('HED search on prod/collegesearch: "Six-month flag: last order 6+ months old" from lastOrderDate, or as pushed', async () => {
    const tab = await pushOnPage(hed, pushOf("hed-search", { lastOrderDate: "2020-01-15" }));
    expect((await lastRecord(2)).eVar195).toBe("true");
    await tab.page.evaluate((p) => (window as any).kiwiDataLayer.push(p), pushOf("hed-search", { lastOrderDate: new Date().toISOString().slice(0, 10) }));
    expect((await lastRecord(3)).eVar195).toBe("false");
    await tab.page.evaluate((p) => (window as any).kiwiDataLayer.push(p), pushOf("hed-search", { sixMonthsAgo: true }));
    expect((await lastRecord(4)).eVar195).toBe("true");
  });
});

// Task "rec" (issue 18): "lists on every site that has them, and the no-... list states".
describe("lists on every site that has them (rec, issue 18)", () => {
  const push = (tab: Awaited<ReturnType<typeof pushOnPage>>, p: Record<string, unknown>) => tab.page.evaluate((x) => (window as any).kiwiDataLayer.push(x), p);
  const records = async (n: number) => {
    const all = await beaconCount(n);
    await settle(300);
    expect(beacons().length).toBe(n);
    return all.slice(1).map(recordOf);
  };
  const withIdentity = (r: Record_): Record_ => ({ ...r, variables: { ...ANONYMOUS_IDENTITY, ...r.variables } });
  for (const [site, list] of Object.entries(LIST_SITES)) {
    if (list === "majors") {
      it(`major-add on prod/${site}: "Major lists: size 1 fires the new-list event"; listSize not an integer: no record`, async () => {
        const tab = await pushOnPage({ site, by: "", record: RECORDED["major-add"]!.record }, pushOf("major-add"));
        await push(tab, pushOf("major-add", { listSize: "2" }));
        await push(tab, pushOf("major-add", { itemName: "Chemistry", listSize: 2 }));
        expect(await records(3)).toEqual([
          withIdentity(RECORDED["major-add"]!.record),
          withIdentity({
            ...RECORDED["major-add"]!.record,
            variables: { ...RECORDED["major-add"]!.record.variables, events: "event57", eVar104: "Chemistry", prop95: "2" },
          }),
        ]);
      });
      continue;
    }
    const { itemType, state } = list;
    it(`list-change and list-view on prod/${site} (${itemType}): add, remove, the ${state} and no-${state} states; no itemName, a size "3": no record`, async () => {
      const change = { changeType: "added-list-item", itemType, itemName: "Kiwi Item", itemId: "77", sourceUi: "search", newTotalItemsInList: 2 };
      const tab = await pushOnPage({ site, by: "", record: RECORDED["list-change"]!.record }, pushOf("list-change", change));
      await push(tab, pushOf("list-change", { ...change, changeType: "removed-list-item", newTotalItemsInList: 1 }));
      await push(tab, pushOf("list-change", { ...change, itemName: undefined }));
      await push(tab, pushOf("list-change", { ...change, newTotalItemsInList: "3" }));
      await push(tab, pushOf("list-view", { itemType, itemListSize: 0, pageState: `no-${state}` }));
      await push(tab, pushOf("list-view", { itemType, itemListSize: 1, pageState: state }));
      await push(tab, pushOf("list-view", { itemType, itemListSize: "1", pageState: state }));
      const item = { eVar101: itemType, eVar102: "Kiwi Item", eVar103: "77", prop94: "search" };
      const expected: Record_[] = [
        { eventType: "kiwi.listChange", name: `list:add:${itemType}`, variables: { events: "event53", ...item, prop95: "2" } },
        { eventType: "kiwi.listChange", name: `list:remove:${itemType}`, variables: { events: "event54", ...item, prop95: "1" } },
        { eventType: "kiwi.listView", name: "list:view", variables: { events: "event58", eVar101: itemType, prop95: "0", prop97: `no-${state}` } },
        { eventType: "kiwi.listView", name: "list:view", variables: { events: "event58", eVar101: itemType, prop95: "1", prop97: state } },
      ];
      expect(await records(5)).toEqual(expected.map(withIdentity));
    });
    it(`list-milestone on prod/${site}: "List milestones: first, third and sixth item added (known user)": a signed-in visitor's third item carries event61 on the add's beacon, the second none`, async () => {
      const change = { changeType: "added-list-item", itemType, itemName: "Kiwi Item", itemId: "77", sourceUi: "search", newTotalItemsInList: 3 };
      const tab = await pushOnPage({ site, by: "", record: RECORDED["list-change"]!.record }, pushOf("list-change", change), SIGNED_IN);
      await push(tab, pushOf("list-change", { ...change, newTotalItemsInList: 2 }));
      const [third, second] = await records(3);
      expect([third!.name, second!.name]).toEqual([`list:add:${itemType}`, `list:add:${itemType}`]);
      expect([third!.variables.events, second!.variables.events]).toEqual(["event61,event53", "event53"]);
    });
  }
});

// Task "rec" (issue 18): a purchase of every kind, its kind from the purchase-id prefix by section 9's table.
describe("purchases of every kind on the sites with a purchase flow (rec, issue 18)", () => {
  const r = RECORDED.purchase!;
  for (const [site, kinds] of Object.entries(PURCHASE_SITES))
    it(`purchase on prod/${site}: ${kinds.map(([p, k]) => `${p}: ${k}`).join(", ")} (the kind from the purchase-id prefix); no id: no record`, async () => {
      // The first as the SAT funnel's orders are (an order id, the prefix apart), the others with the prefix in the id too.
      const purchase = (p: string, i: number) =>
        pushOf("purchase", { transaction: { type: `Kind ${p}`, id: i === 0 ? "R123" : `${p}-1001`, purchaseIdPrefix: p } });
      const tab = await pushOnPage({ ...r, site }, purchase(kinds[0][0], 0));
      for (let i = 1; i < kinds.length; i++) await tab.page.evaluate((x) => (window as any).kiwiDataLayer.push(x), purchase(kinds[i][0], i));
      await tab.page.evaluate((x) => (window as any).kiwiDataLayer.push(x), pushOf("purchase", { transaction: { type: "Kind so", purchaseIdPrefix: "so" } }));
      const all = await beaconCount(1 + kinds.length);
      await settle(300);
      expect(beacons().length).toBe(1 + kinds.length);
      expect(all.slice(1).map((b) => [recordOf(b).name, recordOf(b).variables.eVar180, recordOf(b).variables.eVar181])).toEqual(
        kinds.map(([p, kind], i) => [`purchase:Kind ${p}`, i === 0 ? "R123" : `${p}-1001`, kind]),
      );
      expect(recordOf(all[1])).toEqual({
        ...r.record,
        name: `purchase:Kind ${kinds[0][0]}`,
        variables: { ...ANONYMOUS_IDENTITY, ...r.record.variables, eVar180: "R123", eVar181: kinds[0][1], eVar182: `Kind ${kinds[0][0]}` },
      });
    });
});

// Task "rec" (issue 18): the CB web event's other kinds, each its own iam rule.
describe("cb-web-event on prod/iam: each kind its rule (rec, issue 18)", () => {
  const r = RECORDED["cb-web-event"]!;
  const kinds: Array<[string, Record<string, unknown>, string]> = [
    // "A login is counted unless the previous page name was a security check."
    ["login", { type: "login", isLogin: true, isReg: false }, "event600"],
    // "Legacy or migrate flows turn registration into migration or a registration match"; "then login is true".
    ["migration", { type: "migration", isLogin: true, isReg: false, isMigration: true }, "event600,event602"],
    ["registration-match", { type: "registration-match", isLogin: true, isReg: false, isRegMatch: true }, "event600,event603"],
  ];
  for (const [kind, fields, events] of kinds)
    it(`cb-web-event type ${kind} (iam rule cb-web-event-${kind}): cb web event:${kind}, ${events}`, async () => {
      await pushOnPage(r, pushOf("cb-web-event", fields));
      const all = await beaconCount(2);
      await settle(300);
      expect(beacons().length).toBe(2);
      expect(recordOf(all[1])).toEqual({
        eventType: "kiwi.cbWebEvent",
        name: `cb web event:${kind}`,
        variables: { ...ANONYMOUS_IDENTITY, events, eVar219: kind },
      });
    });
});

// Task "rec" (issue 18): what the tag-settings and traffic-source actions keep, on the shipped bundles.
describe("tag-settings and traffic-source keep what the later checks read (rec, issue 18)", () => {
  it('tag-settings on prod/newsroom: a pushed disabled status is kept where the tag check reads it ("a stored status is reused unless a fresh evaluation is forced")', async () => {
    const tab = await pushOnPage(RECORDED["tag-settings"]!, pushOf("tag-settings", { status: "disabled" }));
    const all = await beaconCount(2);
    expect(recordOf(all[1]).variables.eVar247).toBe("disabled");
    const kept = await tab.page.evaluate(() => [sessionStorage.getItem("sitetags:tag:chat"), document.cookie]);
    expect(JSON.parse(kept[0]!)).toEqual({ status: "disabled", reason: "configuration" });
    expect(kept[1]).toContain("sitetags_tag_status=1");
  });
  it('traffic-source on prod/events: the pushed touch is in the next page view\'s history ("a visit with a new campaign different from the previous is recorded")', async () => {
    const r = RECORDED["traffic-source"]!;
    const tab = await pushOnPage(r, pushOf("traffic-source"));
    await beaconCount(2);
    const host = bundles[r.site].config.hosts.prod![0];
    await tab.goto(h.web.page(`https://${host}/next`, { bundle: bundles[r.site] }));
    // The first page's web vitals go as it is left: the next page view is the second page-view record.
    const views = async () => (await beaconCount(0)).map(recordOf).filter((b) => b.eventType === "web.webpagedetails.pageViews");
    for (let i = 0; i < 400 && (await views()).length < 2; i++) await settle(25);
    // The first page was a direct visit (no referrer, no tracking code): first channel Direct; the pushed Email touch is the latest.
    expect((await views())[1]?.variables).toMatchObject({ eVar86: "spring-sat-2025", eVar90: "Direct", eVar91: "Email" });
  });
});

// Task "tags" (#20 guided help): every flag at once on one page, and the flow error's application error.
it('guided-help on prod/apclassroom: "flags for impression, step impression, interaction, time spent, complete, dismiss, error" each add their event; "Guided-help flow error: code with type \'AppCues\'" is an application error record too', async () => {
  const r = RECORDED["guided-help"]!;
  const flags = { impression: true, stepImpression: true, interaction: true, timeSpent: true, complete: true, dismiss: true, error: true };
  const action = { flowActionStep: "next", flowActionElement: "button.cta", flowActionSubmit: "yes", flowActionUrl: "https://apclassroom.kiwi.example/help" };
  await pushOnPage(r, pushOf("guided-help", { ...flags, ...action, stepImpression: "true" }));
  const all = await beaconCount(3);
  await settle(300);
  expect(beacons().length).toBe(3);
  expect(recordOf(all[1])).toEqual({
    ...r.record,
    variables: {
      ...ANONYMOUS_IDENTITY,
      ...r.record.variables,
      events: "event171,event172,event173,event174,event175,event176,event177,event170",
      eVar233: "next",
      eVar234: "button.cta",
      eVar235: "yes",
      eVar236: "https://apclassroom.kiwi.example/help",
    },
  });
  expect(recordOf(all[2])).toEqual({
    eventType: "kiwi.applicationError",
    name: "error:f-123",
    variables: { ...ANONYMOUS_IDENTITY, events: "event50", eVar97: "Onboarding", eVar98: "AppCues" },
  });
});

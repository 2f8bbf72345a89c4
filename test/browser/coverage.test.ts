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
import { buildBundles, CONSENT, settle, useBrowserHarness, type Bundle, type RecordedRequest } from "./harness/index.js";

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
}

/** The pushes recorded today, with their records (numbers: sites/*.yaml; placeholders to confirm except section 9's). */
const RECORDED: Partial<Record<DataLayerEvent, Recorded>> = {
  modal: {
    site: "help",
    by: "org rule modal",
    record: { eventType: "kiwi.modal", name: "modal:checklist:shown", variables: {} },
    invalid: [{ why: "no modalName", fields: { modalName: undefined } }],
  },
  "form-submit": {
    site: "help",
    by: "org rule form-submit",
    record: { eventType: "kiwi.formSubmit", name: "form:newsletter-signup", variables: { events: "event51", eVar99: "newsletter-signup", prop91: "" } },
    invalid: [{ why: "no formName", fields: { formName: undefined } }],
  },
  "application-error": {
    site: "help",
    by: "org rule application-error",
    record: {
      eventType: "kiwi.applicationError",
      name: "error:bf-ui-failure",
      variables: { events: "event50", eVar97: "adding-college:University of Kiwi", eVar98: "ui" },
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
    by: "testday rules vouchers-order, vouchers-order-unknown-action, vouchers-order-no-id",
    record: {
      eventType: "kiwi.vouchersOrder",
      name: "vouchers:order-new",
      variables: { events: "event62", eVar109: "V-5521", eVar110: "order-new", prop98: "25", prop99: "1500" },
    },
    invalid: [
      { why: '"Voucher order without id: warned, skipped"', fields: { id: undefined }, log: "vouchers order ID missing" },
      { why: '"unknown action is warned and ignored"', fields: { action: "order-cancel" }, log: "voucher action type not recognized" },
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
  // Task "tags" (#20 guided help, #18's records): apclassroom's guided-help rules; each flag pushed true adds its event (step impression: event172).
  "guided-help": {
    site: "apclassroom",
    by: "apclassroom rules guided-help, guided-help-step-impression (and the other flags' rules)",
    record: {
      eventType: "kiwi.guidedHelp",
      name: "guided help:f-123",
      variables: {
        events: "event172,event170",
        eVar170: "f-123",
        eVar171: "Onboarding",
        eVar172: "2",
        eVar173: "",
        eVar174: "",
        eVar175: "",
        eVar176: "",
        eVar177: "85",
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
      variables: { events: "event178", eVar170: "s-77", eVar171: "Was this helpful?", eVar178: "4", eVar179: "clear" },
    },
    invalid: [{ why: "no flowId", fields: { flowId: undefined } }],
  },
};

/** What is left of issue 18: documented pushes nothing records yet, and what each needs. */
const NOT_YET: Partial<Record<DataLayerEvent, string>> = {
  "career-quiz": "the session-storage timer capability (start and stop time, timeToComplete, complete=1)",
  purchase: "the purchase-id prefix lookup table and the products string (category;quantity;price)",
  "clep-order": "the products string with prices (examRegCount, transaction)",
  "hed-search": "the date-age check (six-month flag) and the filter list join",
  "award-download": "rules on the NRP site (award, application and download lists; join with fields serves them)",
  "ap-score-view": "the score-portal helpers wired (maxApTestYear) or deleted",
  "ap-score-send": "the score-portal helpers wired (total sent, DI codes once each) or deleted",
  "score-send": "the score-portal helpers wired (total sent, codes once each, dedupe key) or deleted",
  "comms-opt-in": 'the "only the fields that changed to yes" capability',
  "k12-app-user": "appUser as context variables (role: organisation type plus access type, access type winning)",
  "k12-app-page": "appPage as context variables (domain educator edu, student stu)",
  "privacy-change": "the push wired to the consent service (the banner's changes are recorded by the runtime)",
  "traffic-source": "the push wired to the traffic-source history (the runtime records parameters and referrer itself)",
  "tag-settings": "the push wired to tag status (reuse unless a fresh evaluation is forced)",
  identity: "the push wired to the identity profile (the identity helper's area)",
  "cb-web-event": "the push recorded (the runtime derives cbWebEvent from page names for rules to read)",
  "registration-step": "a coverage case on satreg (recorded by the satFunnel module: its page path and flow)",
  video: "a coverage case on a video site (recorded by the video module)",
  "web-vitals": "an exact coverage case: the batch, sent when the page is hidden, also carries the page's own measured metrics (recorded by the runtime)",
  "link-click": "a coverage case (recorded by the runtime; the example needs an eventCode)",
};

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
async function beaconCount(n: number, timeoutMs = 5000): Promise<Beacon[]> {
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

const recorded = Object.entries(RECORDED) as Array<[DataLayerEvent, Recorded]>;
let bundles: Record<string, Bundle>;
beforeAll(async () => {
  const sites = [...new Set(recorded.map(([, r]) => r.site))];
  bundles = await buildBundles(Object.fromEntries(sites.map((s) => [s, [s, "prod"]])) as Record<string, [string, "prod"]>);
}, 600_000);

/** Opens the site's production page, waits for its page view, pushes, and returns the beacons after the page view, and the log. */
async function pushOnPage(r: Recorded, push: Record<string, unknown>) {
  const bundle = bundles[r.site];
  const host = bundle.config.hosts.prod![0];
  const tab = await h.browser.openPage(h.web.page(`https://${host}${r.path ?? "/"}`, { bundle }), { consentGroups: CONSENT.performance });
  const [view] = await beaconCount(1);
  expect(view && recordOf(view).eventType).toBe("web.webpagedetails.pageViews");
  await tab.page.evaluate((p) => (window as any).kiwiDataLayer.push(p), push);
  return tab;
}

describe("each documented example push gives exactly its record on a production bundle; each invalid variant none", () => {
  for (const [event, r] of recorded) {
    it(`${event} on prod/${r.site} (${r.by}): ${r.record.name}`, async () => {
      await pushOnPage(r, pushOf(event));
      const all = await beaconCount(2);
      await settle(300);
      expect(beacons().length).toBe(2);
      expect(recordOf(all[1])).toEqual({ ...r.record, variables: { ...ANONYMOUS_IDENTITY, ...r.record.variables } });
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
      eVar173: "next",
      eVar174: "button.cta",
      eVar175: "yes",
      eVar176: "https://apclassroom.kiwi.example/help",
    },
  });
  expect(recordOf(all[2])).toEqual({
    eventType: "kiwi.applicationError",
    name: "error:f-123",
    variables: { ...ANONYMOUS_IDENTITY, events: "event50", eVar97: "Onboarding", eVar98: "AppCues" },
  });
});

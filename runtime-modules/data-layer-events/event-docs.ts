/**
 * The prose of docs/events.md: for each event in shapes.ts, when to push it,
 * an example push (type-checked against the event's fields, and checked by a
 * unit test to pass validatePush) and notes on fields, from the product spec.
 * Never imported by runtime code, so it never reaches a bundle.
 */
import type { DataLayerEvent, EventFields } from "./types";

export interface EventDoc<E extends DataLayerEvent> {
  /** When an application pushes it (one or two sentences). */
  when: string;
  /** The example push, without `event`. */
  example: EventFields<E>;
  /** Notes by field path ("searchData.term", "tests.name"). */
  notes?: { [path: string]: string };
  /** Set when the push records nothing by design (context for other records, a request): why (test/browser/coverage.test.ts). */
  recordsNothing?: string;
}

export const EVENT_DOCS = {
  "page-view": {
    when: "A single-page application shows a new view (the bundle counts the first page view of a page load by itself).",
    example: { flowCode: "reg", pageCode: "enter-data" },
    notes: {
      pageName: "A full page name; when absent the bundle composes it from site code, flow code, page code and view code, joined by '/' (':' in app style).",
      flowCode: "e.g. reg, login, forgotpw.",
      pageCode: "e.g. enter-data, success. UUID-shaped parts become the word uuid.",
      viewCode:
        "The state of the page, e.g. the score portal's (spec section 2) pageCode dashboard with viewCode latest-shown, coming, pending or no-scores, and score-sends with empty; its other pages are login-page, score-landing, score-overview, score-report, score-details, skills-insight, test-questions, merit-scholarship-eligibility, essay-details, assessment-loading and ap-potential (scores:dashboard:latest-shown).",
      errorCode:
        "This is an error page. 404, 500, down, highvolume, 403 and 422 (any case) name the site's error page (site/404errorpage, site/downpage, ...); another code gives site, page and code.",
    },
  },
  "link-click": {
    when: "A link or link-like control is clicked that the bundle cannot see as a plain link (it classifies plain links itself).",
    example: {
      linkType: "feature",
      linkName: "compare colleges",
      linkUrl: "https://bigfuture.kiwi.example/compare",
      eventCode: "event59",
      pathingHit: true,
      hasData: true,
    },
    notes: {
      linkType: "Link flags: search result, promo, nav, external, download, feature; mailto and tel are the tracked protocols.",
      linkName: "Link text, lowercased and cut to 40 characters (feature text: 50).",
      linkUrl: "Addresses starting with clkg/ or clkn/ plus http are unwrapped; redacted parameters are removed.",
      eventCode: "The analytics event code; a link-track payload without one is logged ('no event code found in link track payload').",
      pathingHit: "Each link flag comes with a pathing hit.",
      hasData: "The link-track rule proceeds only with hasData.",
    },
  },
  "promo-click": {
    when: "A promotion (banner, card, carousel slide) is clicked.",
    example: { name: "tnt:spring-sat-reminder", destination: "https://satsuite.kiwi.example/register" },
    notes: { name: "Cut to 40 characters.", targeted: "Defaults to whether the name starts with tnt:." },
  },
  modal: {
    when: "A modal dialog is shown or hidden.",
    example: { modalName: "checklist", modalState: "shown", hostPage: "bigfuture/dashboard" },
    notes: { hostPage: "The page the modal opens over." },
  },
  "form-submit": {
    when: "A form is submitted successfully.",
    example: { formName: "newsletter-signup" },
    notes: { formStep: "For a form over several steps, the step submitted." },
  },
  "contact-us": {
    when: "A tile of the contact-us page is chosen.",
    example: { tileName: "sat-registration" },
    notes: { tileName: "Skipped if missing." },
  },
  "checklist-task": {
    when: "A task of the checklist page or modal is marked complete, opened or acted on.",
    example: { taskName: "build-your-college-list", action: "task-marked-complete" },
    notes: { taskName: "Checklist events are skipped if required data is missing." },
  },
  search: {
    when: "Internal search results are shown (including no results).",
    example: { term: "nursing", type: "college", count: 42, facet: "major|location", isQuick: false, hasData: true },
    notes: {
      term: "Without a term the search is skipped. Count 0 or a no-results marker prefixes it with 'null:'. Duplicate identical searches are suppressed.",
      type: "Without a type: 'no search type entered' (a type without a term gets the term 'no search phrase entered'). Type 'college' marks a quick search; bfcs_spirit is renamed bfcs. Sets the search event (site/prof/generic-site event3, college event4, scholarship event26, ...; docs/tracking.md).",
      count: "Number of results.",
      facet: "Facets, pipe-separated.",
      speed: "How long the search took.",
      nullifiedTerm: "The no-results marker: true puts 'null:' in front of the term, as count 0 does (once).",
      isSiteSearch: "A search of the site's own pages: without a type it is recorded with the site search code (bf_site, clep_site, ...; type 'site' too).",
      origTerm: "The term as typed, before any change.",
      hasData: "The internal-search page view fires only when search data exists or promo links are present.",
    },
  },
  "quick-search": {
    when: "A quick (type-ahead) search is made.",
    example: { term: "ucla", type: "quick-college" },
    notes: { term: "Required; lowercased.", type: "e.g. quick-college (event4), career-quick (event302), scholarship-quick (event378)." },
  },
  "search-result-click": {
    when: "A site search result is clicked.",
    example: {
      destination: "https://bigfuture.kiwi.example/colleges/university-of-kiwi",
      searchData: { term: "kiwi", type: "college", strFacet: "location", isQuick: false },
    },
    notes: { "searchData.strFacet": "Facets, pipe-separated." },
  },
  "list-change": {
    when: "An item is added to or removed from a saved list (colleges, careers, scholarships).",
    example: {
      changeType: "added-list-item",
      itemType: "college",
      itemName: "University of Kiwi",
      itemId: "1234",
      sourceUi: "college-profile",
      newTotalItemsInList: 3,
    },
    notes: {
      itemType: "Required (else warning, no record).",
      itemName:
        "Required (else warning, no record). A failed add in the UI is an application-error with code bf-ui-failure, message adding-{itemType}:{itemName}.",
      newTotalItemsInList:
        "Required integer (else warning 'required data missing', no record). For a known user, the first, third and sixth item added are milestones.",
    },
  },
  "list-view": {
    when: "A saved list is shown.",
    example: { itemType: "career", itemListSize: 0, pageState: "no-careers" },
    notes: { itemListSize: "Required integer.", pageState: "colleges, careers, scholarships, or the no-... variant when the list is empty." },
  },
  "major-add": {
    when: "A major is added to the student's major list.",
    example: { itemName: "Biology", listSize: 1, primaryInterest: "life-sciences", addMethod: "search" },
    notes: { listSize: "Size 1 fires the new-list event; size 5 fires list-full (logged-in users only)." },
  },
  "career-quiz": {
    when: "A page of the career quiz is shown or answered: the first question page starts the quiz, the last completes it.",
    example: {
      pageName: "career-quiz:question",
      funnelId: "cq-2024",
      questionsVersion: "v3",
      currentPage: 1,
      latestPage: 1,
      questionsTotal: 30,
      questionsPerPage: 5,
      start: 1,
    },
    notes: {
      start: "1 on the page that starts the quiz (the spec records the start time then).",
      complete: "1 on the page that completes the quiz (the spec records the stop time and timeToComplete in seconds, 0 if not a number, then resets both).",
      pageState: "Funnel stage, e.g. first, middle or last question page.",
    },
  },
  "registration-step": {
    when: "A page of a SAT registration flow is shown or acted on (page named flow:page).",
    example: {
      flow: "newreg",
      page: "datetc-choosecenter",
      satRegNo: "R123456",
      adminDate: "2024/10/05",
      adminCode: "OCT24",
      registrantType: "repeat",
      steps: [{ page: "datetc-choosecenter", action: "view", pageReach: 1 }],
    },
    notes: {
      flow: "newreg (new registration), changereg, cancelreg, answersvc (answer service), satregconc (concise).",
      page: "e.g. start, profile-start, datetc-choosedate, photo-upload, order-review, order-complete (the terminal step).",
      adminDate: "yyyy/mm/dd as the page shows it; recorded as yyyymmdd.",
      registrantType: "repeat (any casing, or containing it) or other.",
      feeWaiver: "Fee waiver states reached; fwType is code, benefit or none.",
      deviceChoice: "N/A blanks it.",
      "steps.pageReach": "1 the first time the page is reached in this funnel, else 0.",
    },
  },
  "funnel-widget": {
    when: "The SAT funnel widget is used: a code entered, terms of service deferred, accepted or declined.",
    example: { action: "tos-accept" },
  },
  "test-order": {
    when: "A SAT School Day or PSAT-family test order is placed or edited.",
    example: {
      orderId: "TO-2024-0042",
      tests: [
        { name: "PSAT/NMSQT", previousOrderQty: 120, updatedOrderQty: 150, adminYear: "2024", semester: "fall", grades: ["10", "11"], allocatedSchools: 12 },
      ],
      billing: true,
      contractCells: ["-", "-"],
    },
    notes: {
      "tests.updatedOrderQty": "An edit is labelled increased or decreased with the amount.",
      "tests.grades": "Grades added or removed are recorded for edits.",
      "tests.allocatedSchools": "Scaled: under 10 is 1, 10-50 is 2, over 50 is 3.",
      contractCells: "Coverage is contract if any cell differs from a dash, else transactional.",
    },
  },
  "test-admin-summary": {
    when: "A test-order page shows its administrations.",
    example: { admins: ["SAT School Day", "PSAT 10"], schoolLabel: "Lincoln High (Springfield) (123456)", date: "2024/10/16", inContract: true },
    notes: {
      admins: "Each must be SAT School Day, PSAT/NMSQT, PSAT 10 or PSAT 8/9 (else an error); recorded as sat, pn, p10, p89.",
      schoolLabel: "The school code (aiCode) is the text in its last brackets.",
      date: "Required; recorded as yyyymmdd.",
    },
  },
  "vouchers-order": {
    when: "A vouchers order is placed, edited or downloaded on the test-day tool.",
    example: { action: "order-new", id: "V-5521", quantity: 25, maxCostUsd: 1500 },
    notes: {
      action: "An unknown action is warned ('voucher action type not recognized') and ignored.",
      id: "Without an id: warned ('vouchers order ID missing'), skipped.",
    },
  },
  "score-view": {
    when: "A page that shows SAT or PSAT scores has its score records (score-report, hub score, registration-flow and dashboard pages only).",
    example: {
      scores: [
        {
          admin_event: {
            asmt_event_id: "5501",
            asmt_family_cd: 1,
            event_title: "SAT School Day",
            event_start_dt: "2024-10-16",
            admin_yyyymm: "202410",
            asmt_id: "99",
          },
          assessmentIndicators: { scoreAvailableInd: "Y" },
        },
      ],
    },
    notes: {
      scores: "After score tracking, score data in the data layer is reset.",
      "scores.admin_event.asmt_event_id": "Without it: 'admin_event.asmt_event_id not found for this score'.",
      "scores.admin_event.asmt_family_cd": "1 SAT (School Day suffix from the title), 2 SAT Subject Test, 3 PSAT.",
      "scores.admin_event.event_title": "PSAT variants: PSAT/NMSQT, PSAT 10, PSAT 8/9, optional Contract marker.",
      "scores.assessmentIndicators.scoreAvailableInd": "Without an available score: 'Latest score not available'.",
      "scores.satRegId": "Legacy registration id, used only for events before March 2023 (uppercased).",
    },
  },
  "ap-score-view": {
    when: "An AP score page is shown.",
    example: { testYears: [2023, "2024"] },
    notes: { testYears: "Recorded as maxApTestYear, the latest year among them (numbers or numeric texts)." },
  },
  "ap-score-send": {
    when: "AP scores are sent to institutions.",
    example: { diCodes: ["1234", "5678"] },
    notes: { diCodes: "Recorded as the total sent and the DI codes, pipe-separated, each once." },
  },
  "score-send": {
    when: "SAT scores are sent to institutions.",
    example: { institutionCodes: ["4321", "8765"], orderId: "SS-1001" },
    notes: { institutionCodes: "Recorded as the total sent and the codes, pipe-separated, each once.", orderId: "The dedupe key (else the sorted codes)." },
  },
  "score-match": {
    when: "A score is matched to the student's account.",
    example: { matchType: "auto" },
    notes: { matchType: "Trimmed and lowercased; a blank one is not recorded." },
  },
  "award-download": {
    when: "A National Recognition Program award document is downloaded.",
    example: {
      award: { id: "nrp-ahsp", name: "National African American Recognition Program", year: 2024 },
      downloads: [{ id: "nrp-ahsp", name: "Award letter", year: 2024 }],
    },
    notes: { application: "The program application: program id, name, year.", downloads: "The documents downloaded: id, year, name." },
  },
  purchase: {
    when: "An order is completed in the store, score sends, answer services, search licensing or another purchase flow.",
    example: {
      transaction: { type: "Answer Services", id: "sa-778899", purchaseIdPrefix: "sa" },
      products: [{ id: "qas", category: "answer-services", quantity: 1, price: 18 }],
    },
    notes: {
      "transaction.id": "Required (no id: no record).",
      "transaction.purchaseIdPrefix":
        "The purchase's kind, by section 9's table: answer services sa, AP score sending as, event app be, search licensing hsl, plans hsp, CLEP cp, online meeting ev, online store so, SAT registration sr, cancel sx, change sc, score sends ss (another prefix: no kind).",
      "products.diCode": "For AP score sends.",
      productsView: "Ids of the products shown.",
    },
  },
  "clep-order": {
    when: "A CLEP exam registration order is completed.",
    example: {
      examRegCount: 2,
      transaction: { type: "CLEP", id: "cp-1122", purchaseIdPrefix: "cp" },
      products: [
        { id: "clep-biology", price: 93 },
        { id: "clep-spanish", price: 93 },
      ],
    },
  },
  "hed-search": {
    when: "A higher-education search plan is purchased or records are licensed.",
    example: {
      action: "purchase-plan",
      subscriptionYear: 2025,
      subscriptionPlan: "annual",
      currentPlan: "basic",
      planPurchased: "premium",
      filters: [{ name: "state", value: "CA" }],
    },
    notes: {
      filters: "Filter list: name and value.",
      sixMonthsAgo: "True when the last order is six or more months old.",
      licensingOrdered: "Licensing ordered: order volume and final filter.",
    },
  },
  "event-app": {
    when: "The event app shows or registers for events (global meets).",
    example: { category: "college-fair", globalMeetIds: ["gm-1", "gm-2"], views: 2, registrations: 1 },
  },
  video: {
    when: "A video player reports a playback event. On the sites with the video module, the module pushes these for the platform's embedded players (docs/modules.md, \"Video\"); a page's own player may push them too. Both are recorded the same way.",
    example: {
      videoEvent: "milestone",
      videoId: "a1B2_c3-D4",
      videoTitle: "How to register",
      videoType: "video-on-demand",
      videoDuration: 184,
      videoCurrentTime: 60,
      videoMilestone: "60s",
    },
    notes: {
      videoEvent:
        "As the spec names them: playing is started on the first play, replayed after an end, resumed after a pause; an event identical to the previous one is not pushed again. Milestones at 30, 60, 90, 120 s.",
      videoId: "Letters, digits, underscore and hyphen.",
      videoVolume: "Integer 0-100.",
      videoMilestone: "Ends in s or %; percent milestones are ignored for live video.",
      videoPlayedSegmentTime: "Integer seconds, at least 0; with removed, buffering, cued, ended or paused events.",
      videoPlayedTotalTime: "Integer seconds, at least 0; on removal played time is added to the total.",
      errorCode: "Integer above 0, with an error event: 2 invalid parameter, 5 not playable in HTML5, 100 not found, 101 and 150 embedding not allowed.",
      errorMessage: "With an error event; recorded as 'player:code:message', type Video Player.",
      videoLoadedFraction: "A number at least 0.",
      videoPlaybackRate: "A number at least 0.",
    },
  },
  "web-vitals": {
    when: "A batch of page-performance metrics is ready (the bundle collects them itself where it can).",
    example: {
      metrics: [
        { name: "LCP", rating: "good", navigationType: "navigate", delta: 1830 },
        { name: "CLS", rating: "good", navigationType: "navigate", delta: 0.02 },
      ],
    },
    notes: { "metrics.delta": "CLS delta times 1000 rounded; others rounded." },
  },
  "application-error": {
    when: "The application hits an error worth counting (failed call, session timeout, UI failure).",
    example: {
      code: "bf-ui-failure",
      message: "adding-college:University of Kiwi",
      type: "ui",
      page: "bigfuture/college-profile",
      actionSource: "add-to-list",
    },
    notes: {
      code: "Recorded with count 1; skipped if no data. Payment-page errors and session timeouts get the application id and flow code appended.",
      type: "e.g. AppCues for guided-help errors, Video Player for player errors.",
    },
  },
  "privacy-change": {
    when: "Consent for a category changes outside the consent banner (the bundle records banner changes itself).",
    example: { status: "out", type: "marketing", region: "US-CA", actionSource: "preference-center" },
    notes: { status: "The category's consent after the change.", region: "'No Data' when unknown." },
  },
  "opt-in-change": {
    when: "The user opts in, out or back in to a programme or communication.",
    example: { changeType: "optin", action: "student-search", actionSource: "profile" },
    notes: { changeType: "Without a change type the push is skipped." },
  },
  "comms-opt-in": {
    when: "Communication preferences are saved.",
    example: { identityKey: "abc123", email: "yes", sms: "no" },
    notes: { identityKey: "Required.", email: "Only channels changed to yes are tracked (email, sms, parentData, ccParent, parentEmail)." },
  },
  identity: {
    when: "An application that knows the signed-in user better than the sign-in cookies (for example after a profile edit) reports them.",
    recordsNothing:
      "Context: its checked values win over the sign-in cookies' in the identity every later record of the page carries (a signed-in visitor only; docs/identity.md). A value that fails its check is warned (identity value dropped) and not sent.",
    example: {
      accountId: "1000234",
      namespace: "st",
      orgId: "No Data",
      graduationYear: 2026,
      gradeLevel: 11,
      studentSearchOptIn: true,
      roles: [{ roleId: "student", orgId: "No Data" }],
    },
    notes: {
      accountId: "A non-empty string.",
      namespace: "st student, pf professional.",
      orgId: "Defaults to 'No Data'.",
      graduationYear: "Must parse as a number (yyyy); professionals: Professional.",
      gradeLevel: "Not read: the bundle derives it from the graduation year (1 to 6; professionals: Professional).",
      jobTitle: "Students get Student.",
      roles: "Every item a role id and organisation id pair, else the list is dropped.",
    },
  },
  "cb-web-event": {
    when: "A sign-in, registration, migration or registration match completes (the bundle derives it from page names where it can).",
    example: { appId: "8", type: "registration", isLogin: true, isReg: true, isMigration: false, isRegMatch: false },
    notes: { type: "Legacy or migrate flows turn a registration into a migration or a registration match; a registration counts as a login." },
  },
  "traffic-source": {
    when: "An application with its own campaign tracking reports the visit's source (the bundle reads tracking parameters and the referrer itself).",
    example: { channel: "Email", campaign: "spring-sat-2025", emailMessage: "msg-42", recipientId: "r-9", segmentId: "s-3" },
    notes: {
      channel: "e.g. Email, SMS, Organic Search, Partner Sites, Social Media.",
      campaignPath: "Campaigns of the visit, ^-separated, cut to 100 characters.",
      firstChannel: "History expires after 60 days; direct visits do not overwrite an earlier non-direct one.",
    },
  },
  "guided-help": {
    when: "A guided-help flow is shown, stepped through, completed, dismissed or fails.",
    example: { flowId: "f-123", flowName: "Onboarding", flowStep: 2, stepTimeSpent: 85, stepImpression: true },
    notes: { stepTimeSpent: "In tenths of a second.", error: "A flow error is recorded as an application error with type AppCues." },
  },
  "guided-help-survey": {
    when: "A guided-help survey is shown, answered or dismissed.",
    example: { flowId: "s-77", flowName: "Was this helpful?", score: 4, feedback: "clear" },
  },
  dashboard: {
    when: "The student dashboard (/dashboard) is shown or a proxy card is used.",
    example: { appUserRole: "student", cards: ["practice", "scholarships"], optIn: true, proxyEvent: "practice" },
    notes: { dashboardState: "Only for the exceptional states: no-data, display-error, no-reg-no-score." },
  },
  "mysat-dashboard": {
    when: "The MySAT dashboard shows the device request status.",
    example: { deviceRequestStatus: "requested" },
  },
  qotd: {
    when: "A question of the day is answered.",
    example: { subject: "math", source: "email" },
  },
  inquiry: {
    when: "An admission inquiry is submitted to one or more schools.",
    example: { admissionTerm: "fall", admissionYear: 2026, submissions: [{ schoolId: "3456", schoolName: "University of Kiwi" }] },
  },
  "course-event": {
    when: "A course event happens: student registration, course enrolment, exam registration, asset upload, final submission.",
    example: { studentId: "s-1", courseId: "c-2", educationPeriodCode: 26, courseOrgId: "o-3", events: ["course-enrolment"] },
    notes: { events: "All five fields are needed.", educationPeriodCode: "Last two digits of the year, plus 1, plus 1 more from August." },
  },
  "school-program": {
    when: "A school programme activity is recorded.",
    example: { activityType: "sat-school-day", schoolId: "123456", schoolName: "Lincoln High", districtName: "Springfield" },
  },
  "k12-app-user": {
    when: "A K12 reporting application knows its user.",
    recordsNothing:
      "Context: the K12 role (organisation type plus access type, or role), organisation and grade level go on every later record of the page (k12reports rule k12-app-user; docs/identity.md).",
    example: { appUser: { orgType: "district", accessType: "admin", role: "educator", orgId: "1234|Springfield District", gradeLevel: "11" } },
    notes: {
      "appUser.orgType": "School or district organisation.",
      "appUser.accessType": "Overrides role: the K12 role is organisation type plus access type (district-admin), else plus role.",
      "appUser.orgId": "code|name.",
    },
  },
  "k12-app-page": {
    when: "A K12 reporting application shows a page.",
    example: { appPage: { domain: "edu", group: "reports", page: "summary", subPage: "sat", view: "table" } },
    notes: { "appPage.domain": "educator maps to edu, student to stu (edu and stu as they are); any other domain is not recorded." },
  },
  "k12-bi-report": {
    when: "A BI report starts, finishes with or without data, or is scheduled.",
    example: {
      biReport: {
        name: "score-summary",
        status: "finished-with-data",
        tab: "overview",
        orgLevel: "district",
        adminAcademicYear: "2024-25",
        facets: "relative-year|grades",
      },
    },
    notes: { "biReport.facets": "Facets such as relative year, grades, demographics, pipe-separated." },
  },
  "k12-user-action": {
    when: "A user acts in a K12 reporting application (search, export, filter).",
    example: { userAction: { key: "export", data: { format: "csv" } }, actionKey: "export" },
  },
  "product-locker": {
    when: "The product locker is filtered or acted on.",
    example: { actionKey: "filter", filterName: "subject", filterValue: "math" },
  },
  "question-bank-export": {
    when: "Questions are exported from the question bank.",
    example: { totalQuestions: 25, criteria: "math|algebra", pdfType: "student" },
    notes: { totalQuestions: "Recorded only if it parses to a non-zero number." },
  },
  "question-bank-filter": {
    when: "The question bank is filtered.",
    example: { filterInfo: "domain:algebra", reportName: "question-bank" },
    notes: { filterInfo: "Recorded only if present." },
  },
  "tag-settings": {
    when: "An application sets a tag's settings at run time.",
    example: { tagKey: "chat", settings: { environment: "qa", samplingRate: 1 }, status: "enabled" },
    notes: { tagKey: "Needs a tag key and settings.", status: "Defaults to enabled." },
  },
  "load-tags": {
    when: "An application asks the bundle to load the tags of a consent category at a lifecycle moment.",
    recordsNothing:
      "A request to the tag lifecycle: it loads the category's tags (each category and lifecycle pair once per page); the tags record what they record.",
    example: { consentType: "performance", lifecycleEvent: "dom-ready" },
    notes: {
      consentType:
        "Performance, Functional, Marketing, Program-Functional or Program-Marketing (any case); without it: 'missing consentType or lifecycleEvent'.",
    },
  },
  "personalization-decision": {
    when: "The bundle applies a personalisation decision: the edge answered a page view's proposition fetch (scope capture_ddl) with a proposition.",
    recordsNothing:
      "Pushed by the bundle, not by applications: YAML rules and data elements may read the decision's content; its display is notified to the edge (decisioning.propositionDisplay).",
    example: { scope: "capture_ddl", propositionId: "prop-1", content: [{ segment: "returning-student" }] },
    notes: { content: "The content of each of the proposition's items, in order." },
  },
} satisfies { [E in DataLayerEvent]: EventDoc<E> };

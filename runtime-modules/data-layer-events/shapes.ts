/**
 * The documented data-layer events: every event the product spec lists
 * (sections 1 and 3), its name and the fields of its push. The single source
 * of truth for the push types (types.ts), the non-production push check
 * (validate-push.ts), docs/events.md and the sitetags-events.d.ts that
 * scripts/events-doc.js prints. Literal data only: it ships in non-production
 * bundles, so the prose about each event lives in event-docs.ts.
 *
 * A field's type is a string: one or more members joined by "|", then "[]"
 * for a list of them, then "?" when the field is optional.
 *   members: string, number (finite), integer, boolean, unknown (anything),
 *            or a literal value ("added-list-item"; digits are a number: "1")
 *   "string"  "integer?"  "string|number"  "in|out"  "string[]?"  "a|b[]" (a list of a or b)
 * A nested object is an object of fields, a list of objects is [{ ...fields }];
 * either is optional when its key ends in "?" ("award?": { ... }).
 * Required vs optional follows spec section 5 where it says so.
 */

/** A field's type: a type string, an object of fields or a one-element list of one. */
export type FieldType = string | Fields | readonly [Fields];
export interface Fields {
  readonly [field: string]: FieldType;
}

export const EVENT_SHAPES = {
  /* ---- Pages, links, modals, forms ---- */
  "page-view": { pageName: "string?", flowCode: "string?", pageCode: "string?", viewCode: "string?", errorCode: "string|number?" },
  "link-click": {
    linkType: "searchResult|promo|nav|external|download|feature|mailto|tel",
    linkName: "string?",
    linkUrl: "string?",
    eventCode: "string?",
    pathingHit: "boolean?",
    hasData: "boolean?",
  },
  "promo-click": { name: "string", destination: "string?", targeted: "boolean?" },
  modal: { modalName: "string", modalState: "shown|hidden", hostPage: "string?" },
  "form-submit": { formName: "string", formStep: "string?" },
  "contact-us": { tileName: "string" },
  "checklist-task": { taskName: "string", action: "task-marked-complete|task-view-details|task-action-taken" },

  /* ---- Search ---- */
  search: {
    term: "string",
    type: "string?",
    count: "integer?",
    facet: "string?",
    speed: "number?",
    hasData: "boolean?",
    isQuick: "boolean?",
    isSiteSearch: "boolean?",
    nullifiedTerm: "boolean?",
    origTerm: "string?",
    pageStateCode: "string?",
  },
  "quick-search": { term: "string", type: "string?" },
  "search-result-click": { destination: "string", searchData: { term: "string", type: "string", strFacet: "string?", isQuick: "boolean?" } },

  /* ---- Lists, majors, career quiz ---- */
  "list-change": {
    changeType: "added-list-item|removed-list-item",
    itemType: "college|career|scholarship",
    itemName: "string",
    itemId: "string|number?",
    itemOrgName: "string?",
    sourceUi: "string?",
    newTotalItemsInList: "integer",
  },
  "list-view": {
    itemType: "college|career|scholarship?",
    itemListSize: "integer",
    pageState: "colleges|careers|scholarships|no-colleges|no-careers|no-scholarships?",
  },
  "major-add": { itemName: "string", listSize: "integer", primaryInterest: "string?", addMethod: "string?" },
  "career-quiz": {
    pageName: "string",
    funnelId: "string?",
    pageState: "string?",
    questionsVersion: "string?",
    answerPattern: "string?",
    responseCompletesQuiz: "boolean?",
    responsePattern: "string?",
    responseFromPage: "string?",
    responseSubmitted: "boolean?",
    start: "1?",
    complete: "1?",
    authoringState: "string?",
    reviewState: "string?",
    contentState: "string?",
    questionsTotal: "integer?",
    questionsPerPage: "integer?",
    currentPage: "integer?",
    latestPage: "integer?",
  },

  /* ---- SAT registration and test orders ---- */
  "registration-step": {
    flow: "newreg|changereg|cancelreg|answersvc|satregconc",
    page: "string",
    satRegNo: "string?",
    adminType: "string?",
    adminFormat: "string?",
    adminCode: "string?",
    adminDate: "string?",
    registrantType: "string?",
    feeWaiver: "claimed-code|offered-benefit|claimed-benefit[]?",
    deviceChoice: "string?",
    "steps?": [{ page: "string", action: "string", pageReach: "0|1" }],
    source: "string?",
    pathingHit: "boolean?",
    dedupers: "string[]?",
  },
  "funnel-widget": { action: "code-enter|tos-defer|tos-accept|tos-decline" },
  "test-order": {
    orderId: "string",
    tests: [
      {
        name: "string",
        previousOrderQty: "integer?",
        updatedOrderQty: "integer?",
        adminYear: "string?",
        regBy: "string?",
        semester: "string?",
        grades: "string[]?",
        previousGrades: "string[]?",
        allocatedSchools: "integer?",
      },
    ],
    billing: "boolean?",
    purchaseOrder: "boolean?",
    contractCells: "string[]?",
  },
  "test-admin-summary": { admins: "string[]", schoolLabel: "string", date: "string", inContract: "boolean?" },
  "vouchers-order": { action: "order-new|order-edit|order-download", id: "string|number", quantity: "integer?", maxCostUsd: "number?" },

  /* ---- Scores ---- */
  "score-view": {
    scores: [
      {
        admin_event: {
          asmt_event_id: "string|number",
          asmt_family_cd: "string|number",
          event_title: "string?",
          event_start_dt: "string?",
          admin_yyyymm: "string|number?",
          asmt_id: "string|number?",
        },
        "assessmentIndicators?": { scoreAvailableInd: "string|boolean|number?" },
        satRegId: "string?",
      },
    ],
  },
  "ap-score-view": { testYears: "string|number[]" },
  "ap-score-send": { diCodes: "string[]" },
  "score-send": { institutionCodes: "string[]", orderId: "string?" },
  "score-match": { matchType: "string" },
  "award-download": {
    "award?": { id: "string", name: "string", year: "string|number" },
    "application?": { programId: "string", name: "string", year: "string|number" },
    downloads: [{ id: "string", name: "string", year: "string|number" }],
  },

  /* ---- Purchases ---- */
  purchase: {
    transaction: { type: "string", id: "string", purchaseIdPrefix: "string?" },
    "products?": [{ id: "string", category: "string?", quantity: "integer?", price: "number?", diCode: "string?" }],
    productsView: "string[]?",
  },
  "clep-order": {
    examRegCount: "integer",
    transaction: { type: "string", id: "string", purchaseIdPrefix: "string?" },
    products: [{ id: "string", price: "number", quantity: "integer?" }],
  },
  "hed-search": {
    action: "purchase-plan|license-records",
    orderVolume: "integer?",
    "filters?": [{ name: "string", value: "string" }],
    subscriptionYear: "string|number?",
    subscriptionPlan: "string?",
    lastOrderDate: "string?",
    recordsRemaining: "integer?",
    department: "string?",
    fileUploads: "integer?",
    sixMonthsAgo: "boolean?",
    currentPlan: "string?",
    futurePlan: "string?",
    planPurchased: "string?",
    "licensingOrdered?": { orderVolume: "integer", finalFilter: "string?" },
  },
  "event-app": { category: "string", globalMeetIds: "string[]?", views: "integer?", registrations: "integer?" },

  /* ---- Media and performance ---- */
  video: {
    videoEvent:
      "api-changed|autoplay-blocked|quality-changed|rate-changed|error|ready|removed|buffering|cued|ended|milestone|paused|playing|replayed|resumed|started|unstarted",
    videoId: "string",
    videoTitle: "string?",
    videoUrl: "string?",
    videoType: "live|video-on-demand?",
    videoDuration: "number?",
    videoCurrentTime: "number?",
    videoLoadedFraction: "number?",
    videoVolume: "integer?",
    videoMuted: "boolean?",
    videoPlaybackRate: "number?",
    videoPlaybackQuality: "string?",
    videoMilestone: "string?",
    videoPlayedSegmentTime: "integer?",
    videoPlayedTotalTime: "integer?",
    playerState: "player error|video started|video ended?",
    errorCode: "integer?",
    errorMessage: "string?",
  },
  "web-vitals": { metrics: [{ name: "LCP|CLS|FCP|INP|TTFB", rating: "good|needs-improvement|poor", navigationType: "string", delta: "number" }] },
  "application-error": { code: "string|number", message: "string?", type: "string?", page: "string?", actionSource: "string?", hasData: "boolean?" },

  /* ---- Consent, opt-ins, identity, traffic ---- */
  "privacy-change": {
    status: "in|out",
    type: "performance|functional|marketing|programFunctional|programMarketing",
    region: "string?",
    actionSource: "string?",
  },
  "opt-in-change": { changeType: "optin|optout|reoptin", action: "string?", actionSource: "string?" },
  "comms-opt-in": { identityKey: "string", email: "yes|no?", sms: "yes|no?", parentData: "yes|no?", ccParent: "yes|no?", parentEmail: "yes|no?" },
  identity: {
    accountId: "string",
    hashedId: "string?",
    namespace: "st|pf?",
    orgId: "string?",
    orgName: "string?",
    cohortYear: "integer|string?",
    graduationYear: "integer|string?",
    gradeLevel: "integer|string?",
    jobTitle: "string?",
    jobTitleCode: "string?",
    legacy: "boolean?",
    studentSearchOptIn: "boolean?",
    "roles?": [{ roleId: "string", orgId: "string" }],
    eodbId: "string?",
    tenantType: "string?",
  },
  "cb-web-event": {
    appId: "string",
    type: "login|registration|migration|registration-match|none",
    isLogin: "boolean",
    isReg: "boolean",
    isMigration: "boolean",
    isRegMatch: "boolean",
  },
  "traffic-source": {
    channel: "string",
    campaign: "string?",
    referrer: "string?",
    referringDomain: "string?",
    partner: "string?",
    keywords: "string?",
    campaignPath: "string?",
    emailMessage: "string?",
    recipientId: "string?",
    segmentId: "string?",
    firstChannel: "string?",
    latestChannel: "string?",
  },

  /* ---- Guided help ---- */
  "guided-help": {
    flowId: "string",
    flowName: "string?",
    flowStep: "string|number?",
    flowActionStep: "string?",
    flowActionElement: "string?",
    flowActionSubmit: "string?",
    flowActionUrl: "string?",
    stepTimeSpent: "integer?",
    impression: "boolean?",
    stepImpression: "boolean?",
    interaction: "boolean?",
    timeSpent: "boolean?",
    complete: "boolean?",
    dismiss: "boolean?",
    error: "boolean?",
  },
  "guided-help-survey": { flowId: "string", flowName: "string?", impression: "boolean?", score: "number?", feedback: "string?", dismiss: "boolean?" },

  /* ---- Student and educator apps ---- */
  dashboard: {
    appUserRole: "string?",
    cards: "string[]?",
    dashboardState: "no-data|display-error|no-reg-no-score?",
    optIn: "boolean?",
    proxyEvent: "build|practice|strengths|scholarships|fafsa|apply|all?",
  },
  "mysat-dashboard": { deviceRequestStatus: "string" },
  qotd: { subject: "string", source: "string?" },
  inquiry: { admissionTerm: "string?", admissionYear: "string|number?", submissions: [{ schoolId: "string", schoolName: "string?" }] },
  "course-event": {
    studentId: "string",
    courseId: "string",
    educationPeriodCode: "string|number",
    courseOrgId: "string",
    events: "student-registration|course-enrolment|exam-registration|asset-upload|final-submission[]",
  },
  "school-program": { activityType: "string", schoolId: "string", schoolName: "string?", districtName: "string?" },
  "k12-app-user": { appUser: { orgType: "school|district", accessType: "string?", role: "string", orgId: "string", gradeLevel: "string?" } },
  "k12-app-page": { appPage: { domain: "string", group: "string?", page: "string", subPage: "string?", view: "string?" } },
  "k12-bi-report": {
    biReport: {
      name: "string",
      status: "started|finished-with-data|finished-no-data|scheduled",
      tab: "string?",
      orgLevel: "string?",
      orgCode: "string?",
      orgName: "string?",
      adminAcademicYear: "string?",
      assessment: "string?",
      eventDescription: "string?",
      facets: "string?",
    },
  },
  "k12-user-action": { userAction: { key: "string", data: "unknown?" }, actionKey: "string?", searchType: "string?" },
  "product-locker": { actionKey: "string", filterName: "string?", filterValue: "string?" },
  "question-bank-export": { totalQuestions: "integer|string", criteria: "string?", pdfType: "string?" },
  "question-bank-filter": { filterInfo: "string", reportName: "string?" },

  /* ---- Tag control ---- */
  "tag-settings": {
    tagKey: "string",
    settings: {
      environment: "string?",
      samplingRate: "number?",
      licenseId: "string?",
      applicationId: "string?",
      instanceCode: "string?",
      messagingConfig: "unknown?",
    },
    status: "enabled|disabled?",
  },
  "load-tags": { consentType: "string", lifecycleEvent: "consent|page-top|dom-ready|window-loaded" },
  // Task "tagsA" (#20): pushed by the bundle itself when the edge answers a page view's proposition fetch (docs/edge.md).
  "personalization-decision": { scope: "string", propositionId: "string", content: "unknown[]" },
} as const satisfies Record<string, Fields>;

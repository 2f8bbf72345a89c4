/**
 * Page templates: the product spec's pages (section 2) as paths on the
 * chosen site's host, with the data-layer pushes their application would
 * make before the bundle loads. Every mock page carries the same kit of
 * links, a modal, a form, a search box, a video and a chat launcher (see
 * preview/server/mock-page.ts), so any action works on any page.
 *
 * Pushes follow the shapes the catalogue's rules read (docs/rules.md:
 * search.term, modal.name, error.code, order.id); the data-layer editor
 * offers the documented event shapes (docs/events.md) besides.
 */

export interface PageTemplate {
  id: string;
  label: string;
  group: string;
  path: string;
  /** Query the page comes with ("?flow=idp-discovery"). */
  query?: string;
  /** Sites the page belongs to (a hint in the picker; any page loads on any site). */
  sites?: string[];
  /** Pushes made before the bundle loads. */
  dataLayer?: unknown[];
  note?: string;
}

const reg = (id: string, label: string, path: string, page: string, flow = "newreg"): PageTemplate => ({
  id,
  label,
  group: "SAT registration",
  path,
  sites: ["satreg", "satregconc"],
  dataLayer: [{ event: "registration-step", flow, page, steps: [{ page, action: "view", pageReach: 1 }] }],
});

export const PAGE_TEMPLATES: PageTemplate[] = [
  { id: "home", label: "Home", group: "General", path: "/" },
  {
    id: "search-results",
    label: "Search results",
    group: "General",
    path: "/search",
    query: "?q=sat+dates",
    dataLayer: [{ event: "search", term: "sat dates", type: "site", count: 3 }],
  },
  {
    id: "search-no-results",
    label: "Search results (none)",
    group: "General",
    path: "/search",
    query: "?q=zzqx",
    dataLayer: [{ event: "search", term: "zzqx", type: "site", count: 0 }],
  },
  { id: "video", label: "Video page", group: "General", path: "/videos/how-to-register", note: "Play the video from Actions." },
  {
    id: "chat",
    label: "Chat page (contact us)",
    group: "General",
    path: "/contact-us",
    sites: ["clep", "apstudents", "satsuite"],
    note: "A chat-widget page on sites with the chat module.",
  },
  { id: "chat-register", label: "Chat page (register for an exam)", group: "General", path: "/register-for-an-exam", sites: ["clep", "apstudents"] },
  {
    id: "survey",
    label: "Survey path (trailing slash)",
    group: "General",
    path: "/sat/practice/",
    sites: ["bigfuture", "satsuite", "www", "clep"],
    note: "The helpfulness survey loads only on trailing-slash paths.",
  },
  { id: "survey-no-slash", label: "Survey path (no trailing slash)", group: "General", path: "/sat/practice" },

  reg("reg-start", "Registration: start", "/register", "start"),
  reg("reg-personalinfo", "Registration: personal info", "/register/profile/personalinfo", "profile-personalinfo"),
  reg("reg-choosedate", "Registration: choose date", "/register/datetc/choosedate", "datetc-choosedate"),
  reg("reg-choosecenter", "Registration: choose center", "/register/datetc/choosecenter", "datetc-choosecenter"),
  reg("reg-photo-upload", "Registration: photo upload", "/register/photo/upload", "photo-upload"),
  reg("reg-order-review", "Registration: order review", "/register/order/review", "order-review"),
  reg("reg-order-complete", "Registration: order complete", "/register/order/complete", "order-complete"),
  {
    id: "payment-confirmation",
    label: "Registration: payment confirmation",
    group: "SAT registration",
    path: "/register/paymentConfirmation",
    sites: ["satreg"],
    dataLayer: [{ order: { id: "SAT-2026-000123" } }],
    note: "satreg's payment-confirmation rule: purchase variables and the marketing pixel (disabled on qa).",
  },
  reg("ticket", "Admission ticket", "/register/ticket", "ticket-view"),
  reg("change-dashboard", "Change registration: dashboard", "/register/manage", "dashboard", "changereg"),
  reg("change-review", "Change registration: order review", "/register/change/order/review", "order-review", "changereg"),
  reg("change-complete", "Change registration: order complete", "/register/change/order/complete", "order-complete", "changereg"),
  reg("cancel-review", "Cancel registration: order review", "/register/cancel/order/review", "order-review", "cancelreg"),
  reg("cancel-complete", "Cancel registration: order complete", "/register/cancel/order/complete", "order-complete", "cancelreg"),

  { id: "score-report", label: "Score report", group: "Scores", path: "/scores/report", sites: ["scores", "mysat"] },
  { id: "score-details", label: "Score details", group: "Scores", path: "/scores/details", sites: ["scores"] },
  { id: "viewscore", label: "View score (overview)", group: "Scores", path: "/viewscore/overview", sites: ["scores"] },
  { id: "dashboard", label: "Student dashboard", group: "Scores", path: "/dashboard", sites: ["dashboard", "satreg", "mysat"] },

  {
    id: "signin",
    label: "Sign-in: username and password",
    group: "Sign-in",
    path: "/login",
    sites: ["iam"],
    dataLayer: [{ event: "page-view", flowCode: "login", pageCode: "enter-unpw" }],
  },
  {
    id: "signin-migrate",
    label: "Sign-in: IdP discovery (flow=idp-discovery)",
    group: "Sign-in",
    path: "/login",
    query: "?flow=idp-discovery",
    sites: ["iam"],
    dataLayer: [{ event: "page-view", flowCode: "migrate", pageCode: "enter-username-password" }],
  },
  {
    id: "signin-failed",
    label: "Sign-in: failed username",
    group: "Sign-in",
    path: "/login/failed",
    sites: ["iam"],
    dataLayer: [{ event: "page-view", flowCode: "login", pageCode: "fail", viewCode: "username" }],
  },
  {
    id: "forgot-password",
    label: "Forgot password: reset success",
    group: "Sign-in",
    path: "/forgot-password/success",
    sites: ["iam"],
    dataLayer: [{ event: "page-view", flowCode: "forgotpw", pageCode: "reset-pw-success" }],
  },
  {
    id: "signup-select",
    label: "Registration: select account type",
    group: "Sign-in",
    path: "/register/select-type",
    sites: ["iam", "signup"],
    dataLayer: [{ event: "page-view", flowCode: "reg", pageCode: "select-type" }],
  },
  { id: "signup-thankyou", label: "Sign-up thank-you (completed registration)", group: "Sign-in", path: "/iamweb/secure/thankYou", sites: ["iam", "signup"] },

  { id: "error-404", label: "Error page 404", group: "Error pages", path: "/error/404", dataLayer: [{ event: "page-view", errorCode: "404" }] },
  { id: "error-500", label: "Error page 500", group: "Error pages", path: "/error/500", dataLayer: [{ event: "page-view", errorCode: "500" }] },
  { id: "error-down", label: "Error page: down", group: "Error pages", path: "/error/down", dataLayer: [{ event: "page-view", errorCode: "down" }] },
  {
    id: "error-highvolume",
    label: "Error page: high volume",
    group: "Error pages",
    path: "/error/highvolume",
    dataLayer: [{ event: "page-view", errorCode: "highvolume" }],
  },
  { id: "error-403", label: "Error page 403", group: "Error pages", path: "/error/403", dataLayer: [{ event: "page-view", errorCode: "403" }] },
  { id: "error-422", label: "Error page 422", group: "Error pages", path: "/error/422", dataLayer: [{ event: "page-view", errorCode: "422" }] },

  { id: "testday-rooms", label: "Test day: rooms", group: "Test-day tool", path: "/rooms", sites: ["testday"] },
  { id: "testday-room", label: "Test day: room detail", group: "Test-day tool", path: "/rooms/get/4711", sites: ["testday"] },
  { id: "testday-staff", label: "Test day: staff", group: "Test-day tool", path: "/staff", sites: ["testday"] },
  { id: "testday-students", label: "Test day: students", group: "Test-day tool", path: "/students", sites: ["testday"] },
  { id: "testday-rosters", label: "Test day: printable rosters", group: "Test-day tool", path: "/printable-rosters", sites: ["testday"] },
  { id: "testday-irregularity", label: "Test day: add irregularity", group: "Test-day tool", path: "/irregularities/add", sites: ["testday"] },
  { id: "testday-vouchers", label: "Test day: vouchers", group: "Test-day tool", path: "/vouchers", sites: ["testday"] },
  { id: "testday-groups", label: "Test day: group detail", group: "Test-day tool", path: "/groups/get/12", sites: ["testday"] },

  { id: "hub-embed-prod", label: "Hub: embed-prod", group: "Hub embeds", path: "/embed-prod/sat-scores", sites: ["kiwihub"] },
  { id: "hub-embed-stg", label: "Hub: embed-stg", group: "Hub embeds", path: "/embed-stg/sat-scores", sites: ["kiwihub"] },
  { id: "hub-embed-dev", label: "Hub: embed-dev", group: "Hub embeds", path: "/embed-dev/sat-scores", sites: ["kiwihub"] },
  { id: "hub-pages", label: "Hub: pages", group: "Hub embeds", path: "/pages/score-report", sites: ["kiwihub"] },
];

export function findTemplate(id: string): PageTemplate | undefined {
  return PAGE_TEMPLATES.find((t) => t.id === id);
}

/** Templates grouped for a picker, in declaration order. */
export function templateGroups(): Array<{ group: string; templates: PageTemplate[] }> {
  const out: Array<{ group: string; templates: PageTemplate[] }> = [];
  for (const t of PAGE_TEMPLATES) {
    const g = out.find((x) => x.group === t.group) ?? (out[out.length] = { group: t.group, templates: [] });
    g.templates.push(t);
  }
  return out;
}

/** Query switches offered beside the page: tag switches for the bundle's tags, tracking codes, flows. */
export function querySwitches(tags: readonly string[]): Array<{ flag: string; label: string }> {
  return [
    ...tags.map((t) => ({ flag: `cb-disable-${t}`, label: `cb-disable-${t}` })),
    { flag: "excmpid=EM-SAT-SPRING", label: "tracking code excmpid (campaign)" },
    { flag: "sfmc_cid=SFMC-123&sfmc_mid=777&sfmc_rid=888", label: "email tracking (sfmc_cid, mid, rid)" },
    { flag: "s_kwcid=AL!1234!3!sat", label: "paid search (s_kwcid)" },
    { flag: "utm_source=partner&utm_medium=referral", label: "utm source/medium" },
    { flag: "flow=idp-discovery", label: "flow=idp-discovery" },
    { flag: "kiwi-ccb", label: "kiwi-ccb (skip banner on privacy hosts)" },
    { flag: "sitetags-debug=1", label: "sitetags-debug=1 (debug switch)" },
  ];
}

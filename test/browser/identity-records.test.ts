/**
 * Who the visitor is, in every record, on the shipped production bundles
 * (sites/_org.yaml: the identity rule, the user* data elements, the
 * credential service per environment; docs/identity.md). The mock edge sees
 * the exact XDM identity fields and report-suite variables of a signed-in
 * student, a professional with roles, an anonymous visitor, a same-day
 * logout, a first login today and a returning visitor; the CB web event's
 * counting rules on the shipped sign-up bundle.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { buildBundles, CONSENT, signInCookies, useBrowserHarness, type Bundle } from "./harness/index.js";

const h = useBrowserHarness();

let bigfuture: Bundle;
let signup: Bundle;
let k12reports: Bundle;
beforeAll(async () => {
  ({ bigfuture, signup, k12reports } = await buildBundles({
    bigfuture: ["bigfuture", "prod"],
    signup: ["signup", "prod"],
    k12reports: ["k12reports", "prod"],
  }));
}, 240_000);

const now = new Date();
/** Graduates at the end of the school year after this one: grade level 3. */
const gradYear = now.getMonth() >= 7 ? now.getFullYear() + 2 : now.getFullYear() + 1;
const DAY = 86_400_000;
/** A login record as the bundle keeps it: in localStorage, with the cookie that says it is there (identity.cookies.loginRecord). */
const loginRecord = (record: object) =>
  `localStorage.setItem("sitetags:login", ${JSON.stringify(JSON.stringify(record))}); document.cookie = "sitetags_login=1; path=/"`;
/** Counts every localStorage and sessionStorage access of the page (the window's getters). */
const COUNT_STORAGE = `window.__storage = [];
["localStorage", "sessionStorage"].forEach(function (n) {
  var o = window, d;
  while (o && !(d = Object.getOwnPropertyDescriptor(o, n))) o = Object.getPrototypeOf(o);
  Object.defineProperty(window, n, { configurable: true, get: function () { window.__storage.push(n); return d.get.call(window); } });
});`;

const STUDENT = [
  ...signInCookies(
    { sessionId: "S-123", accountId: "1000234", profileType: "ECL", gradYear: String(gradYear), orgId: "ORG-77", crmId: "crm-5", sssOptIn: "Y" },
    { typ: "Bearer", namespace: "st", hashedId: "h-9f8e", aaCustomId: "aa-42" },
  ),
  "kiwi_fpid=fp-0001; Path=/",
];
const PROFESSIONAL = signInCookies(
  {
    sessionId: "S-456",
    accountId: "2000777",
    profileType: "EPL",
    jobTitle: "Counselor",
    jobTitleCode: "CNS",
    orgId: "ORG-9",
    orgName: "Springfield High",
    roPairs: [["educator", "ORG-9"], { roleId: "coordinator", orgId: "ORG-10" }],
    eodbId: "EODB-3",
    tenantType: "school",
    csr: "true",
    legacy: false,
  },
  { typ: "Bearer", namespace: "pf" },
);

/** The page views and events the mock edge received from this page (POST interact/collect), first event of each. */
const records = () =>
  h.web
    .find({ host: "edge.kiwi.example", method: "POST", path: /\/v1\/(interact|collect)$/ })
    .map((r) => (r.json as { events: Array<{ xdm: any; data?: any }> }).events[0]);
async function pageView() {
  await expect.poll(() => records().filter((e) => e.xdm.eventType === "web.webpagedetails.pageViews").length, { timeout: 9000 }).toBeGreaterThan(0);
  return records().find((e) => e.xdm.eventType === "web.webpagedetails.pageViews")!;
}
const variables = (record: { data?: any }) => ({ ...record.data?.__adobe?.analytics });
/** The identity variables of a record (eVar200-eVar219; the rest of the record is other rules'). */
const identityVariables = (record: { data?: any }) =>
  Object.fromEntries(Object.entries(variables(record)).filter(([k]) => /^eVar2[01]\d$/.test(k) || k === "events"));

/** The signed-in student's (STUDENT's cookies) exact identity map and identity variables, but for the visitor type and the CB web event. */
const STUDENT_IDENTITY_MAP = {
  FPID: [{ id: "fp-0001", authenticatedState: "ambiguous", primary: false }],
  crm_id: [{ id: "crm-5", authenticatedState: "ambiguous", primary: false }],
  AACUSTOMID: [{ id: "aa-42", authenticatedState: "ambiguous", primary: false }],
  CBPEOPLEID: [{ id: "1000234", authenticatedState: "authenticated", primary: true }],
};
const STUDENT_VARIABLES = {
  eVar200: "Logged In",
  eVar202: "1000234",
  eVar203: "h-9f8e",
  eVar204: "st",
  eVar205: "ECL",
  eVar206: "ORG-77",
  eVar207: String(gradYear),
  eVar208: "3",
  eVar209: "Student",
  eVar211: "N",
  eVar212: "Y",
  eVar213: "N",
  eVar217: "Catapult",
};

async function open(url: string, cookies: string[] | undefined, initScripts: string[] = [], bundle = bigfuture) {
  return h.browser.openPage(h.web.page(url, { bundle, cookies }), { consentGroups: CONSENT.performance, initScripts });
}

describe("identity in every record (shipped prod/bigfuture)", () => {
  it('a signed-in student, first login today: "Identity map namespaces: FPID, crm_id, AACUSTOMID, CBPEOPLEID (last is primary and authenticated)", the identity map as XDM, the identity facts as variables, a login counted', async () => {
    const tab = await open("https://bigfuture.kiwi.example/", STUDENT);
    const view = await pageView();
    // The first login keeps the login record, and the cookie that says it is kept (read on later pages even when signed out).
    expect(await tab.page.evaluate(() => document.cookie)).toContain("sitetags_login=1");
    expect(JSON.parse((await tab.page.evaluate(() => localStorage.getItem("sitetags:login"))) ?? "{}")).toMatchObject({ loggedIn: true });
    // The startup sequence of the shipped catalogue: the temporary credential from the production credential service.
    const [creds] = h.web.find({ host: "creds.kiwi.example", method: "GET" });
    const url = new URL(creds.url);
    expect(url.pathname).toBe("/temp-user-aws-creds");
    expect([...url.searchParams.keys()]).toEqual(["cbEnv", "cbAWSDomains", "cacheNonce"]);
    expect(url.searchParams.get("cbEnv")).toBe("prod");
    expect(url.searchParams.get("cbAWSDomains")).toBe("kiwi.example");
    expect(creds.headers.authorization).toBe("Bearer S-123");

    expect(view.xdm.identityMap).toEqual(STUDENT_IDENTITY_MAP);
    expect(identityVariables(view)).toEqual({
      ...STUDENT_VARIABLES,
      eVar201: "New",
      // "A login is counted": the CB web event, on the page where it happens.
      eVar219: "login",
      events: "event600",
    });
  });

  it("every record of the page carries the identity, the CB web event's count only the page view", async () => {
    const tab = await open("https://bigfuture.kiwi.example/", STUDENT);
    await pageView();
    await tab.page.evaluate(() => (window as any).kiwiDataLayer.push({ event: "modal", modalName: "Save list", modalState: "shown" }));
    await expect.poll(() => records().filter((e) => e.xdm.eventType === "kiwi.modal").length, { timeout: 5000 }).toBe(1);
    const modal = records().find((e) => e.xdm.eventType === "kiwi.modal")!;
    expect(modal.xdm.identityMap.CBPEOPLEID).toEqual([{ id: "1000234", authenticatedState: "authenticated", primary: true }]);
    expect(variables(modal)).toMatchObject({ eVar200: "Logged In", eVar202: "1000234", eVar205: "ECL" });
    expect(variables(modal).events).toBeUndefined();
  });

  it("a signed-in professional with roles: Professional for year and grade, the own job title, role id and organisation id pairs", async () => {
    await open("https://bigfuture.kiwi.example/", PROFESSIONAL, [loginRecord({ firstLogin: Date.now() - 40 * DAY, loggedIn: true })]);
    const view = await pageView();
    expect(view.xdm.identityMap).toEqual({ CBPEOPLEID: [{ id: "2000777", authenticatedState: "authenticated", primary: true }] });
    expect(identityVariables(view)).toEqual({
      eVar200: "Logged In",
      eVar201: "Return",
      eVar202: "2000777",
      eVar204: "pf",
      eVar205: "EPL",
      eVar206: "ORG-9",
      eVar207: "Professional",
      eVar208: "Professional",
      eVar209: "Counselor",
      eVar210: "CNS",
      eVar211: "N",
      eVar212: "N",
      eVar213: "Y",
      eVar214: "educator:ORG-9|coordinator:ORG-10",
      eVar215: "EODB-3",
      eVar216: "school",
      eVar217: "Catapult",
    });
  });

  it("an anonymous visitor: \"Not-logged-in users are labelled 'Not Logged In'\" and nothing of an identity is sent; a first visit touches no storage while shown, the set-consent answer's hash is written when it is left (issue #21)", async () => {
    const tab = await open("https://bigfuture.kiwi.example/", undefined, [COUNT_STORAGE]);
    const view = await pageView();
    expect(h.web.find({ kind: "credentials" })).toEqual([]);
    expect(view.xdm.identityMap).toBeUndefined();
    expect(identityVariables(view)).toEqual({ eVar200: "Not Logged In", eVar201: "Never Logged In" });
    // No login record without a sign-in cookie or the record's cookie; no tag status, no debug switch in storage; the
    // set-consent answer's hash (as alloy keeps it) waits for the page to be hidden or left (docs/edge.md).
    expect(await tab.page.evaluate(() => (window as unknown as { __storage: string[] }).__storage)).toEqual([]);
    // Left: the hash (localStorage) and the previous page name (sessionStorage, docs/runtime.md).
    await tab.page.evaluate(() => window.dispatchEvent(new Event("pagehide")));
    expect((await tab.page.evaluate(() => (window as unknown as { __storage: string[] }).__storage)).sort()).toEqual(["localStorage", "sessionStorage"]);
    expect(await tab.page.evaluate(() => Object.keys(localStorage))).toEqual([expect.stringContaining(".consentHashes.")]);
    expect(await tab.page.evaluate(() => document.cookie)).not.toContain("sitetags_login");
  });

  it('a same-day logout: "Logged Out (same-day logout)"; the stored user data is reset', async () => {
    await open("https://bigfuture.kiwi.example/", undefined, [loginRecord({ firstLogin: Date.now() - 3 * DAY, loggedIn: true })]);
    const view = await pageView();
    expect(view.xdm.identityMap).toBeUndefined();
    expect(identityVariables(view)).toEqual({ eVar200: "Logged Out", eVar201: "Reset" });
  });

  it('a returning visitor: "Return otherwise" (first login on an earlier day), already signed in: no login counted', async () => {
    await open("https://bigfuture.kiwi.example/", STUDENT, [loginRecord({ firstLogin: Date.now() - 5 * DAY, loggedIn: true })]);
    const view = await pageView();
    // The exact identity fields and variables: the first login's, but Return and no CB web event.
    expect(view.xdm.identityMap).toEqual(STUDENT_IDENTITY_MAP);
    expect(identityVariables(view)).toEqual({ ...STUDENT_VARIABLES, eVar201: "Return" });
  });

  it('"Identity with non-empty-string id only": a session whose account id is a number or blank sends no CBPEOPLEID', async () => {
    await open("https://bigfuture.kiwi.example/", signInCookies({ sessionId: "S-1", accountId: 1000234, profileType: "ECL", crmId: "  " }, { typ: "Bearer" }));
    const view = await pageView();
    expect(view.xdm.identityMap).toBeUndefined();
    expect(variables(view).eVar202).toBeUndefined();
  });
});

describe("the CB web event (shipped prod/signup)", () => {
  it('"A login is counted unless the previous page name was a security check"', async () => {
    await open("https://signup.kiwi.example/", STUDENT, ["sessionStorage.setItem('sitetags:previous-page', 'signup:login:security-check')"], signup);
    const view = await pageView();
    expect(identityVariables(view)).toMatchObject({ eVar200: "Logged In", eVar201: "New" });
    expect(identityVariables(view).events).toBeUndefined();
    expect(identityVariables(view).eVar219).toBeUndefined();
  });

  it('"A registration counts when a register or migrate flow reaches … the thank-you path; then login is true": counted once, across a reload of the page', async () => {
    const tab = await open("https://signup.kiwi.example/iamweb/secure/thankYou", STUDENT, [], signup);
    const view = await pageView();
    expect(identityVariables(view)).toMatchObject({ eVar219: "registration", events: "event600,event601" });
    h.web.reset();
    h.web.page("https://signup.kiwi.example/iamweb/secure/thankYou", { bundle: signup, cookies: STUDENT });
    await tab.page.reload();
    const again = await pageView();
    expect(identityVariables(again)).toMatchObject({ eVar200: "Logged In", eVar202: "1000234" });
    expect(identityVariables(again).events).toBeUndefined();
    expect(identityVariables(again).eVar219).toBeUndefined();
  });

  it('"Legacy or migrate flows turn registration into migration or a registration match": a legacy account\'s completed registration is a migration', async () => {
    const legacy = signInCookies({ sessionId: "S-8", accountId: "3000001", profileType: "ECL", legacy: "Y" }, { typ: "Bearer" });
    await open("https://signup.kiwi.example/iamweb/secure/thankYou", legacy, [], signup);
    const view = await pageView();
    expect(identityVariables(view)).toMatchObject({ eVar211: "Y", eVar219: "migration", events: "event600,event602" });
  });
});

/** The records of one event type the mock edge received, once there are `n`. */
async function recordsOf(eventType: string, n = 1) {
  await expect.poll(() => records().filter((e) => e.xdm.eventType === eventType).length, { timeout: 5000 }).toBe(n);
  return records().filter((e) => e.xdm.eventType === eventType);
}
const push = (tab: { page: { evaluate: (fn: (p: object) => void, p: object) => Promise<unknown> } }, p: object) =>
  tab.page.evaluate((p) => (window as any).kiwiDataLayer.push(p), p);
const MODAL = { event: "modal", modalName: "Save list", modalState: "shown" };

describe("the identity push (shipped prod/bigfuture)", () => {
  it('a signed-in student\'s page reports a better identity: its checked values win over the cookies\' on every later record; "Identity with non-empty-string id only" and "Graduation year must parse as a number (yyyy)": bad values warned, dropped, not sent', async () => {
    const tab = await open("https://bigfuture.kiwi.example/", STUDENT, [loginRecord({ firstLogin: Date.now() - 5 * DAY, loggedIn: true })]);
    await pageView();
    await push(tab, {
      event: "identity",
      accountId: 42,
      graduationYear: "soon",
      namespace: "xx",
      orgId: "ORG-88",
      orgName: "Kiwi Academy",
      jobTitleCode: "  ",
      studentSearchOptIn: false,
      legacy: "maybe",
      roles: [{ roleId: "student" }],
      hashedId: "h-new",
    });
    await push(tab, MODAL);
    const [modal] = await recordsOf("kiwi.modal");
    // The account id stays the sign-in cookies' (the page's 42 is not a non-empty string), so does the graduation year.
    expect(modal.xdm.identityMap.CBPEOPLEID).toEqual([{ id: "1000234", authenticatedState: "authenticated", primary: true }]);
    expect(identityVariables(modal)).toEqual({ ...STUDENT_VARIABLES, eVar201: "Return", eVar203: "h-new", eVar206: "ORG-88", eVar212: "N" });
    const dropped = (await tab.logEntries()).filter((e) => e.message === "identity value dropped").map((e) => (e.data as any).field);
    expect(dropped.sort()).toEqual(["accountId", "graduationYear", "jobTitleCode", "legacy", "namespace", "roles"]);

    // A second push merges on top of the first: a professional now, with roles and a new account id.
    await push(tab, { event: "identity", accountId: "1000999", namespace: "pf", roles: [{ roleId: "educator", orgId: "ORG-88" }], graduationYear: 2031 });
    await push(tab, MODAL);
    const [, second] = await recordsOf("kiwi.modal", 2);
    expect(second.xdm.identityMap.CBPEOPLEID).toEqual([{ id: "1000999", authenticatedState: "authenticated", primary: true }]);
    expect(identityVariables(second)).toMatchObject({
      eVar202: "1000999",
      eVar203: "h-new",
      eVar204: "pf",
      eVar205: "EPL",
      eVar206: "ORG-88",
      eVar207: "Professional",
      eVar208: "Professional",
      eVar214: "educator:ORG-88",
    });
    expect(identityVariables(second).eVar209).toBeUndefined();
  });

  it('"Sent on the page where it happens, once": on a first login today, the identity push\'s rule (org rule identity-push) does not count the login again', async () => {
    const tab = await open("https://bigfuture.kiwi.example/", STUDENT);
    const view = await pageView();
    expect(variables(view)).toMatchObject({ eVar219: "login", events: "event600" });
    await push(tab, { event: "identity", orgId: "ORG-88", orgName: "Kiwi Academy" });
    await push(tab, MODAL);
    const [modal] = await recordsOf("kiwi.modal");
    expect(identityVariables(modal)).toMatchObject({ eVar200: "Logged In", eVar202: "1000234", eVar206: "ORG-88" });
    expect(variables(modal).events).toBeUndefined();
    expect(records().filter((e) => /(^|,)event600(,|$)/.test(variables(e).events ?? ""))).toHaveLength(1);
  });

  it("an anonymous visitor's page cannot make it signed in: \"Not-logged-in users are labelled 'Not Logged In'\" on every later record", async () => {
    const tab = await open("https://bigfuture.kiwi.example/", undefined);
    await pageView();
    await push(tab, { event: "identity", accountId: "1000234", namespace: "st", orgId: "ORG-1" });
    await push(tab, MODAL);
    const [modal] = await recordsOf("kiwi.modal");
    expect(modal.xdm.identityMap).toBeUndefined();
    expect(identityVariables(modal)).toEqual({ eVar200: "Not Logged In", eVar201: "Never Logged In" });
  });
});

describe("a K12 educator (shipped prod/k12reports)", () => {
  const EDUCATOR = signInCookies(
    {
      sessionId: "S-700",
      accountId: "4000123",
      profileType: "EPL",
      jobTitle: "Assessment Coordinator",
      orgId: "1234",
      orgName: "Springfield District",
      roPairs: [["district-admin", "1234"]],
      tenantType: "district",
    },
    { typ: "Bearer", namespace: "pf" },
  );
  const k12Variables = (record: { data?: any }) => Object.fromEntries(Object.entries(variables(record)).filter(([k]) => /^eVar22\d$/.test(k)));

  it('"K12 role (organisation type plus access type; access type overrides role)", "school or district organisation", "App page domain educator maps to edu": identity, K12 user and page on the records', async () => {
    const tab = await open("https://k12reports.kiwi.example/", EDUCATOR, [loginRecord({ firstLogin: Date.now() - 9 * DAY, loggedIn: true })], k12reports);
    const view = await pageView();
    expect(view.xdm.identityMap).toEqual({ CBPEOPLEID: [{ id: "4000123", authenticatedState: "authenticated", primary: true }] });
    const identity = {
      eVar200: "Logged In",
      eVar201: "Return",
      eVar202: "4000123",
      eVar204: "pf",
      eVar205: "EPL",
      eVar206: "1234",
      eVar207: "Professional",
      eVar208: "Professional",
      eVar209: "Assessment Coordinator",
      eVar211: "N",
      eVar212: "N",
      eVar213: "N",
      eVar214: "district-admin:1234",
      eVar216: "district",
      eVar217: "Catapult",
    };
    expect(identityVariables(view)).toEqual(identity);

    // The access type overrides the role.
    await push(tab, {
      event: "k12-app-user",
      appUser: { orgType: "district", accessType: "admin", role: "educator", orgId: "1234|Springfield District", gradeLevel: "11" },
    });
    await push(tab, { event: "k12-app-page", appPage: { domain: "educator", group: "reports", page: "summary", view: "table" } });
    const [page] = await recordsOf("kiwi.k12AppPage");
    expect(page.xdm.web.webInteraction.name).toBe("app page:edu:summary");
    expect(page.xdm.identityMap.CBPEOPLEID[0].id).toBe("4000123");
    expect(identityVariables(page)).toEqual({ ...identity, events: "event604" });
    expect(k12Variables(page)).toEqual({
      eVar220: "district-admin",
      eVar221: "1234|Springfield District",
      eVar222: "11",
      eVar223: "edu",
      eVar224: "reports",
      eVar225: "summary",
      // A sendEvent variable whose value is missing is left out (as alloy and AppMeasurement leave an empty variable out).
      eVar227: "table",
    });

    // Without an access type: organisation type plus role; a school organisation; the student domain.
    await push(tab, { event: "k12-app-user", appUser: { orgType: "school", role: "teacher", orgId: "77|Lincoln High" } });
    await push(tab, { event: "k12-app-page", appPage: { domain: "student", page: "scores" } });
    const [, second] = await recordsOf("kiwi.k12AppPage", 2);
    expect(k12Variables(second)).toEqual({
      eVar220: "school-teacher",
      eVar221: "77|Lincoln High",
      eVar223: "stu",
      eVar225: "scores",
    });

    // An organisation that is neither school nor district: the K12 user is not changed.
    await push(tab, { event: "k12-app-user", appUser: { orgType: "state", accessType: "admin", role: "educator", orgId: "9|Kiwi State" } });
    await push(tab, { event: "k12-app-page", appPage: { domain: "edu", page: "home" } });
    const [, , third] = await recordsOf("kiwi.k12AppPage", 3);
    expect(k12Variables(third)).toMatchObject({ eVar220: "school-teacher", eVar221: "77|Lincoln High", eVar223: "edu", eVar225: "home" });
  });
});

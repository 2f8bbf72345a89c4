/**
 * The startup sequence and identity in Chromium: sign-in detection from the
 * session and token cookies, the consent-gated temporary credential (GET with
 * query cbEnv, cbAWSDomains, cacheNonce and the authorization header; up to 3
 * attempts 100 ms apart), identified or anonymous, and the provided values
 * that data elements read (login state, visitor type, account type, grade).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { buildBundle, CONSENT, settle, signInCookies, tempCatalogue, useBrowserHarness, type Bundle, type RecordedRequest } from "./harness/index.js";

const h = useBrowserHarness();

const SITE = `code: idlab
name: Identity lab
appId: "880"
hosts:
  qa: [idlab-qa.kiwi.example]
identity:
  credentials:
    awsDomains: [kiwi.example, tags.kiwi.example]
envs:
  qa:
    identity:
      credentials:
        serviceUrl: https://edge.kiwi.example/creds
dataElements:
  login: { provided: loginState }
  visitor: { provided: visitorType }
  account: { provided: accountType }
  grade: { provided: gradeLevel }
  webEvent: { provided: cbWebEvent }
disabledRules: [page-view]
rules:
  - id: who
    name: Who is visiting
    events: [{ type: libraryLoaded }]
    actions: [{ type: sendEvent, name: "%login%|%visitor%|%account%|%grade%", eventType: lab.identity, variables: { eVar80: "%webEvent%" } }]
`;

let lab: Bundle;
beforeAll(async () => {
  lab = await buildBundle("idlab", "qa", { sitesDir: tempCatalogue({ "idlab.yaml": SITE }) });
}, 240_000);

const gradYear = new Date().getMonth() >= 7 ? new Date().getFullYear() + 2 : new Date().getFullYear() + 1;
const STUDENT = signInCookies({ sessionId: "S-123", accountId: "A-9", profileType: "ECL", gradYear }, { typ: "Bearer", namespace: "st", hashedId: "h-9" });

const creds = () => h.web.find((r: RecordedRequest) => r.host === "edge.kiwi.example" && r.path.startsWith("/creds/") && r.method === "GET");
const identityEvents = () =>
  h.web
    .find({ host: "edge.kiwi.example", method: "POST", path: /\/v1\/(interact|collect)$/ })
    .map((r) => (r.json as any).events[0])
    .filter((e: any) => e.xdm.eventType === "lab.identity");
const identityEvent = () => identityEvents()[0]?.xdm;
async function waitIdentityEvent(timeoutMs = 8000) {
  const until = Date.now() + timeoutMs;
  while (!identityEvent() && Date.now() < until) await settle(50);
  return identityEvent();
}

describe("the startup sequence", () => {
  it("a signed-in student: the credential request has the spec's shape, then data elements see the identity", async () => {
    h.web.edge.handler = (r) => (r.path.startsWith("/creds/") ? { status: 200, body: { cbJwtToken: "jwt-abc" } } : { status: 200, body: { handle: [] } });
    await h.browser.openPage(h.web.page("https://idlab-qa.kiwi.example/dashboard", { bundle: lab, cookies: STUDENT }), { consentGroups: CONSENT.performance });
    const xdm = await waitIdentityEvent();
    const [request] = creds();
    const url = new URL(request.url);
    expect(url.pathname).toBe("/creds/temp-user-aws-creds");
    expect(url.searchParams.get("cbEnv")).toBe("qa");
    expect(url.searchParams.get("cbAWSDomains")).toBe("kiwi.example,tags.kiwi.example");
    expect(url.searchParams.get("cacheNonce")).toMatch(/^[0-9a-z]+$/);
    expect(request.headers.authorization).toBe("Bearer S-123");
    expect(xdm.web.webInteraction.name).toBe("Logged In|New|ECL|3");
  });

  it('"Up to 3 attempts, 100 ms apart"; "Credential fetch failure after 3 attempts is logged and flow continues" (anonymous)', async () => {
    h.web.edge.handler = (r) => (r.path.startsWith("/creds/") ? { status: 500, body: "down" } : { status: 200, body: { handle: [] } });
    const tab = await h.browser.openPage(h.web.page("https://idlab-qa.kiwi.example/", { bundle: lab, cookies: STUDENT }), {
      consentGroups: CONSENT.performance,
    });
    const xdm = await waitIdentityEvent();
    expect(creds()).toHaveLength(3);
    const times = creds().map((r) => r.time);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(90);
    expect(await tab.logEntries()).toContainEqual(expect.objectContaining({ level: "warn", message: "credential fetch failed; continuing anonymous" }));
    // Anonymous: "identity cleared" — the profile's values are gone, the sign-in state stays.
    expect(xdm.web.webInteraction.name).toBe("Logged In|New||");
  });

  it("a fetch that throws at once (blocked or patched by the page) fails each attempt like a network error: logged, the flow continues, nothing thrown into the page", async () => {
    h.web.edge.handler = () => ({ status: 200, body: { handle: [] } });
    const patch = `(function () { var f = window.fetch; window.fetch = function (url) { if (String(url).indexOf("/creds/") >= 0) { window.__credCalls = (window.__credCalls || 0) + 1; throw new TypeError("blocked by the page"); } return f.apply(this, arguments); }; })();`;
    const tab = await h.browser.openPage(h.web.page("https://idlab-qa.kiwi.example/", { bundle: lab, cookies: STUDENT, before: [patch] }), {
      consentGroups: CONSENT.performance,
    });
    const xdm = await waitIdentityEvent();
    expect(await tab.page.evaluate(() => (window as any).__credCalls)).toBe(3);
    expect(await tab.logEntries()).toContainEqual(expect.objectContaining({ level: "warn", message: "credential fetch failed; continuing anonymous" }));
    expect(xdm.web.webInteraction.name).toBe("Logged In|New||");
    expect(tab.pageErrors).toEqual([]);
  });

  it("the credential call waits for consent (consent-gated); the startup goes on after at most 4500 ms", async () => {
    h.web.edge.handler = (r) => (r.path.startsWith("/creds/") ? { status: 200, body: { cbJwtToken: "jwt-abc" } } : { status: 200, body: { handle: [] } });
    const tab = await h.browser.openPage(h.web.page("https://idlab-qa.kiwi.example/", { bundle: lab, cookies: STUDENT }), { consentGroups: CONSENT.necessary });
    await settle(1000);
    expect(creds()).toEqual([]);
    // The rules wait for the startup sequence: no library-loaded rule has run yet.
    expect(await tab.page.evaluate(() => (window as any).__sitetagsEvents.some((e: any) => e.type === "rule"))).toBe(false);
    // The page's own 4500 ms wait, then the rules: seconds more on a loaded machine.
    await tab.page.waitForFunction(() => (window as any).__sitetagsEvents.some((e: any) => e.type === "rule" && e.state === "fired"), undefined, {
      timeout: 12_000,
    });
    expect(creds()).toEqual([]);
  });

  it('no sign-in cookies: "Catapult/Levity Data Not Found" is logged and ignored; the visitor is anonymous, never logged in', async () => {
    const tab = await h.browser.openPage(h.web.page("https://idlab-qa.kiwi.example/", { bundle: lab }), { consentGroups: CONSENT.performance });
    const xdm = await waitIdentityEvent();
    expect(creds()).toEqual([]);
    expect(xdm.web.webInteraction.name).toBe("Not Logged In|Never Logged In||");
    expect(await tab.logEntries()).toContainEqual(expect.objectContaining({ message: "Catapult/Levity Data Not Found" }));
  });

  it('"The first-party id script fpid.js, keyed by stage": loaded from the site\'s own host with the environment, behind performance consent', async () => {
    const tab = await h.browser.openPage(h.web.page("https://idlab-qa.kiwi.example/", { bundle: lab }), { consentGroups: CONSENT.necessary });
    await settle(400);
    expect(h.web.find({ host: "idlab-qa.kiwi.example", path: "/fpid.js" })).toEqual([]);
    await tab.setConsent(CONSENT.performance, { via: "event" });
    const request = await h.web.waitForRequest({ host: "idlab-qa.kiwi.example", path: "/fpid.js" });
    expect(new URL(request.url).searchParams.get("stage")).toBe("qa");
  });

  it('"A login is counted unless the previous page name was a security check"; "A registration counts when a register … flow reaches success or the thank-you path; then login is true"', async () => {
    h.web.edge.handler = (r) => (r.path.startsWith("/creds/") ? { status: 200, body: { cbJwtToken: "jwt" } } : { status: 200, body: { handle: [] } });
    // Only this page's events (a page of an earlier test may still deliver a late beacon).
    const webEvent = async (path: string) => {
      const mine = () => identityEvents().filter((e: any) => e.xdm.web.webPageDetails.URL === `https://idlab-qa.kiwi.example${path}`);
      const until = Date.now() + 8000;
      while (!mine().length && Date.now() < until) await settle(50);
      return mine()[0].data.__adobe.analytics.eVar80;
    };
    // First signed-in page of this browser: a login.
    await h.browser.openPage(h.web.page("https://idlab-qa.kiwi.example/dashboard", { bundle: lab, cookies: STUDENT }), { consentGroups: CONSENT.performance });
    expect(await webEvent("/dashboard")).toBe("login");
    h.web.reset();
    // After the security check page: not counted.
    await h.browser.openPage(h.web.page("https://idlab-qa.kiwi.example/dashboard", { bundle: lab, cookies: STUDENT }), {
      consentGroups: CONSENT.performance,
      initScripts: ["sessionStorage.setItem('sitetags:previous-page', 'iam:login:security-check')"],
    });
    expect(await webEvent("/dashboard")).toBeUndefined(); // no web event: the variable is left out, not sent empty
    h.web.reset();
    // The sign-up thank-you path: a registration.
    await h.browser.openPage(h.web.page("https://idlab-qa.kiwi.example/iamweb/secure/thankYou", { bundle: lab, cookies: STUDENT }), {
      consentGroups: CONSENT.performance,
    });
    expect(await webEvent("/iamweb/secure/thankYou")).toBe("registration");
    h.web.reset();
    // A migrate flow reaching success: a registration match.
    await h.browser.openPage(
      h.web.page("https://idlab-qa.kiwi.example/migrate", {
        bundle: lab,
        cookies: STUDENT,
        dataLayer: [{ page: { flowCode: "migrate", pageCode: "success" } }],
      }),
      { consentGroups: CONSENT.performance },
    );
    expect(await webEvent("/migrate")).toBe("registration-match");
  });

  it("the lifetime cookie is written on the apex domain only with performance consent", async () => {
    const without = await h.browser.openPage(h.web.page("https://idlab-qa.kiwi.example/", { bundle: lab }), { consentGroups: CONSENT.functional });
    await settle(500);
    expect((await without.page.context().cookies()).map((c) => c.name)).not.toContain("kiwi_lifetime");
    const withConsent = await h.browser.openPage(h.web.page("https://idlab-qa.kiwi.example/", { bundle: lab }), { consentGroups: CONSENT.performance });
    await expect.poll(async () => (await withConsent.page.context().cookies()).map((c) => c.name), { timeout: 5000 }).toContain("kiwi_lifetime");
    const cookie = (await withConsent.page.context().cookies()).find((c) => c.name === "kiwi_lifetime");
    expect(cookie).toMatchObject({ domain: ".kiwi.example", path: "/", secure: true, sameSite: "Lax" });
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(59 * 86400);
  });
});

/**
 * The survey and chat modules in Chromium, against built bundles of the
 * catalogue's sites: which pages, which consent, the disable switch. The
 * vendor scripts travel the real network path to the local test server.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { buildBundles, CONSENT, settle, tempCatalogue, buildBundle, useBrowserHarness, type Bundle, type TestPage } from "./harness/index.js";

const h = useBrowserHarness();
let b: Record<"bigfuture" | "clep" | "satsuite" | "apstudents" | "about", Bundle>;

beforeAll(async () => {
  b = await buildBundles({
    bigfuture: ["bigfuture", "qa"],
    clep: ["clep", "qa"],
    satsuite: ["satsuite", "qa"],
    apstudents: ["apstudents", "qa"],
    about: ["about", "qa"],
  });
});

const SURVEY = { host: "survey.feedbackvendor.example", path: "/kiwi/helpful.js" };
const CHAT = { host: "chat.widgetvendor.example" };

/** Opens a page of the bundle's site (its qa host) and waits for the bundle to start. */
async function open(bundle: Bundle, path: string, consentGroups?: string): Promise<TestPage> {
  const url = h.web.page(`https://${bundle.site}-qa.kiwi.example${path}`, { bundle });
  const tab = await h.browser.openPage(url, { consentGroups });
  await tab.waitForMonitor({ type: "boot", site: bundle.site });
  return tab;
}

describe("The helpfulness survey loads only on configured sites and trailing-slash paths", () => {
  it("loads on a trailing-slash path (/some/path/) of a survey site, with performance consent", async () => {
    const tab = await open(b.bigfuture, "/some/path/", CONSENT.performance);
    const request = await h.web.waitForRequest(SURVEY);
    expect(request.url).toBe("https://survey.feedbackvendor.example/kiwi/helpful.js");
    await tab.waitForMonitor({ type: "tag", tag: "survey", state: "loaded" });
    expect(await tab.page.evaluate(() => [(window as any).sitetags.commands.survey.isLoaded(), !!document.getElementById("sitetags-survey")])).toEqual([
      true,
      true,
    ]);
  });

  it.each(["/some/path", "/some/path?x=/"])("does not load on %s (no trailing slash)", async (path) => {
    const tab = await open(b.bigfuture, path, CONSENT.performance);
    await tab.waitForMonitor({ type: "tag", tag: "survey", state: "skipped", reason: "current path does not match the route pattern" });
    await settle();
    expect(h.web.find(SURVEY)).toEqual([]);
  });

  it("does not load on a site without the survey module (about), whatever the consent", async () => {
    expect(b.about.modules).toEqual([]);
    const tab = await open(b.about, "/some/path/", CONSENT.all);
    await settle();
    expect(await tab.page.evaluate(() => (window as any).sitetags.modules)).toEqual([]);
    // Only the consent banner; no survey.
    expect(h.web.find({ kind: "third-party" }).map((r) => r.host)).toEqual(["cdn.consentbanner.example"]);
  });

  it("the paths setting narrows it further (a custom catalogue: survey.paths ^/help/)", async () => {
    const sitesDir = tempCatalogue({
      "helpdesk.yaml": [
        "code: helpdesk",
        "name: Help Desk",
        'appId: "99"',
        "spa: false",
        "internal: false",
        "hosts:",
        "  qa: [helpdesk-qa.kiwi.example]",
        "modules:",
        "  survey:",
        "    scriptSrc: https://survey.feedbackvendor.example/kiwi/helpful.js",
        '    paths: ["^/help/"]',
        "",
      ].join("\n"),
    });
    const helpdesk = await buildBundle("helpdesk", "qa", { sitesDir });
    expect(helpdesk.config.modules.survey?.paths).toEqual(["^/help/"]);
    const other = await open(helpdesk, "/other/", CONSENT.performance);
    await other.waitForMonitor({ type: "tag", tag: "survey", state: "skipped" });
    await settle();
    expect(h.web.find(SURVEY)).toEqual([]);
    await open(helpdesk, "/help/topic/", CONSENT.performance);
    await h.web.waitForRequest(SURVEY);
  });

  it("`cb-disable-survey` in the query disables it (A query parameter cb-disable-{tagcode} disables that tag)", async () => {
    const tab = await open(b.bigfuture, "/some/path/?cb-disable-survey", CONSENT.performance);
    await tab.waitForMonitor({ type: "tag", tag: "survey", state: "skipped", reason: "tag disabled by query parameter" });
    await settle();
    expect(h.web.find(SURVEY)).toEqual([]);
  });
});

describe("survey needs performance consent", () => {
  it.each([
    ["no consent banner yet (no OnetrustActiveGroups)", undefined],
    ["only strictly necessary", CONSENT.necessary],
    ["functional but not performance", CONSENT.functional],
    ["the performance group without the banner's required 'C' choice", ",X0002,"],
  ])("is not requested with %s", async (_, groups) => {
    const tab = await open(b.bigfuture, "/some/path/", groups);
    await tab.waitForMonitor({ type: "tag", tag: "survey", state: "waiting", consent: "performance" });
    await settle();
    expect(h.web.find(SURVEY)).toEqual([]);
  });

  it.each(["event", "OptanonWrapper"] as const)("is requested when the banner grants performance consent later (signalled by %s)", async (via) => {
    const tab = await open(b.bigfuture, "/some/path/", CONSENT.necessary);
    await tab.waitForMonitor({ type: "tag", tag: "survey", state: "waiting" });
    await settle(100);
    expect(h.web.find(SURVEY)).toEqual([]);
    await tab.setConsent(CONSENT.performance, { via });
    await h.web.waitForRequest(SURVEY);
    await tab.waitForMonitor({ type: "tag", tag: "survey", state: "loaded" });
    // Further banner signals do not load it again.
    await tab.setConsent(CONSENT.all, { via });
    await settle(100);
    expect(h.web.find(SURVEY)).toHaveLength(1);
  });

  it("a consent change that still lacks performance does not load it", async () => {
    const tab = await open(b.bigfuture, "/some/path/", CONSENT.necessary);
    await tab.waitForMonitor({ type: "tag", tag: "survey", state: "waiting" });
    await tab.setConsent(CONSENT.functional);
    await settle();
    expect(h.web.find(SURVEY)).toEqual([]);
  });
});

describe("Chat widget pages are listed by path for the ap-students, clep and sat-suite sites", () => {
  it.each(["apstudents", "clep", "satsuite"] as const)(
    "%s: the qa chat script loads on every listed page (and below it) with functional consent",
    async (site) => {
      const bundle = b[site];
      const chat = bundle.config.modules.chat!;
      expect(chat.scriptSrc).toBe(`https://chat.widgetvendor.example/kiwi/${site}/qa/loader.js`);
      for (const page of [...chat.pages, `${chat.pages[0]}/details`]) {
        h.web.reset();
        const tab = await open(bundle, page, CONSENT.functional);
        expect((await h.web.waitForRequest(CHAT)).url, page).toBe(chat.scriptSrc);
        await tab.waitForMonitor({ type: "tag", tag: "chat", state: "loaded" });
        expect(await tab.page.evaluate(() => (window as any).sitetags.commands.chat.isLoaded())).toBe(true);
        await tab.close();
      }
    },
  );

  it("the catalogue's other sites have no chat module", () => {
    expect(b.bigfuture.modules).not.toContain("chat");
    expect(b.about.modules).not.toContain("chat");
  });

  it.each(["/", "/contact-usx", "/register-for-an-exam-faq"])("clep: not on the unlisted page %s", async (path) => {
    const tab = await open(b.clep, path, CONSENT.functional);
    await tab.waitForMonitor({ type: "tag", tag: "chat", state: "skipped", reason: "current path does not match the route pattern" });
    await settle();
    expect(h.web.find(CHAT)).toEqual([]);
  });

  it.each([
    ["no consent banner yet", undefined],
    ["performance consent only", CONSENT.performance],
  ])("clep: not without functional consent (%s), then loaded when the banner grants it", async (_, groups) => {
    const tab = await open(b.clep, "/contact-us", groups);
    await tab.waitForMonitor({ type: "tag", tag: "chat", state: "waiting", consent: "functional" });
    await settle();
    expect(h.web.find(CHAT)).toEqual([]);
    await tab.setConsent(CONSENT.functional);
    expect((await h.web.waitForRequest(CHAT)).url).toBe("https://chat.widgetvendor.example/kiwi/clep/qa/loader.js");
  });

  it.each(["?cb-disable-chat", "?utm_source=x&cb-disable-chat=1"])(
    "`cb-disable-chat` in the query disables it (A query parameter cb-disable-{tagcode} disables that tag): %s",
    async (query) => {
      const tab = await open(b.clep, `/contact-us${query}`, CONSENT.all);
      await tab.waitForMonitor({ type: "tag", tag: "chat", state: "skipped", reason: "tag disabled by query parameter" });
      await settle();
      expect(h.web.find(CHAT)).toEqual([]);
      // Only that tag: the survey of a trailing-slash page still loads.
      h.web.reset();
      await open(b.clep, `/contact-us/${query}`, CONSENT.all);
      await h.web.waitForRequest(SURVEY);
      expect(h.web.find(CHAT)).toEqual([]);
    },
  );
});

/**
 * Contract section 3 ("In the page"), proved in Chromium against bundles the
 * generator built: where a bundle runs, how it embeds, its debug switch, its
 * behaviour under a strict Content-Security-Policy and on hostile pages.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { buildBundles, CONSENT, NONCE_ONLY_CSP, settle, useBrowserHarness, type Bundle, type TestPage } from "./harness/index.js";

const h = useBrowserHarness();
let b: Record<"clepQa" | "clepDev", Bundle>;

beforeAll(async () => {
  b = await buildBundles({ clepQa: ["clep", "qa"], clepDev: ["clep", "dev"] });
});

const CHAT_QA = "https://chat.widgetvendor.example/kiwi/clep/qa/loader.js";
const CHAT_DEV = "https://chat.widgetvendor.example/kiwi/clep/dev/loader.js";
const SURVEY = "https://survey.feedbackvendor.example/kiwi/helpful.js";
/** The consent banner the bundle loads on every non-internal page (sites/_org.yaml consent.banner). */
const BANNER = "https://cdn.consentbanner.example/scripttemplates/otSDKStub.js";
const NOT_AUTHORIZED = "not authorized for this domain";
const DYNAMIC_HOST_NOT_ALLOWED = "dynamic_host_not_allowed";

/** window.sitetags as plain data (undefined when the bundle did not start). */
function sitetagsOf(tab: TestPage) {
  return tab.page.evaluate(() => {
    const s = (window as any).sitetags;
    return s
      ? {
          site: s.site as string,
          env: s.env as string,
          modules: [...s.modules] as string[],
          log: s.log as Array<{ level: string; message: string; code?: string }>,
        }
      : undefined;
  });
}

describe("A bundle runs only on its own site's hosts for its environment", () => {
  it("the qa bundle on its site's qa host runs (window.sitetags: site clep, env qa) and loads its tags", async () => {
    // /contact-us/ is a chat page and a trailing-slash (survey) path.
    const url = h.web.page("https://clep-qa.kiwi.example/contact-us/", { bundle: b.clepQa });
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.performanceAndFunctional });
    expect(await sitetagsOf(tab)).toMatchObject({ site: "clep", env: "qa", modules: ["chat", "survey"] });
    await h.web.waitForRequest({ host: "chat.widgetvendor.example", path: "/kiwi/clep/qa/loader.js" });
    await h.web.waitForRequest({ host: "survey.feedbackvendor.example", path: "/kiwi/helpful.js" });
    // The first file, then (after the page view) the deferred second file beside it (issue #21), each once.
    const deferred = /^\/qa\/clep\/sitetags\.defer\.[0-9a-f]{10}\.min\.js$/;
    await h.web.waitForRequest({ host: "cdn.kiwi.example", path: deferred });
    await settle(300);
    expect(h.web.find({ kind: "bundle" }).map((r) => r.url)).toEqual([
      "https://cdn.kiwi.example/qa/clep/sitetags.min.js",
      expect.stringMatching(/^https:\/\/cdn\.kiwi\.example\/qa\/clep\/sitetags\.defer\.[0-9a-f]{10}\.min\.js$/),
    ]);
  });

  const elsewhere: Array<[string, () => string]> = [
    ["the site's prod host", () => "https://clep.kiwi.example/contact-us/"],
    ["another site's host", () => "https://bigfuture-qa.kiwi.example/contact-us/"],
    ["the site's uat host", () => "https://clep-uat.kiwi.example/contact-us/"],
    ["127.0.0.1 (only dev bundles run there)", () => `http://127.0.0.1:${h.web.httpPort}/contact-us/`],
  ];
  it.each(elsewhere)(
    "elsewhere, e.g. on %s, it logs `not authorized for this domain` (code dynamic_host_not_allowed) and does nothing else",
    async (_, where) => {
      const url = h.web.page(where(), { bundle: b.clepQa, after: ["window.afterBundle = true"] });
      const tab = await h.browser.openPage(url, { consentGroups: CONSENT.all, debug: true });
      // Logged: on the console (debug mode) and to the runtime monitor; window.sitetags is not defined.
      const [line] = tab.sitetagsConsole();
      expect(line.type).toBe("error");
      expect(line.text).toContain(`[sitetags] ${NOT_AUTHORIZED} (${DYNAMIC_HOST_NOT_ALLOWED})`);
      expect(await tab.logEntries()).toEqual([expect.objectContaining({ level: "error", message: NOT_AUTHORIZED, code: DYNAMIC_HOST_NOT_ALLOWED })]);
      // Nothing else: no global, no module, no tag, no beacon, no cookie, no inserted script, nothing more on the console.
      await settle();
      expect(await sitetagsOf(tab)).toBeUndefined();
      expect((await tab.monitorEvents()).map((e) => e.type)).toEqual(["log"]);
      expect(h.web.find((r) => r.kind === "third-party" || r.kind === "edge")).toEqual([]);
      // The only cookie is the debug switch the harness set (debug: true).
      expect(await tab.page.evaluate(() => [document.scripts.length, document.cookie, (window as any).afterBundle])).toEqual([2, "sitetags-debug=1", true]);
      expect(tab.sitetagsConsole()).toHaveLength(1);
      expect(tab.pageErrors).toEqual([]);
    },
  );
});

describe("dev bundles also on localhost and 127.0.0.1", () => {
  it.each(["127.0.0.1", "localhost"])("the clep dev bundle runs on a page at http://%s and loads the dev chat script", async (host) => {
    const url = h.web.page(`http://${host}:${h.web.httpPort}/contact-us`, { bundle: b.clepDev });
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.functional });
    expect(await sitetagsOf(tab)).toMatchObject({ site: "clep", modules: ["chat", "survey"] });
    expect((await h.web.waitForRequest({ host: "chat.widgetvendor.example" })).url).toBe(CHAT_DEV);
    expect((await tab.logEntries()).filter((e) => e.code === DYNAMIC_HOST_NOT_ALLOWED)).toEqual([]);
  });

  it("the dev bundle also runs on its site's dev host", async () => {
    const url = h.web.page("https://clep-dev.kiwi.example/contact-us", { bundle: b.clepDev });
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.functional });
    expect(await sitetagsOf(tab)).toMatchObject({ site: "clep", env: "dev" });
    expect((await h.web.waitForRequest({ host: "chat.widgetvendor.example" })).url).toBe(CHAT_DEV);
  });
});

describe("logs print to the console only in debug mode, which a documented switch turns on per browser", () => {
  it("by default nothing reaches the console, though the runtime logged (a skipped tag, a refused host)", async () => {
    const unlisted = h.web.page("https://clep-qa.kiwi.example/about", { bundle: b.clepQa });
    const tab = await h.browser.openPage(unlisted);
    await tab.waitForMonitor({ type: "tag", tag: "chat", state: "skipped" });
    expect((await tab.logEntries()).length).toBeGreaterThan(0);

    const refused = h.web.page("https://clep.kiwi.example/about", { bundle: b.clepQa });
    await tab.goto(refused);
    await tab.waitForMonitor({ type: "log", code: DYNAMIC_HOST_NOT_ALLOWED });
    await settle(100);
    expect(tab.console).toEqual([]);
  });

  it("?sitetags-debug=1 turns it on and it persists (a cookie, not localStorage) on the next page load; ?sitetags-debug=0 turns it off", async () => {
    h.web.page("https://clep-qa.kiwi.example/*", { bundle: b.clepQa });
    const tab = await h.browser.openPage("https://clep-qa.kiwi.example/about?sitetags-debug=1");
    const linesAfter = async (url: string) => {
      const before = tab.sitetagsConsole().length;
      await tab.goto(url);
      await tab.waitForMonitor({ type: "tag", tag: "chat", state: "skipped" });
      await settle(50);
      return tab.sitetagsConsole().slice(before);
    };
    const first = tab.sitetagsConsole();
    expect(first.length).toBeGreaterThan(0);
    expect(first.map((l) => l.text).join("\n")).toContain("[sitetags] current path does not match the route pattern");
    expect(await tab.page.evaluate(() => document.cookie)).toContain("sitetags-debug=1");
    expect(await tab.page.evaluate(() => localStorage.length)).toBe(0);

    expect((await linesAfter("https://clep-qa.kiwi.example/about")).length).toBeGreaterThan(0);
    expect(await linesAfter("https://clep-qa.kiwi.example/about?sitetags-debug=0")).toEqual([]);
    expect(await linesAfter("https://clep-qa.kiwi.example/about")).toEqual([]);
    expect(await tab.page.evaluate(() => document.cookie)).not.toContain("sitetags-debug");

    // Per browser: another browser profile (a fresh context) is not in debug mode.
    await linesAfter("https://clep-qa.kiwi.example/about?sitetags-debug=1");
    const other = await h.browser.openPage("https://clep-qa.kiwi.example/about");
    await other.waitForMonitor({ type: "tag", tag: "chat", state: "skipped" });
    expect(other.console).toEqual([]);
  });
});

describe("One classic <script src=…> (async or not) is all a page needs", () => {
  const embeds: Array<[string, { async?: boolean; bundleIn?: "head" | "body" }]> = [
    ["a blocking <script src> in head", {}],
    ["an async <script src> in head", { async: true }],
    ["a blocking <script src> at the end of body", { bundleIn: "body" }],
    ["an async <script src> at the end of body", { async: true, bundleIn: "body" }],
  ];
  it.each(embeds)("%s starts the bundle and loads its tags", async (_, embed) => {
    const url = h.web.page("https://clep-qa.kiwi.example/contact-us/", { bundle: b.clepQa, ...embed });
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.performanceAndFunctional });
    await h.web.waitForRequest({ host: "chat.widgetvendor.example" });
    await h.web.waitForRequest({ host: "survey.feedbackvendor.example" });
    await tab.page.waitForFunction(() => ((window as any).__thirdParty || []).length === 3);
    expect((await tab.thirdPartyScriptsRun()).sort()).toEqual([BANNER, CHAT_QA, SURVEY]);
    expect(await sitetagsOf(tab)).toMatchObject({ site: "clep", env: "qa" });
    expect(tab.pageErrors).toEqual([]);
  });
});

describe("bundles run under a Content-Security-Policy without 'unsafe-eval', and pass a CSP nonce on to the scripts they inject", () => {
  /** The nonce of the document's last response, and of each injected script. */
  async function nonces(tab: TestPage) {
    const page = h.web.find({ kind: "page", path: new URL(tab.page.url()).pathname }).at(-1);
    const injected = await tab.page.evaluate(() =>
      ["sitetags-chat-widget", "sitetags-survey"].map((id) => (document.getElementById(id) as HTMLScriptElement | null)?.nonce),
    );
    return { page: page?.nonce, injected };
  }

  it.each([
    ["blocking", false],
    ["async", true],
  ])("strict policy (nonce + 'strict-dynamic'), %s bundle: runs with no violation, and the scripts it injects carry the page's nonce", async (_, async) => {
    const url = h.web.page("https://clep-qa.kiwi.example/contact-us/", { bundle: b.clepQa, csp: true, async });
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.performanceAndFunctional });
    await tab.waitForMonitor({ type: "tag", tag: "chat", state: "loaded" });
    await tab.waitForMonitor({ type: "tag", tag: "survey", state: "loaded" });
    const { page, injected } = await nonces(tab);
    expect(page).toMatch(/\S{16,}/);
    expect(injected).toEqual([page, page]);
    expect(await tab.cspViolations()).toEqual([]);
    expect(tab.pageErrors).toEqual([]);
  });

  it("nonce-only policy (no 'strict-dynamic'): the injected scripts load only because they carry the nonce, also when consent comes later", async () => {
    const url = h.web.page("https://clep-qa.kiwi.example/contact-us/", { bundle: b.clepQa, csp: NONCE_ONLY_CSP, async: true });
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.functional });
    await tab.waitForMonitor({ type: "tag", tag: "chat", state: "loaded" });
    await tab.waitForMonitor({ type: "tag", tag: "survey", state: "waiting" });
    await tab.setConsent(CONSENT.performanceAndFunctional);
    await tab.waitForMonitor({ type: "tag", tag: "survey", state: "loaded" });
    expect((await tab.thirdPartyScriptsRun()).sort()).toEqual([BANNER, CHAT_QA, SURVEY]);
    const { page, injected } = await nonces(tab);
    expect(injected).toEqual([page, page]);
    expect(await tab.cspViolations()).toEqual([]);
  });
});

describe("Every millisecond counts on students' pages: boot reads document.cookie once", () => {
  it("boot's cookie reads (sign-in session and token, consent, identity) share one snapshot of document.cookie, each read being a round trip to the browser's network service", async () => {
    // Counts document.cookie reads, and notes the count at each runtime monitor event.
    const countReads = `(() => {
      const d = Object.getOwnPropertyDescriptor(Document.prototype, "cookie");
      window.__cookieReads = 0;
      window.__cookieWrites = 0;
      window.__readsAt = [];
      Object.defineProperty(Document.prototype, "cookie", { configurable: true, get() { window.__cookieReads++; return d.get.call(this); }, set(v) { window.__cookieWrites++; d.set.call(this, v); } });
      (window.__sitetagsMonitors = window.__sitetagsMonitors || []).push((e) => window.__readsAt.push([e.type, window.__cookieReads, window.__cookieWrites]));
    })();`;
    const url = h.web.page("https://clep-qa.kiwi.example/contact-us/", { bundle: b.clepQa });
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.all, initScripts: [countReads] });
    expect(await sitetagsOf(tab)).toMatchObject({ site: "clep", env: "qa", modules: ["chat", "survey"] });
    const readsAt = await tab.page.evaluate(() => (window as any).__readsAt as Array<[string, number, number]>);
    // The modules start at the end of boot's synchronous part, after identity, consent and the Edge client:
    // by then one read, whatever boot wrote: a write through the jar updates the snapshot (batched cookie writes, issue #21).
    const atModules = readsAt.filter(([type]) => type === "module");
    expect(atModules).toHaveLength(2);
    for (const [, reads] of atModules) expect(reads).toBe(1);
    expect(atModules[0][2]).toBeGreaterThanOrEqual(1); // a new visitor: the lifetime cookie
    // mainthread (#21): the startup settles in the same microtask checkpoint (nothing to wait for), so the first page view's
    // rules (its traffic-source cookies read after boot's lifetime cookie was written) still read boot's one snapshot.
    const atRules = readsAt.filter(([type]) => type === "rule");
    expect(atRules.length).toBeGreaterThan(0);
    for (const [, reads] of atRules) expect(reads).toBe(1);
  });
});

describe("A bundle never throws into the page", () => {
  it("a tag whose third-party script answers 500: logged (script embedding failed), no page error, later page scripts run", async () => {
    h.web.script(CHAT_QA, { status: 500 });
    const url = h.web.page("https://clep-qa.kiwi.example/contact-us", { bundle: b.clepQa, after: ["window.afterBundle = true"] });
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.functional });
    await tab.waitForMonitor({ type: "tag", tag: "chat", state: "failed" });
    expect((await h.web.waitForRequest({ host: "chat.widgetvendor.example" })).status).toBe(500);
    const log = (await sitetagsOf(tab))!.log;
    expect(log).toContainEqual(expect.objectContaining({ level: "error", message: "script embedding failed" }));
    expect(
      await tab.page.evaluate(() => {
        const chat = (window as any).sitetags.commands.chat;
        return [(window as any).afterBundle, chat.isLoaded(), chat.open()];
      }),
    ).toEqual([true, false, false]);
    expect(tab.pageErrors).toEqual([]);
  });

  interface Hostile {
    before?: string[];
    query?: string;
    groups?: string;
    /** Another <script src> of the same bundle further down. */
    twice?: boolean;
    /** The banner calls OptanonWrapper with functional consent after load. */
    consentLater?: boolean;
    /** A log entry the runtime must have written (as the monitor saw it: a second bundle logs into its own buffer). */
    logged?: { level: string; message: string };
    /** Modules that started. */
    modules: string[];
  }
  const hostile: Array<[string, Hostile]> = [
    [
      "defines a window.OnetrustActiveGroups getter that throws",
      {
        before: ["Object.defineProperty(window, 'OnetrustActiveGroups', { configurable: true, get: function () { throw new Error('hostile getter'); } });"],
        // A broken banner global counts as no consent yet: the chat waits, nothing fails.
        logged: { level: "warn", message: "could not listen for consent changes" },
        modules: ["chat", "survey"],
      },
    ],
    [
      "makes localStorage throw (a privacy mode) and asks for debug mode",
      {
        before: ["Object.defineProperty(window, 'localStorage', { configurable: true, get: function () { throw new Error('no storage'); } });"],
        query: "?sitetags-debug=1",
        groups: CONSENT.functional,
        modules: ["chat", "survey"],
      },
    ],
    [
      "replaces console methods with throwing ones, in debug mode",
      {
        before: ["['debug', 'info', 'warn', 'error', 'log'].forEach(function (m) { console[m] = function () { throw new Error('console ' + m); }; });"],
        query: "?sitetags-debug=1",
        groups: CONSENT.functional,
        modules: ["chat", "survey"],
      },
    ],
    [
      "installs a runtime monitor that throws",
      { before: ["window.__sitetagsMonitors = [function () { throw new Error('bad monitor'); }];"], groups: CONSENT.functional, modules: ["chat", "survey"] },
    ],
    [
      "includes the bundle twice",
      { twice: true, groups: CONSENT.functional, logged: { level: "warn", message: "already loaded on this page" }, modules: ["chat", "survey"] },
    ],
    [
      "has its own consent wrapper (OptanonWrapper) and the banner gives consent later",
      {
        before: ["window.OptanonWrapper = function () { window.wrapperCalls = (window.wrapperCalls || 0) + 1; };"],
        groups: CONSENT.necessary,
        consentLater: true,
        logged: { level: "info", message: "tag loaded" },
        modules: ["chat", "survey"],
      },
    ],
  ];
  it.each(hostile)("a page that %s: no uncaught error, and a page script after the bundle still runs", async (_, setup) => {
    const body = setup.twice ? `<script src="${h.web.serveBundle(b.clepQa)}"></script>` : "";
    const url = h.web.page("https://clep-qa.kiwi.example/contact-us", { bundle: b.clepQa, before: setup.before, after: ["window.afterBundle = true"], body });
    const tab = await h.browser.openPage(url + (setup.query ?? ""), { consentGroups: setup.groups });
    if (setup.consentLater) {
      await settle(50);
      expect(h.web.find({ host: "chat.widgetvendor.example" })).toEqual([]);
      await tab.setConsent(CONSENT.functional, { via: "OptanonWrapper" });
      expect(await tab.page.evaluate(() => (window as any).wrapperCalls)).toBe(1);
    }
    if (setup.groups) await h.web.waitForRequest({ host: "chat.widgetvendor.example" });
    await settle(100);
    expect(await tab.page.evaluate(() => (window as any).afterBundle)).toBe(true);
    const sitetags = await sitetagsOf(tab);
    expect(sitetags).toMatchObject({ site: "clep", env: "qa", modules: setup.modules });
    // Polled: "tag loaded" is logged at the script's load event, after the request reached the server (and the pause above).
    if (setup.logged) await expect.poll(() => tab.logEntries(), { timeout: 8000 }).toContainEqual(expect.objectContaining(setup.logged));
    expect(h.web.find({ host: "chat.widgetvendor.example" }).length).toBe(setup.groups ? 1 : 0);
    expect(tab.pageErrors).toEqual([]);
  });
});

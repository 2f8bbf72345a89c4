/**
 * The browser-test harness in one import. A test file reads:
 *
 *     const h = useBrowserHarness();             // servers + Chromium for this file
 *     let b: Record<"clepQa", Bundle>;
 *     beforeAll(async () => { b = await buildBundles({ clepQa: ["clep", "qa"] }); });
 *
 *     it("loads the chat on a listed page", async () => {
 *       const url = h.web.page("https://clep-qa.kiwi.example/contact-us", { bundle: b.clepQa });
 *       await h.browser.openPage(url, { consentGroups: CONSENT.functional });
 *       await h.web.waitForRequest({ host: "chat.widgetvendor.example" });
 *     });
 *
 * Modules: certs.ts (TLS), servers.ts (pages, bundles, mock edge, third
 * parties; on the local fictional web it shares with the preview,
 * preview/server/fictional-web.ts), pages.ts, web-types.ts and request-match.ts, browser.ts (Chromium, pages, consent, console), bundles.ts
 * (generator builds).
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { launchBrowser, type TestBrowser } from "./browser.js";
import { startServers, type TestWeb } from "./servers.js";
import { removeTempDirs } from "./temp.js";

export * from "./browser.js";
export * from "./bundles.js";
export * from "./servers.js";
export * from "./sign-in.js";
export * from "./youtube.js";

export interface Harness {
  readonly web: TestWeb;
  readonly browser: TestBrowser;
}

/**
 * Starts the servers and Chromium before the file's tests and stops them
 * after (and removes the harness's temp dirs); before each test forgets the previous test's requests and pages,
 * after each closes its pages.
 */
export function useBrowserHarness(): Harness {
  let web: TestWeb | undefined;
  let browser: TestBrowser | undefined;
  beforeAll(async () => {
    web = await startServers();
    browser = await launchBrowser(web);
  });
  beforeEach(() => web?.nextTest());
  afterEach(async () => {
    await browser?.closePages();
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
    removeTempDirs();
  });
  return {
    get web() {
      if (!web) throw new Error("the harness starts in beforeAll");
      return web;
    },
    get browser() {
      if (!browser) throw new Error("the harness starts in beforeAll");
      return browser;
    },
  };
}

/**
 * Lets the browser process accept the test servers' self-signed certificate.
 * Requests that outlive their page (sendBeacon on pagehide) are sent by the
 * browser process, which does not know the context's ignoreHTTPSErrors:
 * without this, those that need a new connection are dropped (docs/edge.md).
 */
export async function trustTestCertificateForBeacons(h: Harness): Promise<void> {
  const cdp = await h.browser.browser.newBrowserCDPSession();
  await cdp.send("Security.setIgnoreCertificateErrors", { ignore: true });
}

/** Waits a little: for asserting that something did not happen after the runtime decided. */
export function settle(ms = 150): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The harness itself: real-looking URLs reach the local servers, pages carry
 * their nonce and CSP, third-party scripts record themselves, and the mock
 * edge records fetch and sendBeacon requests and answers as scripted.
 */
import { describe, expect, it } from "vitest";
import { CONSENT, useBrowserHarness } from "./harness/index.js";

const h = useBrowserHarness();

describe("harness", () => {
  it("serves pages and third parties on port-less https URLs through Chromium's host rules", async () => {
    const url = h.web.page("https://clep-qa.kiwi.example/hello", {
      bundle: "https://chat.widgetvendor.example/some/vendor.js",
      csp: true,
      dataLayer: [{ event: "before" }],
      cookies: ["seen=1; Path=/"],
    });
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.functional });
    expect(tab.page.url()).toBe("https://clep-qa.kiwi.example/hello");
    const page = await h.web.waitForRequest({ host: "clep-qa.kiwi.example", path: "/hello" });
    expect(page.headers.host).toBe("clep-qa.kiwi.example");
    expect(page.headers["content-security-policy"]).toBeUndefined();
    await h.web.waitForRequest({ host: "chat.widgetvendor.example", path: "/some/vendor.js" });
    expect(await tab.thirdPartyScriptsRun()).toEqual(["https://chat.widgetvendor.example/some/vendor.js"]);
    expect(await tab.page.evaluate(() => [(window as any).kiwiDataLayer, document.cookie, (window as any).OnetrustActiveGroups])).toEqual([
      [{ event: "before" }],
      "seen=1",
      CONSENT.functional,
    ]);
    expect(await tab.cspViolations()).toEqual([]);
    expect(tab.pageErrors).toEqual([]);
  });

  it("serves http on 127.0.0.1 with an explicit port", async () => {
    const url = h.web.page(`http://127.0.0.1:${h.web.httpPort}/local`, { after: ["window.ran = true"] });
    const tab = await h.browser.openPage(url);
    expect(await tab.page.evaluate(() => (window as any).ran)).toBe(true);
    expect(h.web.find({ host: "127.0.0.1", path: "/local" })[0].protocol).toBe("http");
  });

  it("a strict CSP blocks what lacks the nonce, and the page sees the violation", async () => {
    const url = h.web.page("https://clep-qa.kiwi.example/csp", {
      csp: true,
      after: ["try { eval('1'); } catch (e) { window.evalBlocked = true; }"],
    });
    const tab = await h.browser.openPage(url);
    expect(await tab.page.evaluate(() => (window as any).evalBlocked)).toBe(true);
    const violations = await tab.cspViolations();
    expect(violations.map((v) => [v.directive, v.blockedURI])).toEqual([["script-src", "eval"]]);
  });

  it("a request an earlier test's page sends after that test ended (a beacon on the way out) is a stray, not a request of this test", async () => {
    const url = h.web.page("https://bigfuture-qa.kiwi.example/late", {});
    const tab = await h.browser.openPage(url);
    const send = (id: string) =>
      tab.page.evaluate((i) => navigator.sendBeacon(`https://edge.kiwi.example/ee/v1/collect?configId=abc&requestId=${i}`, "{}"), id);
    await send("during");
    await h.web.waitForRequest({ host: "edge.kiwi.example" });
    h.web.nextTest(); // what the next test's beforeEach does
    h.web.page("https://bigfuture-qa.kiwi.example/late", {});
    await send("after");
    await expect.poll(() => h.web.strays.map((r) => r.query.requestId), { timeout: 5000 }).toEqual(["after"]);
    expect(h.web.requests).toEqual([]);
    // A context opened now carries the new marker: its requests count.
    await h.browser.openPage(url);
    expect(h.web.find({ host: "bigfuture-qa.kiwi.example", path: "/late" })).toHaveLength(1);
    expect(await tab.page.evaluate(() => document.cookie)).toBe(""); // HttpOnly: no page script sees the marker
  });

  it("records edge requests, fetch and sendBeacon, and answers as scripted", async () => {
    h.web.edge.respond({ status: 503, body: "busy" });
    const url = h.web.page("https://bigfuture-qa.kiwi.example/edge", {});
    const tab = await h.browser.openPage(url);
    const statuses = await tab.page.evaluate(async () => {
      const post = (id: string) =>
        fetch(`https://edge.kiwi.example/ee/v1/interact?configId=abc&requestId=${id}`, {
          method: "POST",
          credentials: "include",
          headers: { "Content-Type": "text/plain; charset=UTF-8" },
          body: JSON.stringify({ events: [{ xdm: { id } }] }),
        }).then(async (r) => [r.status, await r.text()]);
      const first = await post("r1");
      const second = await post("r2");
      const beacon = navigator.sendBeacon(
        "https://edge.kiwi.example/ee/v1/collect?configId=abc&requestId=r3",
        new Blob([JSON.stringify({ events: [{ xdm: { id: "r3" } }] })], { type: "text/plain; charset=UTF-8" }),
      );
      return { first, second, beacon };
    });
    expect(statuses.first).toEqual([503, "busy"]);
    expect(statuses.second[0]).toBe(200);
    expect(JSON.parse(statuses.second[1] as string)).toEqual({ requestId: "r2", handle: [] });
    expect(statuses.beacon).toBe(true);
    const beacon = await h.web.waitForRequest({ host: "edge.kiwi.example", path: "/ee/v1/collect" });
    expect(beacon.method).toBe("POST");
    expect(beacon.query).toEqual({ configId: "abc", requestId: "r3" });
    expect(beacon.json).toEqual({ events: [{ xdm: { id: "r3" } }] });
    expect(beacon.headers["content-type"]?.toLowerCase()).toBe("text/plain; charset=utf-8");
    const interact = h.web.find((r) => r.host === "edge.kiwi.example" && r.method === "POST" && r.path === "/ee/v1/interact");
    expect(interact.map((r) => [r.query.requestId, r.status])).toEqual([
      ["r1", 503],
      ["r2", 200],
    ]);
    expect(interact[0].headers.origin).toBe("https://bigfuture-qa.kiwi.example");
  });

  it("third-party overrides: error status and delays", async () => {
    h.web.script("https://survey.feedbackvendor.example/x.js", { status: 500 });
    const url = h.web.page("https://bigfuture-qa.kiwi.example/tp", {
      after: [
        "var s = document.createElement('script'); s.src = 'https://survey.feedbackvendor.example/x.js'; s.onerror = function () { window.failed = true; }; document.head.appendChild(s);",
      ],
    });
    const tab = await h.browser.openPage(url);
    await tab.page.waitForFunction(() => (window as any).failed === true);
    expect((await h.web.waitForRequest({ path: "/x.js" })).status).toBe(500);
    await expect(h.web.waitForRequest({ host: "nowhere.example" }, { timeoutMs: 50 })).rejects.toThrow(/no request matching/);
  });
});

import { describe, expect, it, vi } from "vitest";
import { guardAnalytics, safeVariables, withPageUrls } from "../../../../runtime-modules/tracking/guard-analytics";
import { recorder } from "./recorder";

function setup(href: string, referrer = "") {
  const r = recorder();
  const page = { href, referrer };
  const onBlocked = vi.fn();
  const onPageView = vi.fn(() => ({ eVar80: "spring" }));
  const analytics = guardAnalytics(r.analytics, { href: () => page.href, referrer: () => page.referrer, pageName: () => "site/page", onPageView, onBlocked });
  return { ...r, page, analytics, onBlocked, onPageView };
}

describe("guardAnalytics", () => {
  it('"Tracking is not allowed when the page address contains an at-sign": nothing reaches the client, logged once', async () => {
    for (const href of ["https://x.kiwi.example/?email=a@b.example", "https://x.kiwi.example/p%40q", "https://x.kiwi.example/#/a@b"]) {
      const s = setup(href);
      await s.analytics.pageView({});
      await s.analytics.event({ name: "n", eventType: "t", linkType: "other" });
      expect(s.calls).toEqual([]);
      expect(s.onBlocked).toHaveBeenCalledTimes(1);
      expect(s.onPageView).not.toHaveBeenCalled();
    }
  });
  it("page views carry the page address and referrer through xdm, redacted; the page name and the page-view variables", () => {
    const s = setup("https://satreg.kiwi.example/r?regNo=12345&tab=a", "https://mail.example/?personId=77&x=1");
    s.analytics.pageView({ variables: { eVar1: "x" } });
    const [view] = s.of("pageView");
    expect(view.name).toBe("site/page");
    expect(view.variables).toEqual({ eVar80: "spring", eVar1: "x" });
    expect(view.xdm.web.webPageDetails).toEqual({ URL: "https://satreg.kiwi.example/r?regNo=[redacted]&tab=a", name: "site/page" });
    expect(view.xdm.web.webReferrer).toEqual({ URL: "https://mail.example/?personId=[redacted]&x=1" });
    expect(JSON.stringify(s.calls)).not.toMatch(/12345|77/);
  });
  it("a named page view keeps its name; a later page view (SPA) has the previous view's address as referrer", () => {
    const s = setup("https://bigfuture.kiwi.example/a", "https://search.example/");
    s.analytics.pageView({ name: "bigfuture/a" });
    s.page.href = "https://bigfuture.kiwi.example/b?u=me";
    s.analytics.pageView({});
    const [first, second] = s.of("pageView");
    expect(first.name).toBe("bigfuture/a");
    expect(first.xdm.web.webReferrer.URL).toBe("https://search.example/");
    expect(second.xdm.web.webPageDetails.URL).toBe("https://bigfuture.kiwi.example/b?u=[redacted]");
    expect(second.xdm.web.webReferrer.URL).toBe("https://bigfuture.kiwi.example/a");
  });
  it("events: the whole web.webInteraction with a safe URL (the page's when none is given), the page URLs, redacted name and variables", () => {
    const s = setup("https://scores.kiwi.example/?studentid=9&i=3", "");
    s.analytics.event({
      name: "clicked",
      eventType: "web.webinteraction.linkClicks",
      linkType: "exit",
      url: "https://other.example/?regId=5#x",
      variables: { prop1: "https://a.example/?u=bob" },
    });
    s.analytics.event({ name: "privacy", eventType: "kiwi.privacyConsentChange", linkType: "other" });
    const [click, other] = s.of("event");
    expect(click.url).toBe("https://other.example/?regId=[redacted]#x");
    expect(click.xdm.web.webInteraction).toEqual({ name: "clicked", type: "exit", linkClicks: { value: 1 }, URL: "https://other.example/?regId=[redacted]#x" });
    expect(click.xdm.web.webPageDetails.URL).toBe("https://scores.kiwi.example/?studentid=[redacted]&i=[redacted]");
    expect(click.variables).toEqual({ prop1: "https://a.example/?u=[redacted]" });
    expect(other.url).toBe("https://scores.kiwi.example/?studentid=[redacted]&i=[redacted]");
    expect(JSON.stringify(s.calls)).not.toMatch(/=9|=3|=5|bob/);
  });
  it("names and variables holding a bare name=value pair of a redacted parameter are redacted too (a declared page name, a rule's variable)", () => {
    const s = setup("https://scores.kiwi.example/");
    s.analytics.pageView({ name: "scores/report/regNo=12345678", variables: { eVar5: "scores:app:studentid=99887766" } });
    s.analytics.event({ name: "card:personId=4242", eventType: "web.webinteraction.linkClicks", linkType: "other" });
    const [view] = s.of("pageView");
    const [click] = s.of("event");
    expect(view.name).toBe("scores/report/regNo=[redacted]");
    expect(view.xdm.web.webPageDetails.name).toBe("scores/report/regNo=[redacted]");
    expect(view.variables.eVar5).toBe("scores:app:studentid=[redacted]");
    expect(click.xdm.web.webInteraction.name).toBe("card:personId=[redacted]");
    expect(JSON.stringify(s.calls)).not.toMatch(/12345678|99887766|4242/);
  });
  it("a click's Activity Map data gets the page's name (cut to 200), everything redacted", () => {
    const s = setup("https://scores.kiwi.example/");
    s.analytics.event({
      name: "n",
      eventType: "web.webinteraction.linkClicks",
      linkType: "other",
      activityMap: { link: "see regNo=12345", region: "card studentid=777" },
    });
    const [click] = s.of("event");
    expect(click.activityMap).toEqual({ link: "see regNo=[redacted]", region: "card studentid=[redacted]", page: "site/page" });
    s.analytics.event({ name: "n", eventType: "t", linkType: "other" });
    expect(s.of("event")[1].activityMap).toBeUndefined();
  });
  it("setVariables passes redacted values on", () => {
    const s = setup("https://x.kiwi.example/");
    s.analytics.setVariables({ eVar9: "?regNo=1" });
    expect(s.of("setVariables")).toEqual([{ eVar9: "?regNo=[redacted]" }]);
  });
  it("setVariables redacts without changing the caller's object, and copies it only when a value changes (issue #21)", () => {
    const s = setup("https://x.kiwi.example/");
    const clean = { eVar1: "k1-3", eVar2: "a=b" };
    const secret = { eVar1: "k1-3", eVar9: "x?studentid=9" };
    s.analytics.setVariables(clean);
    s.analytics.setVariables(secret);
    const [first, second] = s.of("setVariables");
    expect(first).toBe(clean);
    expect(second).toEqual({ eVar1: "k1-3", eVar9: "x?studentid=[redacted]" });
    expect(secret).toEqual({ eVar1: "k1-3", eVar9: "x?studentid=9" });
  });
});

describe("withPageUrls / safeVariables", () => {
  it("keeps the caller's xdm, makes its own addresses safe, fills the page's in", () => {
    const x = withPageUrls({ eventType: "e", web: { webPageDetails: { name: "n", URL: "https://a.example/?u=1" }, other: 1 } }, "https://p.example/", "");
    expect(x).toEqual({ eventType: "e", web: { webPageDetails: { name: "n", URL: "https://a.example/?u=[redacted]" }, webReferrer: { URL: "" }, other: 1 } });
    expect(withPageUrls(undefined, "https://p.example/a@b.example?x", "r")).toEqual({ web: { webPageDetails: { URL: "" }, webReferrer: { URL: "r" } } });
  });
  it("variables: every value redacted, nothing else changed", () => {
    expect(safeVariables({ a: "plain", b: "https://x/?personId=4&y=2" })).toEqual({ a: "plain", b: "https://x/?personId=[redacted]&y=2" });
    expect(safeVariables(undefined)).toEqual({});
  });
});

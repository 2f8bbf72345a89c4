/**
 * Consent at the network level, in Chromium against built bundles: for every
 * consent state x category, a tag of that category is requested if and only if
 * the gate allows it; plus GPC, user names in the query and the referrer, each
 * exclusion list, cb-disable-{tag}, internal sites, the privacy-host skip, a
 * banner that never loads, and consent granted late (tags load then, once).
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  buildBundles,
  CONSENT_CATEGORIES,
  groupsFor,
  settle,
  tempCatalogue,
  useBrowserHarness,
  type Bundle,
  type ConsentCategoryName,
  type TestPage,
} from "./harness/index.js";

const h = useBrowserHarness();

const CATEGORIES = CONSENT_CATEGORIES;
type Category = ConsentCategoryName;

/** One rule per category, each loading its own third-party script on library load. */
const tagRules = CATEGORIES.map(
  (c) => `  - id: tag-${c.toLowerCase()}
    name: A ${c} tag
    events: [{ type: libraryLoaded }]
    actions: [{ type: loadScript, src: "https://tags.vendor.example/${c}.js", consent: ${c} }]`,
).join("\n");

const site = (code: string, extra: string) => `code: ${code}
name: Consent lab ${code}
${extra}
rules:
${tagRules}
`;

const SITES = {
  "consentlab.yaml": site("consentlab", 'appId: "777"\nhosts:\n  qa: [consentlab-qa.kiwi.example, privacy.consentlab-qa.kiwi.example]'),
  // Application id 229: on both exclusion lists (functional 229; marketing 8, 229, …).
  "consentpay.yaml": site("consentpay", 'appId: "229"\nhosts:\n  qa: [consentpay-qa.kiwi.example]'),
  // Application id 8: marketing only.
  "consentid.yaml": site(
    "consentid",
    'appId: "8"\nhosts:\n  qa: [consentid-qa.kiwi.example, blocked-consentid-qa.kiwi.example]\nexclusions:\n  hosts:\n    marketing: [blocked-consentid-qa.kiwi.example]',
  ),
  "consentinternal.yaml": site("consentinternal", 'appId: "778"\ninternal: true\nhosts:\n  qa: [consentinternal-qa.kiwi.example]'),
  "consentpairs.yaml": `code: consentpairs
name: Lifecycle pairs
appId: "781"
hosts:
  qa: [consentpairs-qa.kiwi.example]
rules:
  - id: pair-marketing
    name: Marketing tags at DOM ready
    events: [{ type: tagsLoad, category: marketing, lifecycle: domReady }]
    actions: [{ type: loadScript, src: "https://tags.vendor.example/pair-marketing.js", consent: marketing }]
  - id: pair-performance
    name: Performance tags at page top
    events: [{ type: tagsLoad, category: performance, lifecycle: pageTop }]
    actions: [{ type: pixel, src: "https://tags.vendor.example/pair-performance.gif", consent: performance }]
`,
  "consentallow.yaml": site(
    "consentallow",
    'appId: "779"\nhosts:\n  qa: [consentallow-qa.kiwi.example, other-consentallow-qa.kiwi.example]\nexclusions:\n  allowHosts: [consentallow-qa.kiwi.example]',
  ),
};

let b: Record<"lab" | "pay" | "id" | "internal" | "allow" | "pairs", Bundle>;
beforeAll(async () => {
  b = await buildBundles(
    {
      lab: ["consentlab", "qa"],
      pay: ["consentpay", "qa"],
      id: ["consentid", "qa"],
      internal: ["consentinternal", "qa"],
      allow: ["consentallow", "qa"],
      pairs: ["consentpairs", "qa"],
    },
    { sitesDir: tempCatalogue(SITES) },
  );
}, 240_000);

const requested = () => new Set(h.web.find({ host: "tags.vendor.example" }).map((r) => r.path.replace(/^\/|\.js$/g, "")));

async function run(bundle: Bundle, url: string, options: { groups?: string; initScripts?: string[]; referer?: string } = {}) {
  const page = h.web.page(url, { bundle });
  const tab = await h.browser.openPage(page, { consentGroups: options.groups, initScripts: options.initScripts });
  await tagsSettled(tab);
  return tab;
}

/**
 * Every tag rule's consent decision is made and each allowed tag's script has
 * reached the server; then a pause in which a tag that should not load would
 * have. Waiting for the requests themselves, not a fixed time: on a busy
 * machine a script request can take longer than any pause.
 */
async function tagsSettled(tab: TestPage) {
  for (const c of CATEGORIES) await tab.waitForMonitor({ type: "tag", tag: `tag-${c.toLowerCase()}` });
  const decided = await tab.monitorEvents();
  for (const c of CATEGORIES) {
    if (decided.some((e) => e.type === "tag" && e.tag === `tag-${c.toLowerCase()}` && e.state === "allowed"))
      await h.web.waitForRequest({ host: "tags.vendor.example", path: `/${c}.js` });
  }
  await settle(400);
}

describe('"a tag of that category is requested if and only if the gate allows it"', () => {
  const states: Array<[string, Category[]]> = [
    ["necessary only (pre-opt-in)", []],
    ...CATEGORIES.map((c): [string, Category[]] => [`${c} only`, [c]]),
    ["performance and functional", ["performance", "functional"]],
    ["everything", [...CATEGORIES]],
  ];
  it.each(states)("consent: %s", async (_, granted) => {
    await run(b.lab, "https://consentlab-qa.kiwi.example/", { groups: groupsFor(granted) });
    expect(requested()).toEqual(new Set(granted));
  });

  it("no answer from the banner yet: nothing at all", async () => {
    await run(b.lab, "https://consentlab-qa.kiwi.example/");
    expect(requested()).toEqual(new Set());
  });

  it('"Internal sites always allow" (full consent, no banner wait)', async () => {
    await run(b.internal, "https://consentinternal-qa.kiwi.example/");
    expect(requested()).toEqual(new Set(CATEGORIES));
    expect(h.web.find({ host: "cdn.consentbanner.example" })).toEqual([]);
  });
});

describe("rules that block even with consent", () => {
  const all = groupsFor([...CATEGORIES]);

  it('"A global privacy signal (navigator.globalPrivacyControl) blocks marketing" (program categories skip the later checks)', async () => {
    const tab = await run(b.lab, "https://consentlab-qa.kiwi.example/", {
      groups: all,
      initScripts: ["Object.defineProperty(navigator, 'globalPrivacyControl', { get: function () { return true; } })"],
    });
    expect(requested()).toEqual(new Set(["performance", "functional", "programFunctional", "programMarketing"]));
    expect(await tab.page.evaluate(() => (window as any).__sitetagsEvents.find((e: any) => e.type === "tag" && e.tag === "tag-marketing"))).toMatchObject({
      state: "blocked",
      reason: "gpc",
    });
  });

  it('"A user name (an email address …) in the query string … blocks marketing"', async () => {
    const tab = await run(b.lab, "https://consentlab-qa.kiwi.example/account?user=student%40mail.example", { groups: all });
    expect(requested().has("marketing")).toBe(false);
    expect(requested().has("performance")).toBe(true);
    expect(await tab.page.evaluate(() => (window as any).__sitetagsEvents.find((e: any) => e.type === "tag" && e.tag === "tag-marketing"))).toMatchObject({
      reason: "user-name-in-url",
      detail: "query",
    });
  });

  it('"… or the referrer blocks marketing"', async () => {
    const landing = h.web.page("https://consentlab-qa.kiwi.example/landing", { bundle: b.lab });
    const from = h.web.page("https://consentlab-qa.kiwi.example/from?email=parent@mail.example", {
      body: `<a id="go" href="${landing}">go</a>`,
      headers: { "Referrer-Policy": "unsafe-url" },
    });
    const tab = await h.browser.openPage(from, { consentGroups: all });
    await Promise.all([tab.page.waitForURL(/\/landing$/), tab.page.click("#go")]);
    await tagsSettled(tab);
    expect(requested().has("marketing")).toBe(false);
    expect(requested().has("functional")).toBe(true);
  });

  it('exclusion list by application id: "functional 229; marketing 8, 229, …"', async () => {
    await run(b.pay, "https://consentpay-qa.kiwi.example/", { groups: all });
    expect(requested()).toEqual(new Set(["performance", "programFunctional", "programMarketing"]));
    h.web.reset();
    await run(b.id, "https://consentid-qa.kiwi.example/", { groups: all });
    expect(requested()).toEqual(new Set(["performance", "functional", "programFunctional", "programMarketing"]));
  });

  it("exclusion list by host name", async () => {
    await run(b.id, "https://blocked-consentid-qa.kiwi.example/", { groups: all });
    expect(requested().has("marketing")).toBe(false);
  });

  it('"a hostname allow-list restricts when configured"', async () => {
    await run(b.allow, "https://consentallow-qa.kiwi.example/", { groups: all });
    expect(requested()).toEqual(new Set(CATEGORIES));
    h.web.reset();
    await run(b.allow, "https://other-consentallow-qa.kiwi.example/", { groups: all });
    expect(requested()).toEqual(new Set());
  });

  it('"cb-disable-{tagcode} in the query disables that tag", and the status is kept for the session', async () => {
    const tab = await run(b.lab, "https://consentlab-qa.kiwi.example/?cb-disable-tag-functional", { groups: all });
    expect(requested()).toEqual(new Set(["performance", "marketing", "programFunctional", "programMarketing"]));
    h.web.reset();
    await tab.page.goto(h.web.page("https://consentlab-qa.kiwi.example/next", { bundle: b.lab }));
    await tagsSettled(tab);
    expect(requested().has("functional")).toBe(false);
    h.web.reset();
    await tab.page.goto(h.web.page("https://consentlab-qa.kiwi.example/again", { bundle: b.lab }) + "?cb-refresh");
    await tagsSettled(tab);
    expect(requested().has("functional")).toBe(true);
  });
});

describe("the tag lifecycle", () => {
  it('"each category and lifecycle pair once per page": a pair runs when its lifecycle point has passed and its category is granted, once', async () => {
    const tab = await h.browser.openPage(h.web.page("https://consentpairs-qa.kiwi.example/", { bundle: b.pairs }), {
      consentGroups: groupsFor(["performance"]),
    });
    await h.web.waitForRequest({ host: "tags.vendor.example", path: "/pair-performance.gif" });
    await settle(300);
    expect(h.web.find({ host: "tags.vendor.example" }).map((r) => r.path)).toEqual(["/pair-performance.gif"]);
    await tab.setConsent(groupsFor(["performance", "marketing"]), { via: "event" });
    await h.web.waitForRequest({ host: "tags.vendor.example", path: "/pair-marketing.js" });
    await tab.setConsent(groupsFor(["performance", "marketing", "functional"]), { via: "event" });
    await settle(300);
    expect(
      h.web
        .find({ host: "tags.vendor.example" })
        .map((r) => r.path)
        .sort(),
    ).toEqual(["/pair-marketing.js", "/pair-performance.gif"]);
  });

  it('"Load-tags needs consent type and lifecycle event": a push without them logs "missing consentType or lifecycleEvent"', async () => {
    const tab = await h.browser.openPage(
      h.web.page("https://consentpairs-qa.kiwi.example/", { bundle: b.pairs, dataLayer: [{ event: "load-tags", consentType: "marketing" }] }),
      { consentGroups: groupsFor(["performance"]) },
    );
    await expect
      .poll(() => tab.logEntries(), { timeout: 8000 })
      .toContainEqual(expect.objectContaining({ level: "warn", message: "missing consentType or lifecycleEvent" }));
  });
});

describe("the banner", () => {
  it("loads with its domain-script attribute and the page's nonce; consent granted late loads each tag then, once", async () => {
    const tab = await run(b.lab, "https://consentlab-qa.kiwi.example/");
    const banner = await h.web.waitForRequest({ host: "cdn.consentbanner.example" });
    expect(banner.path).toBe("/scripttemplates/otSDKStub.js");
    expect(await tab.page.evaluate(() => document.getElementById("sitetags-consent-banner")?.getAttribute("data-domain-script"))).toBe(
      "0190a1b2-kiwi-4c5d-9e8f-placeholder",
    );
    expect(requested()).toEqual(new Set());
    await tab.setConsent(groupsFor(["performance", "marketing"]), { via: "event" });
    await settle(400);
    await tab.setConsent(groupsFor(["performance", "marketing"]), { via: "OptanonWrapper" });
    await expect.poll(requested, { timeout: 8000 }).toEqual(new Set(["performance", "marketing"]));
    await settle(300);
    expect(h.web.find({ host: "tags.vendor.example" })).toHaveLength(2);
  });

  it('"Skipped on privacy hosts (privacy(-suffix).{host}) when the skip parameter kiwi-ccb is present": no banner, no tags', async () => {
    await run(b.lab, "https://privacy.consentlab-qa.kiwi.example/?kiwi-ccb=1");
    expect(h.web.find({ host: "cdn.consentbanner.example" })).toEqual([]);
    expect(requested()).toEqual(new Set());
    h.web.reset();
    await run(b.lab, "https://privacy.consentlab-qa.kiwi.example/");
    await h.web.waitForRequest({ host: "cdn.consentbanner.example" });
  });

  it("the banner never loading (its script fails): nothing is allowed, the failure is logged, the page carries on", async () => {
    h.web.script("https://cdn.consentbanner.example/scripttemplates/otSDKStub.js", { status: 503 });
    const tab = await run(b.lab, "https://consentlab-qa.kiwi.example/");
    expect(requested()).toEqual(new Set());
    // The banner's failed load is logged when its 503 reaches the page: that can be after the tags' decisions and the pause.
    await expect
      .poll(() => tab.logEntries(), { timeout: 8000 })
      .toContainEqual(expect.objectContaining({ level: "error", message: "script embedding failed" }));
    expect(requested()).toEqual(new Set());
    expect(tab.pageErrors).toEqual([]);
  });
});

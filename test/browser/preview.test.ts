/**
 * The QA preview, running: real bundles (the generator's build()), the
 * preview server (preview/server/main.ts) on an ephemeral port against
 * that dist, and headless Chromium mapping every fictional host to it.
 * The app is driven as QA drives it: choose a site and environment, load
 * the page, press the action buttons, read the inspector.
 *
 * The bundles come from a temporary catalogue holding the repository's
 * satreg and bigfuture files with the organisation's size budget raised:
 * this file proves the preview, not the budgets (the build tests do).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBundles, CHROMIUM, SITES_DIR, tempCatalogue } from "./harness/index.js";
import type { BundleReport } from "../../generator/bundle/link.js";
import { mockPageFrame, pressLoad } from "./harness/preview-app.js";
import { tempDir } from "./harness/temp.js";
import { hostRules, startPreview, type PreviewServer } from "../../preview/server/main";
import { looksRendered, pngStats } from "../../preview/server/png-check";

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-dev-shm-usage",
];

let preview: PreviewServer;
let browser: Browser;
let context: BrowserContext;
let app: Page;
let shots: string;
let deferredOf: Record<string, NonNullable<BundleReport["deferred"]>>;

/** A catalogue with the repository's satreg and bigfuture sites, the org budget raised (see above). */
function catalogue(): string {
  const dir = tempCatalogue({ "satreg.yaml": true, "bigfuture.yaml": true });
  const org = readFileSync(join(SITES_DIR, "_org.yaml"), "utf8").replace(/^(budget:\s*\n\s+gzipBytes:\s*)\d+/m, "$1500000");
  writeFileSync(join(dir, "_org.yaml"), org);
  return dir;
}

beforeAll(async () => {
  const built = await buildBundles(
    { satregProd: ["satreg", "prod"], bigfutureProd: ["bigfuture", "prod"], bigfutureQa: ["bigfuture", "qa"] },
    { sitesDir: catalogue() },
  );
  deferredOf = Object.fromEntries(Object.entries(built).flatMap(([k, b]) => (b.report.deferred ? [[k, b.report.deferred]] : [])));
  preview = await startPreview({ distDir: built.satregProd.outDir, port: 0 });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...FLAGS, `--host-resolver-rules=${hostRules(preview.port)}`, "--ignore-certificate-errors"],
  });
  context = await browser.newContext({ viewport: { width: 1600, height: 1000 }, ignoreHTTPSErrors: true, acceptDownloads: true });
  app = await context.newPage();
  shots = tempDir("sitetags-preview-shots-");
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await preview?.close();
});

/** The mock page's frame. */
const pageFrame = () => mockPageFrame(app);

async function choose(testId: string, value: string) {
  await app.locator(`[data-testid=${testId}]`).selectOption(value);
}

async function openTab(name: string) {
  await app.locator(`[data-testid=tab-${name}]`).click();
}

/** Loads a page from the controls, as QA does, and waits for the bundle to boot in it. */
async function loadPage(site: string, env: string, page: string, consent: string) {
  await choose("site-select", site);
  await choose("env-select", env);
  await choose("page-select", page);
  await choose("consent-select", consent);
  await pressLoad(app);
  await openTab("beacons");
}

async function entries(): Promise<Array<{ kind: string; [k: string]: unknown }>> {
  return app.evaluate(() => (window as unknown as { __sitetagsPreview: { entries: Array<{ kind: string }> } }).__sitetagsPreview.entries);
}

describe("the preview", () => {
  it("opens, lists the manifest's bundles, and loads the chosen site and environment with its page-view beacon", async () => {
    const started = Date.now();
    await app.goto(preview.url);
    await expect.poll(() => app.locator("[data-testid=site-select] option").count()).toBeGreaterThanOrEqual(2);
    await loadPage("satreg", "prod", "payment-confirmation", "all");

    expect(app.url()).toContain("site=satreg");
    expect(app.url()).toContain("env=prod");
    await expect.poll(() => app.locator("[data-testid=page-url]").textContent()).toBe("https://satreg.kiwi.example/register/paymentConfirmation");

    const beacon = app.locator('[data-testid=beacon-row][data-event-type="web.webpagedetails.pageViews"]');
    await beacon.first().waitFor({ timeout: 10_000 });
    await expect.poll(() => beacon.first().getAttribute("data-status"), { timeout: 5000 }).toBe("ok");
    const pageName = await beacon.first().getAttribute("data-page-name");
    expect(pageName).toMatch(/paymentconfirmation/i);
    // The same beacon as the edge received it.
    const edge = preview.records.filter(
      (r) =>
        r.kind === "edge" && r.path.endsWith("/v1/interact") && r.origin === "https://satreg.kiwi.example" && r.body?.includes("web.webpagedetails.pageViews"),
    );
    expect(edge.length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(edge[0].body!).events[0].xdm.web.webPageDetails.name).toBe(pageName);

    await openTab("bundle");
    await expect.poll(() => app.locator("[data-testid=env-detected]").textContent()).toContain("prod");
    expect(await app.locator("[data-testid=bundle-id]").textContent()).toContain("prod/satreg");
    console.log(`[preview] load to page-view beacon: ${Date.now() - started} ms, page name ${pageName}`);
  });

  it("shows the marketing pixel blocked with its reason under pre-opt-in, and loaded after opting in", async () => {
    const loaded = Date.now();
    await loadPage("satreg", "prod", "payment-confirmation", "pre");
    await openTab("tags");
    const tag = app.locator('[data-testid=tag-row][data-tag="payment-confirmation"]');
    await expect.poll(() => tag.getAttribute("data-state"), { timeout: 10_000 }).toBe("waiting");
    const reason = tag.locator("[data-testid=tag-reason]");
    expect(await reason.getAttribute("data-reason")).toBe("consent-category");
    expect(await reason.textContent()).toContain("marketing");
    expect(preview.records.some((r) => r.host === "pixel.adpartner.example" && r.time >= loaded)).toBe(false);
    // Pre-opt-in: nothing goes to the edge either.
    await openTab("beacons");
    expect(await app.locator('[data-testid=beacon-row][data-event-type="web.webpagedetails.pageViews"]').count()).toBe(0);

    await app.locator("[data-testid=banner-accept-all]").click();
    await openTab("tags");
    await expect.poll(() => tag.getAttribute("data-state"), { timeout: 10_000 }).toBe("loaded");
    expect(await tag.locator("[data-testid=tag-history]").textContent()).toMatch(/^waiting → .*allowed/);
    const pixel = preview.records.filter((r) => r.host === "pixel.adpartner.example");
    expect(pixel.at(-1)?.query.order).toBe("SAT-2026-000123");
    await openTab("beacons");
    await app.locator('[data-testid=beacon-row][data-event-type="web.webpagedetails.pageViews"]').first().waitFor({ timeout: 10_000 });

    await openTab("tags");
    const file = join(shots, "preview.png");
    const png = await app.screenshot({ path: file });
    const stats = pngStats(png);
    console.log(`[preview] screenshot ${file}: ${stats.width}x${stats.height}, ${stats.colours} colours, luminance spread ${stats.luminanceSpread.toFixed(1)}`);
    expect(stats.width).toBe(1600);
    expect(looksRendered(stats)).toBe(true);
  });

  it("tracks link clicks: the promo link by link tracking (name, targeted), the share link by bigfuture's share-click rule; the download link reaches its file", async () => {
    await loadPage("bigfuture", "prod", "home", "all");
    await app.locator('[data-testid=beacon-row][data-event-type="web.webpagedetails.pageViews"]').first().waitFor({ timeout: 10_000 });

    // The promo link: the runtime's link tracking ("tnt:" prefix: targeted; web text: the colon a hyphen).
    await app.locator("[data-testid=action-link-promo]").click();
    const promo = app.locator('[data-testid=beacon-row][data-name="tnt-spring-sat-reminder"]');
    await promo.first().waitFor({ timeout: 10_000 });
    expect(await promo.first().getAttribute("data-event-type")).toBe("web.webinteraction.linkClicks");
    // The catalogue's click rule ([data-share]).
    await loadPage("bigfuture", "prod", "home", "all");
    await app.locator("[data-testid=action-link-share]").click();
    const share = app.locator('[data-testid=beacon-row][data-name="share click"]');
    await share.first().waitFor({ timeout: 10_000 });
    await expect.poll(() => share.first().getAttribute("data-status"), { timeout: 5000 }).toBe("ok");
    await openTab("rules");
    expect(await app.locator('[data-testid=rule-row][data-rule="share-click"][data-state="fired"]').count()).toBeGreaterThanOrEqual(1);

    // The download link: the file is served, and its beacon (xdm web.webInteraction.type "download", from the
    // runtime's link tracking) shows in the inspector.
    await loadPage("bigfuture", "prod", "home", "all");
    const sent = Date.now();
    await app.locator("[data-testid=action-link-download]").click();
    await expect
      .poll(() => preview.records.some((r) => r.kind === "file" && r.path === "/files/sat-practice-test-1.pdf" && r.time >= sent), { timeout: 5000 })
      .toBe(true);
    const download = app.locator('[data-testid=beacon-row][data-link-type="download"]');
    await download.first().waitFor({ timeout: 8000 });
    expect(await download.first().getAttribute("data-event-type")).toBe("web.webinteraction.linkClicks");
    await expect.poll(() => download.first().getAttribute("data-status"), { timeout: 5000 }).toBe("ok");
    console.log(`[preview] download link: beacon "${await download.first().getAttribute("data-name")}"`);
  });

  // Task "preview" (#21 proof): QA's preview shows what students get, the split bundle (first file plus deferred file).
  it("loads the bundle's deferred file once after the page view, with its integrity; its link clicks and web vitals show as beacons; no CSP or page error", async () => {
    const deferred = deferredOf.bigfutureProd;
    // Runs alone too (vitest -t): the app is opened by the first test otherwise.
    if (!app.url().startsWith(preview.url)) await app.goto(preview.url);
    await expect.poll(() => app.locator("[data-testid=site-select] option").count()).toBeGreaterThanOrEqual(2);
    const loaded = Date.now();
    await loadPage("bigfuture", "prod", "home", "all");
    await app.locator('[data-testid=beacon-row][data-event-type="web.webpagedetails.pageViews"]').first().waitFor({ timeout: 10_000 });
    const asked = () => preview.records.filter((r) => r.kind === "bundle" && r.path === `/${deferred.file}` && r.time >= loaded);
    await expect.poll(() => asked().length, { timeout: 10_000 }).toBe(1);
    expect(asked()[0].status).toBe(200);
    // The page's script: beside the first file, the manifest's integrity, CORS, the page's nonce (its CSP is strict-dynamic).
    const scripts = await pageFrame().evaluate(() =>
      [...document.querySelectorAll<HTMLScriptElement>('script[src*="sitetags.defer."]')].map((s) => ({
        path: new URL(s.src).pathname,
        integrity: s.integrity,
        crossorigin: s.crossOrigin,
        nonced: s.nonce !== "",
      })),
    );
    expect(scripts).toEqual([{ path: `/${deferred.file}`, integrity: deferred.integrity, crossorigin: "anonymous", nonced: true }]);
    // A click handled by the deferred file's link handler: a link-click beacon, answered by the edge.
    await app.locator("[data-testid=action-link-download]").click();
    const click = app.locator('[data-testid=beacon-row][data-event-type="web.webinteraction.linkClicks"][data-link-type="download"]');
    await click.first().waitFor({ timeout: 10_000 });
    await expect.poll(() => click.first().getAttribute("data-status"), { timeout: 5000 }).toBe("ok");
    // Web vitals, the deferred file's other part: one batch when the page is hidden.
    await pageFrame().evaluate(() => {
      Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await app.locator('[data-testid=beacon-row][data-event-type="kiwi.webVitals"]').first().waitFor({ timeout: 10_000 });
    // The Bundle tab says what the page fetched: each file once, answered 200.
    await openTab("bundle");
    for (const role of ["first", "deferred"]) {
      const row = app.locator(`[data-testid=bundle-load-${role}]`);
      await expect.poll(() => row.getAttribute("data-requests"), { timeout: 5000 }).toBe("1");
      expect(await row.getAttribute("data-status")).toBe("200");
    }
    expect(await app.locator("[data-testid=bundle-deferred]").textContent()).toContain(deferred.integrity);
    expect(asked()).toHaveLength(1);
    const problems = (await entries()).filter((e) => e.kind === "csp" || e.kind === "error");
    expect(problems).toEqual([]);
  });
  // end preview (#21 proof)

  it("runs the bundle under the page's strict CSP: nonce'd scripts, no 'unsafe-eval', no violation, no page error", async () => {
    const documents: Array<{ url: string; csp?: string }> = [];
    app.on("response", (r) => {
      if (r.request().resourceType() === "document" && /kiwi\.example/.test(r.url()))
        documents.push({ url: r.url(), csp: r.headers()["content-security-policy"] });
    });
    await loadPage("satreg", "prod", "payment-confirmation", "all");
    await app.locator('[data-testid=beacon-row][data-event-type="web.webpagedetails.pageViews"]').first().waitFor({ timeout: 10_000 });
    const doc = documents.find((d) => d.url.startsWith("https://satreg.kiwi.example/"));
    expect(doc?.csp).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic'/);
    expect(doc?.csp).not.toContain("unsafe-eval");
    expect(doc?.csp).not.toContain("unsafe-inline");
    const frame = pageFrame();
    expect(await frame.evaluate(() => (window as unknown as { sitetags?: { site: string } }).sitetags?.site)).toBe("satreg");
    expect(await frame.evaluate(() => [...document.scripts].every((s) => s.nonce !== ""))).toBe(true);
    const problems = (await entries()).filter((e) => e.kind === "csp" || e.kind === "error");
    expect(problems).toEqual([]);
  });

  it("keeps two sessions (two environments, same page) and diffs them", async () => {
    await loadPage("bigfuture", "prod", "home", "all");
    await app.locator('[data-testid=beacon-row][data-event-type="web.webpagedetails.pageViews"]').first().waitFor({ timeout: 10_000 });
    await openTab("session");
    await app.locator("[data-testid=keep-session]").click();
    await loadPage("bigfuture", "qa", "home", "all");
    await app.locator('[data-testid=beacon-row][data-event-type="web.webpagedetails.pageViews"]').first().waitFor({ timeout: 10_000 });
    await openTab("session");
    await app.locator("[data-testid=keep-session]").click();
    const diff = app.locator("[data-testid=diff-table]");
    await diff.waitFor();
    const text = await diff.textContent();
    expect(text).toContain("bundle");
    expect(text).toMatch(/kiwiglobalprod|kiwiglobaldev|qa/);
    const download = app.waitForEvent("download");
    await app.locator("[data-testid=export-session]").click();
    const exported = JSON.parse(readFileSync((await (await download).path())!, "utf8")) as {
      format: string;
      entries: unknown[];
      summary: { beacons: unknown[] };
    };
    expect(exported.format).toBe("sitetags-preview-session/1");
    expect(exported.summary.beacons.length).toBeGreaterThanOrEqual(1);
  });
});

/**
 * What QA expects from a tag debugger, in the preview: every rule's
 * why-not, search / filter / copy of beacons, a timeline, the layout on a
 * phone-sized window, dark mode, the ARIA tabs pattern, a first screen that
 * says what to do, and the app served compressed. Real bundles, the preview
 * server, headless Chromium (harness/preview-app.ts).
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { looksRendered, pngStats } from "../../preview/server/png-check";
import { loadPage, openTab, sessionEntries, usePreviewApp } from "./harness/preview-app.js";

const p = usePreviewApp({ satregQa: ["satreg", "qa"], satregProd: ["satreg", "prod"], bigfutureProd: ["bigfuture", "prod"] }, { width: 1440, height: 900 });

it("every rule, not only those that fired: off in this environment, not listening, a condition failed (which, with its value), or fired", async () => {
  const { app } = p;
  await app.goto(`${p.preview.url}?site=satreg&env=qa&page=payment-confirmation`);
  await expect.poll(async () => (await sessionEntries(app)).some((e) => e.kind === "monitor" && e.event?.type === "boot"), { timeout: 20_000 }).toBe(true);
  await openTab(app, "rules");
  const verdict = (rule: string) => app.locator(`[data-testid=rule-verdict][data-rule="${rule}"]`);
  await expect.poll(() => verdict("payment-confirmation").getAttribute("data-verdict"), { timeout: 15_000 }).toBe("off in this environment");
  await expect.poll(() => verdict("page-view").getAttribute("data-verdict"), { timeout: 10_000 }).toBe("fired");
  expect(await verdict("modal").getAttribute("data-verdict")).toBe("not listening");
  // A modal push without its name: the modal rule hears it, its condition fails, on the value it saw.
  await openTab(app, "datalayer");
  await app.locator("[data-testid=push-editor]").fill(JSON.stringify({ event: "modal", modalState: "shown" }));
  await app.locator("[data-testid=push-button]").click();
  await openTab(app, "rules");
  await expect.poll(() => verdict("modal").getAttribute("data-verdict"), { timeout: 10_000 }).toBe("condition failed");
  expect(await verdict("modal").locator("[data-testid=rule-verdict-detail]").textContent()).toContain("modalName = (none)");
}, 180_000);

it("search and filter beacons by text, type and variable; the summary pills filter; a beacon copies as cURL and as JSON", async () => {
  const { app, context } = p;
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: p.preview.url });
  await loadPage(app, "bigfuture", "prod", "home", "all");
  await openTab(app, "beacons");
  const rows = app.locator("[data-testid=beacon-row]");
  await app.locator('[data-testid=beacon-row][data-event-type="web.webpagedetails.pageViews"]').first().waitFor({ timeout: 15_000 });
  await app.locator("[data-testid=action-link-promo]").click();
  await app.locator('[data-testid=beacon-row][data-name="tnt-spring-sat-reminder"]').first().waitFor({ timeout: 15_000 });
  const types = () => rows.evaluateAll((rs) => [...new Set(rs.map((r) => r.getAttribute("data-event-type")))].sort());
  expect(await types()).toEqual(expect.arrayContaining(["web.webinteraction.linkClicks", "web.webpagedetails.pageViews"]));

  await app.locator('[data-testid=beacon-pill][data-type="link click"]').click();
  expect(await app.locator('[data-testid=beacon-pill][data-type="link click"]').getAttribute("aria-pressed")).toBe("true");
  expect(await types()).toEqual(["web.webinteraction.linkClicks"]);
  await app.locator('[data-testid=beacon-pill][data-type="link click"]').click();
  expect(await types()).toEqual(expect.arrayContaining(["web.webinteraction.linkClicks", "web.webpagedetails.pageViews"]));

  await app.locator("[data-testid=beacon-search]").fill("spring-sat");
  await expect.poll(() => rows.evaluateAll((rs) => rs.map((r) => r.getAttribute("data-name")))).toEqual(["tnt-spring-sat-reminder"]);
  await app.locator("[data-testid=beacon-search]").fill("");
  const pageView = app.locator('[data-testid=beacon-row][data-event-type="web.webpagedetails.pageViews"]').first();
  await app.locator("[data-testid=beacon-variable]").fill("eVar81");
  const withVar = await rows.count();
  expect(withVar).toBeGreaterThanOrEqual(1);
  await app.locator("[data-testid=beacon-variable]").fill("eVar81=no-such-value");
  expect(await rows.count()).toBe(0);
  await app.locator("[data-testid=beacon-filter-clear]").click();
  expect(await types()).toEqual(expect.arrayContaining(["web.webinteraction.linkClicks", "web.webpagedetails.pageViews"]));

  // Copy the page view as cURL and as JSON.
  await pageView.locator(":scope > summary").click();
  await pageView.locator("[data-testid=copy-curl]").click();
  await expect.poll(() => app.evaluate(() => navigator.clipboard.readText())).toMatch(/^curl 'https:\/\/edge\.kiwi\.example\/.*requestId=/);
  const curl = await app.evaluate(() => navigator.clipboard.readText());
  expect(curl).toContain("--data-raw '");
  expect(curl).toContain("web.webpagedetails.pageViews");
  await pageView.locator("[data-testid=copy-json]").click();
  await expect.poll(() => app.evaluate(() => navigator.clipboard.readText())).toMatch(/^\{/);
  const json = JSON.parse(await app.evaluate(() => navigator.clipboard.readText())) as { eventType: string; requestId: string; body: { events: unknown[] } };
  expect(json.eventType).toBe("web.webpagedetails.pageViews");
  expect(json.body.events.length).toBe(1);
}, 180_000);

it("a timeline: beacons, rules, tags, consent changes and data-layer pushes on one time axis, with the page loads marked", async () => {
  const { app } = p;
  await loadPage(app, "satreg", "prod", "reg-choosedate", "pre");
  await app.locator("[data-testid=banner-accept-all]").click();
  await openTab(app, "beacons");
  await app.locator('[data-testid=beacon-row][data-event-type="web.webpagedetails.pageViews"]').first().waitFor({ timeout: 15_000 });
  await app.locator("[data-testid=action-link-internal]").click();
  await expect.poll(async () => (await sessionEntries(app)).filter((e) => e.kind === "page").length, { timeout: 15_000 }).toBe(2);
  await openTab(app, "timeline");
  await app.locator("[data-testid=timeline]").waitFor();
  expect(await app.locator("[data-testid=timeline-page]").count()).toBe(2 * 5);
  expect(await app.locator("[data-testid=timeline-page-row]").count()).toBe(2);
  for (const lane of ["beacons", "rules", "tags", "consent", "data layer"])
    await expect.poll(() => app.locator(`[data-testid=timeline-item][data-lane="${lane}"]`).count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  // In time order.
  const times = await app.locator("[data-testid=timeline-item] td.time").allTextContents();
  const ms = times.map((t) => Number(t.replace(/[^\d.-]/g, "")));
  expect(ms).toEqual([...ms].sort((a, b) => a - b));
}, 180_000);

/** A second window of the app with its own viewport and colour scheme. */
async function openWindow(viewport: { width: number; height: number }, colorScheme: "light" | "dark" = "light") {
  const context = await p.browser.newContext({ viewport, colorScheme, ignoreHTTPSErrors: true });
  return { context, page: await context.newPage() };
}

/** Screenshots for docs/preview.md, refreshed on request (UPDATE_SCREENSHOT=1) so test runs leave the tree clean; always checked not blank. */
async function screenshot(page: import("playwright-core").Page, name: string) {
  const png = await page.screenshot();
  const stats = pngStats(png);
  expect(looksRendered(stats)).toBe(true);
  console.log(`[preview] ${name}: ${stats.width}x${stats.height}, ${stats.colours} colours`);
  if (process.env.UPDATE_SCREENSHOT === "1") writeFileSync(fileURLToPath(new URL(`../../docs/${name}`, import.meta.url)), png);
}

it("works at 390×844: the inspector below the page, nothing off-screen", async () => {
  const { context, page } = await openWindow({ width: 390, height: 844 });
  try {
    await page.goto(`${p.preview.url}?site=satreg&env=prod&page=payment-confirmation`);
    await page.locator('[data-testid=beacon-row][data-event-type="web.webpagedetails.pageViews"]').first().waitFor({ timeout: 20_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const frame = (await page.locator("[data-testid=page-frame]").boundingBox())!;
    const inspector = (await page.locator(".inspector").boundingBox())!;
    expect(frame.x).toBeGreaterThanOrEqual(0);
    expect(frame.x + frame.width).toBeLessThanOrEqual(390);
    expect(inspector.y).toBeGreaterThanOrEqual(frame.y + frame.height - 1);
    expect(inspector.x + inspector.width).toBeLessThanOrEqual(390);
    for (const id of ["load-button", "tab-beacons", "tab-session", "action-link-promo", "banner-accept-all"]) {
      const box = (await page.locator(`[data-testid=${id}]`).boundingBox())!;
      expect({ id, right: Math.min(box.x + box.width, 390) }).toEqual({ id, right: box.x + box.width });
    }
    // The bottom of the page and the inspector below it.
    await page.evaluate(() => window.scrollTo(0, document.querySelector(".inspector")!.getBoundingClientRect().top + window.scrollY - 330));
    await screenshot(page, "preview-390.png");
  } finally {
    await context.close();
  }
}, 180_000);

it("has a dark mode that follows the system", async () => {
  const { context, page } = await openWindow({ width: 1440, height: 900 }, "dark");
  try {
    await page.goto(`${p.preview.url}?site=satreg&env=prod&page=payment-confirmation&tab=rules`);
    await page.locator('[data-testid=rule-verdict][data-rule="page-view"][data-verdict="fired"]').waitFor({ timeout: 20_000 });
    await page.locator('[data-testid=rule-verdict][data-rule="payment-confirmation"][data-verdict="fired"]').waitFor({ timeout: 20_000 });
    const luminance = await page.evaluate(() => {
      const rgb = getComputedStyle(document.querySelector(".inspector")!).backgroundColor.match(/\d+/g)!.map(Number);
      return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
    });
    expect(luminance).toBeLessThan(60);
    await screenshot(page, "preview-dark.png");
  } finally {
    await context.close();
  }
  // The light scheme stays light.
  expect(await p.app.evaluate(() => getComputedStyle(document.querySelector(".inspector")!).backgroundColor)).toBe("rgb(255, 255, 255)");
}, 180_000);

it("the inspector tabs follow the ARIA tabs pattern, arrow keys included", async () => {
  const { app } = p;
  await loadPage(app, "bigfuture", "prod", "home", "all");
  await openTab(app, "beacons");
  const selected = () =>
    app.evaluate(() => ({
      focus: document.activeElement?.id,
      selected: document.querySelector("[role=tab][aria-selected=true]")?.id,
      labelled: document.querySelector("[role=tabpanel]")?.getAttribute("aria-labelledby"),
    }));
  await app.locator("[data-testid=tab-beacons]").focus();
  await app.keyboard.press("ArrowRight");
  await expect.poll(selected).toEqual({ focus: "tab-timeline", selected: "tab-timeline", labelled: "tab-timeline" });
  await app.keyboard.press("End");
  await expect.poll(selected).toEqual({ focus: "tab-session", selected: "tab-session", labelled: "tab-session" });
  await app.keyboard.press("ArrowRight");
  await expect.poll(selected).toEqual({ focus: "tab-beacons", selected: "tab-beacons", labelled: "tab-beacons" });
  await app.keyboard.press("ArrowLeft");
  await expect.poll(selected).toEqual({ focus: "tab-session", selected: "tab-session", labelled: "tab-session" });
  await app.keyboard.press("Home");
  await expect.poll(selected).toEqual({ focus: "tab-beacons", selected: "tab-beacons", labelled: "tab-beacons" });
  const tabs = await app.locator("[role=tab]").evaluateAll((ts) => ts.map((t) => [t.getAttribute("tabindex"), t.getAttribute("aria-controls")]));
  expect(tabs.filter(([i]) => i === "0").length).toBe(1);
  expect(new Set(tabs.map(([, c]) => c))).toEqual(new Set(["inspector-panel"]));
  await screenshot(app, "preview-1440.png");
}, 180_000);

it("a first screen that says what to do: nothing loads until a site is chosen; a link goes to docs/preview.md; the app is served compressed", async () => {
  const { context, page } = await openWindow({ width: 1440, height: 900 });
  try {
    const encodings: Record<string, string | undefined> = {};
    page.on("response", (r) => {
      if (r.url().startsWith(p.preview.url)) encodings[new URL(r.url()).pathname] = r.headers()["content-encoding"];
    });
    const before = p.preview.records.length;
    const started = Date.now();
    await page.goto(p.preview.url);
    await page.locator("[data-testid=first-screen]").waitFor();
    const loadMs = Date.now() - started;
    expect(await page.locator("[data-testid=page-frame]").count()).toBe(0);
    expect(await page.locator("[data-testid=site-select]").inputValue()).toBe("");
    expect(p.preview.records.slice(before).filter((r) => r.kind === "page" || r.kind === "bundle")).toEqual([]);
    const href = await page.locator("[data-testid=docs-link]").getAttribute("href");
    const doc = await page.evaluate(async (u) => (await fetch(u)).text(), href!);
    expect(doc).toMatch(/^# The QA preview/);
    // Compressed, with content-hashed names cached for a year.
    const assets = await page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .filter((e) => /\/assets\//.test(e.name))
        .map((e) => {
          const r = e as PerformanceResourceTiming;
          return { name: new URL(r.name).pathname, transfer: r.transferSize, encoded: r.encodedBodySize, decoded: r.decodedBodySize };
        }),
    );
    const js = assets.find((a) => a.name.endsWith(".js"))!;
    expect(js.name).toMatch(/\/assets\/index-[\w-]{8,}\.js$/);
    expect(encodings[js.name]).toBe("br");
    expect(js.encoded).toBeLessThan(js.decoded * 0.4);
    const total = assets.reduce((n, a) => n + a.transfer, 0);
    console.log(
      `[preview] first load: ${loadMs} ms to the first screen; assets ${assets.map((a) => `${a.name} ${(a.decoded / 1024).toFixed(0)} KB → ${(a.encoded / 1024).toFixed(1)} KB ${encodings[a.name] ?? "identity"}`).join(", ")}; ${(total / 1024).toFixed(1)} KB transferred`,
    );
    // Choosing a site loads nothing yet either; Load does.
    await page.locator("[data-testid=site-select]").selectOption("bigfuture");
    expect(await page.locator("[data-testid=page-frame]").count()).toBe(0);
  } finally {
    await context.close();
  }
}, 180_000);

/**
 * What the preview itself pushes and says about rules is checked against
 * the runtime: every data-layer template and every push of the mock page
 * passes the non-production data-layer checks of a qa bundle, and the
 * Rules and Tags tabs tell the same story (no "done" for a page view that
 * was never sent, no "timed out" beside "loaded 200", no raw %tokens%).
 */
import { expect, it } from "vitest";
import { PAGE_TEMPLATES } from "../../preview/src/lib/pages";
import { EVENT_DOCS } from "../../runtime-modules/data-layer-events/event-docs.js";
import { loadPage, openTab, sessionEntries, usePreviewApp, type PreviewEntry } from "./harness/preview-app.js";

const p = usePreviewApp({ bigfutureQa: ["bigfuture", "qa"], satregProd: ["satreg", "prod"] });

/** The data-layer checks' warnings (runtime-modules/data-layer-events/validate-push.ts) and rule skips for missing data in the session. */
function dataLayerWarnings(entries: PreviewEntry[]): string[] {
  return entries.flatMap((e) =>
    e.kind === "monitor" && e.event?.type === "log" && e.event.level === "warn" && /data layer push|unknown event/.test(String(e.event.message))
      ? [String(e.event.message)]
      : [],
  );
}

const processed = (entries: PreviewEntry[]) => entries.filter((e) => e.kind === "monitor" && e.event?.type === "dataLayer").length;

it("the preview's own pushes are well-formed: every template and every mock-page push passes a qa bundle's data-layer checks", async () => {
  const { app } = p;
  await app.goto(p.preview.url);
  await loadPage(app, "bigfuture", "qa", "video", "all");
  await openTab(app, "datalayer");
  const options = await app.locator("[data-testid=push-template] option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(options.length).toBeGreaterThanOrEqual(20);
  // Issue 18: the templates come from the event table, one per documented push (then the bundle's rules').
  expect(options.filter((o) => o.startsWith("doc:"))).toEqual(Object.keys(EVENT_DOCS).map((e) => `doc:${e}`));
  for (const id of options) {
    const before = processed(await sessionEntries(app));
    await app.locator("[data-testid=push-template]").selectOption(id);
    await app.locator("[data-testid=push-button]").click();
    await expect.poll(async () => processed(await sessionEntries(app)), { timeout: 10_000 }).toBeGreaterThan(before);
  }
  // The mock page's own controls: modal, form, search, video.
  for (const action of ["modal-open", "modal-close", "form-submit", "search", "video-play"]) {
    const before = processed(await sessionEntries(app));
    await app.locator(`[data-testid=action-${action}]`).click();
    await expect.poll(async () => processed(await sessionEntries(app)), { timeout: 10_000 }).toBeGreaterThan(before);
  }
  const video = () =>
    sessionEntries(app).then((es) => es.filter((e) => e.kind === "monitor" && e.event?.type === "dataLayer" && e.event.event === "video").length);
  const played = await video();
  await app.locator("[data-testid=action-video-play]").click(); // pause
  await expect.poll(video, { timeout: 10_000 }).toBeGreaterThan(played);
  const entries = await sessionEntries(app);
  expect(dataLayerWarnings(entries)).toEqual([]);
  // The org's modal rule and application-error rule hear the preview's pushes.
  await openTab(app, "rules");
  expect(await app.locator('[data-testid=rule-row][data-rule="modal"][data-state="fired"]').count()).toBeGreaterThanOrEqual(2);
  expect(await app.locator('[data-testid=rule-row][data-rule="modal"][data-state="skipped"]').count()).toBe(0);
  expect(await app.locator('[data-testid=rule-row][data-rule="application-error"][data-state="fired"]').count()).toBeGreaterThanOrEqual(1);

  // The page templates' own pushes (made before the bundle loads), on every template bigfuture can show.
  for (const t of PAGE_TEMPLATES.filter(
    (t) => t.dataLayer?.some((d) => typeof (d as { event?: unknown }).event === "string") && (!t.sites || t.sites.includes("bigfuture")),
  )) {
    await loadPage(app, "bigfuture", "qa", t.id, "all");
    await expect.poll(async () => processed(await sessionEntries(app)), { timeout: 10_000 }).toBeGreaterThanOrEqual(t.dataLayer!.length);
    expect({ template: t.id, warnings: dataLayerWarnings(await sessionEntries(app)) }).toEqual({ template: t.id, warnings: [] });
  }
}, 400_000);

it("Rules and Tags agree: the pixel's outcome is its request's, summaries show resolved values, and a page view that was never sent is not \"done\"", async () => {
  const { app } = p;
  await loadPage(app, "satreg", "prod", "payment-confirmation", "all");
  await openTab(app, "tags");
  const tag = app.locator('[data-testid=tag-row][data-tag="payment-confirmation"]');
  await expect.poll(() => tag.getAttribute("data-state"), { timeout: 15_000 }).toBe("loaded");
  await openTab(app, "rules");
  const rule = app.locator('[data-testid=rule-row][data-rule="payment-confirmation"]');
  await expect.poll(() => rule.getAttribute("data-state"), { timeout: 10_000 }).toBe("fired");
  const pixel = rule.locator('[data-testid=action][data-type="pixel"]');
  await expect.poll(() => pixel.getAttribute("data-outcome"), { timeout: 10_000 }).toBe("loaded");
  expect(await pixel.textContent()).toContain("order=SAT-2026-000123");
  expect(await rule.textContent()).not.toMatch(/%[A-Za-z]+%/);

  // Strictly necessary only: the page-view rule's action ran, but nothing went to the edge.
  await loadPage(app, "satreg", "prod", "home", "none");
  await openTab(app, "rules");
  const view = app.locator('[data-testid=rule-row][data-rule="page-view"] [data-testid=action][data-type="sendPageView"]');
  await view.first().waitFor({ timeout: 10_000 });
  await expect.poll(() => view.first().getAttribute("data-outcome"), { timeout: 10_000 }).toBe("not sent");
  expect((await sessionEntries(app)).filter((e) => e.kind === "monitor" && e.event?.type === "beacon")).toEqual([]);
}, 180_000);

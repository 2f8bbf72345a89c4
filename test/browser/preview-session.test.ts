/**
 * The preview's session is what QA reads as the truth of one page load:
 * every beacon tied to the tab and the page load that sent it, the address
 * bar and the URL saying what is on screen, the diff readable at 1440 px,
 * kept sessions surviving a reload. Real bundles, the preview server,
 * headless Chromium (harness/preview-app.ts).
 */
import { expect, it } from "vitest";
import {
  choose,
  loadPage,
  mockPageFrame,
  openTab,
  pressLoad,
  reportedRequestIds,
  seenSeq,
  sessionEntries,
  usePreviewApp,
  waitForBoot,
} from "./harness/preview-app.js";

const p = usePreviewApp({ satregQa: ["satreg", "qa"], satregProd: ["satreg", "prod"], bigfutureProd: ["bigfuture", "prod"] }, { width: 1440, height: 900 });

/** Edge requests (not preflights) the server answered since a time. */
function edgeSince(time: number) {
  return p.preview.records.filter((r) => r.kind === "edge" && r.method !== "OPTIONS" && r.time >= time && r.query.requestId);
}

it("every beacon must be tied to the tab and page load that sent it: the previous load's unload beacons stay out of the next session", async () => {
  const { app } = p;
  await app.goto(p.preview.url);
  await loadPage(app, "satreg", "qa", "reg-choosedate", "all");
  await expect.poll(async () => reportedRequestIds(await sessionEntries(app)).length, { timeout: 15_000 }).toBeGreaterThan(0);

  // Consent without performance, Load again: the first page unloads and sends its web-vitals beacons.
  await choose(app, "consent-select", "custom");
  await app.locator("[data-testid=category-functional]").check();
  const second = Date.now();
  await pressLoad(app);
  await expect
    .poll(
      async () => {
        const mine = new Set(reportedRequestIds(await sessionEntries(app)));
        return edgeSince(second).filter((r) => !mine.has(r.query.requestId)).length;
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThan(0);
  const mine = new Set(reportedRequestIds(await sessionEntries(app)));
  const strays = edgeSince(second).filter((r) => !mine.has(r.query.requestId));
  const last = Math.max(...strays.map((r) => r.seq));
  await expect.poll(() => seenSeq(app), { timeout: 15_000 }).toBeGreaterThanOrEqual(last);
  const ids = new Set(strays.map((r) => r.query.requestId));
  const leaked = (await sessionEntries(app)).filter((e) => e.kind === "network" && ids.has(e.request?.query.requestId ?? ""));
  expect(leaked).toEqual([]);
  await openTab(app, "beacons");
  expect(await app.locator("[data-testid=beacon-row]").count()).toBe(0);
}, 180_000);

it("beacons sent while a page unloads are shown under that page and marked as unload beacons", async () => {
  const { app } = p;
  await loadPage(app, "satreg", "qa", "reg-choosedate", "all");
  await app.locator('[data-testid=beacon-row][data-event-type="web.webpagedetails.pageViews"]').first().waitFor({ timeout: 15_000 });
  await app.locator("[data-testid=action-link-internal]").click();
  await waitForBoot(app, 2);
  const unload = app.locator('[data-testid=beacon-row][data-unload="true"]');
  await unload.first().waitFor({ timeout: 20_000 });
  for (const row of await unload.all()) expect(await row.getAttribute("data-page")).toBe("1");
  // The address bar follows the navigation inside the page.
  await expect.poll(() => app.locator("[data-testid=page-url]").textContent(), { timeout: 10_000 }).toBe("https://satreg-qa.kiwi.example/about");
}, 180_000);

it("beacons from another tab do not appear in this tab (a copied link opened in a second window)", async () => {
  const { app, context } = p;
  await loadPage(app, "bigfuture", "prod", "home", "all");
  await app.locator('[data-testid=beacon-row][data-event-type="web.webpagedetails.pageViews"]').first().waitFor({ timeout: 15_000 });
  const link = app.url();
  const other = await context.newPage();
  try {
    const opened = Date.now();
    await other.goto(link);
    await waitForBoot(other);
    await expect.poll(async () => reportedRequestIds(await sessionEntries(other)).length, { timeout: 15_000 }).toBeGreaterThan(0);
    const theirs = new Set(reportedRequestIds(await sessionEntries(other)));
    await expect.poll(() => edgeSince(opened).filter((r) => theirs.has(r.query.requestId)).length, { timeout: 15_000 }).toBeGreaterThan(0);
    const last = Math.max(
      ...edgeSince(opened)
        .filter((r) => theirs.has(r.query.requestId))
        .map((r) => r.seq),
    );
    await expect.poll(() => seenSeq(app), { timeout: 15_000 }).toBeGreaterThanOrEqual(last);
    const leaked = (await sessionEntries(app)).filter((e) => e.kind === "network" && theirs.has(e.request?.query.requestId ?? ""));
    expect(leaked).toEqual([]);
    expect((await sessionEntries(app)).filter((e) => e.kind === "page").length).toBe(1);
  } finally {
    await other.close();
  }
}, 180_000);

it("the URL does not move ahead of the screen: unapplied changes are shown, Copy link copies what is shown", async () => {
  const { app } = p;
  await loadPage(app, "bigfuture", "prod", "home", "all");
  const shown = app.url();
  await choose(app, "consent-select", "pre");
  await choose(app, "edge-select", "error");
  expect(app.url()).toBe(shown);
  const pending = app.locator("[data-testid=unapplied]");
  await pending.waitFor();
  expect(await pending.textContent()).toMatch(/consent/);
  expect(await pending.textContent()).toMatch(/edge/);
  expect(await app.locator("[data-testid=copy-link]").getAttribute("data-link")).toBe(shown);
  // The banner action's status belongs to its page: a new Load clears it.
  await app.locator("[data-testid=banner-accept-all]").click();
  await expect.poll(() => app.locator("[data-testid=action-status]").textContent()).toMatch(/done/);
  await pressLoad(app);
  expect(await app.locator("[data-testid=action-status]").textContent()).toBe("");
  expect(app.url()).toContain("consent=pre");
  expect(app.url()).toContain("edge=error");
  expect(await app.locator("[data-testid=unapplied]").count()).toBe(0);
  await choose(app, "edge-select", "ok");
}, 180_000);

it("Load starts a new session at once: while the next page is staged, the previous page's entries are gone and what it still sends is not shown", async () => {
  const { app } = p;
  if (!app.url().startsWith(p.preview.url)) await app.goto(p.preview.url);
  await loadPage(app, "bigfuture", "prod", "home", "all");
  await expect.poll(async () => reportedRequestIds(await sessionEntries(app)).length, { timeout: 15_000 }).toBeGreaterThan(0);
  const old = mockPageFrame(app);
  // The server's staging of the next page is held until the test has looked.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let staging = 0;
  let continued: Promise<void> | undefined;
  await app.route("**/api/stage", (route) => {
    staging++;
    continued = held.then(() => route.continue());
    return continued;
  });
  try {
    await app.locator("[data-testid=load-button]").click();
    await expect.poll(() => staging).toBe(1);
    await expect.poll(async () => (await sessionEntries(app)).length).toBe(0);
    // The old page still runs in the frame: a search it records reaches the edge, and the session stays empty.
    const since = Date.now();
    await old.evaluate(() => (window as any).kiwiDataLayer.push({ event: "search", term: "held-stage", type: "college", count: 3 }));
    await expect.poll(() => edgeSince(since).filter((r) => String(r.body).includes("held-stage")).length, { timeout: 15_000 }).toBeGreaterThan(0);
    const last = Math.max(...edgeSince(since).map((r) => r.seq));
    await expect.poll(() => seenSeq(app), { timeout: 15_000 }).toBeGreaterThanOrEqual(last);
    expect(await sessionEntries(app)).toEqual([]);
  } finally {
    release();
    // The held request goes on before the route is removed (removing it first handles the request, and continue() then throws).
    await continued;
    await app.unroute("**/api/stage");
  }
  await waitForBoot(app);
  expect(JSON.stringify(await sessionEntries(app))).not.toContain("held-stage");
}, 180_000);

it("a full URL typed into Free path opens that URL", async () => {
  const { app } = p;
  await loadPage(app, "bigfuture", "prod", "home", "all");
  await app.locator("[data-testid=path-input]").fill("https://satreg.kiwi.example/register/paymentConfirmation?utm_source=qa");
  await app.locator("[data-testid=load-button]").click();
  await expect
    .poll(() => app.locator("[data-testid=page-url]").textContent(), { timeout: 10_000 })
    .toBe("https://satreg.kiwi.example/register/paymentConfirmation?utm_source=qa");
  await app.locator("[data-testid=path-input]").fill("");
}, 180_000);

it("the session diff is readable at 1440 px and lists the consent change and sampling; kept sessions survive a reload", async () => {
  const { app } = p;
  await loadPage(app, "satreg", "prod", "home", "all");
  await openTab(app, "session");
  await app.locator("[data-testid=keep-session]").click();
  await loadPage(app, "satreg", "qa", "home", "none");
  await openTab(app, "session");
  await app.locator("[data-testid=keep-session]").click();
  const diff = app.locator("[data-testid=diff-table]");
  await diff.waitFor();
  const consent = diff.locator('tr[data-section="setup"][data-key="consent"]');
  expect(await consent.count()).toBe(1);
  expect(await consent.locator("td").nth(3).textContent()).toBe("all");
  expect(await consent.locator("td").nth(4).textContent()).toBe("none");
  expect(await diff.locator('tr[data-section="setup"][data-key="sampling"]').count()).toBe(1);
  // Every cell of the B column inside the window and wide enough to read.
  const header = await diff.locator("th").nth(4).boundingBox();
  expect(header).not.toBeNull();
  expect(header!.x + header!.width).toBeLessThanOrEqual(1440);
  expect(header!.width).toBeGreaterThanOrEqual(120);

  await app.reload();
  await openTab(app, "session");
  await expect.poll(() => app.locator("[data-testid=kept-sessions] li").count(), { timeout: 10_000 }).toBe(2);
}, 180_000);

it('the consent request\'s beacon reads as a consent change, not "undefined → …"', async () => {
  const { app } = p;
  await loadPage(app, "satreg", "prod", "home", "pre");
  await app.locator("[data-testid=banner-accept-all]").click();
  await openTab(app, "events");
  await expect.poll(() => app.locator("[data-testid=panel-events]").textContent(), { timeout: 15_000 }).toMatch(/privacy\/set-consent/);
  expect(await app.locator("[data-testid=panel-events]").textContent()).not.toContain("undefined →");
}, 180_000);

/**
 * Sampling in Chromium (issue #19, docs/identity.md "Sampling"), on the
 * shipped catalogue's newsroom QA bundle (its monitoring tag `rum`, sampled
 * by default, at the host's rate: qa 1, sites/_org.yaml): "Tag settings per
 * host: environment, sampling rate, ..." (spec line 77) and "Sampling:
 * production 100, others 1; many sites 1 or 2; monitoring default 1 with
 * sampled-in/out cookie per host" (line 164). The sampling cookie on the
 * host, a sampled-out visitor loads no monitoring tag, a sampled-in one
 * does, the same id the same answer across reloads; analytics page views are
 * never sampled; the preview's tags panel shows the decision.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { ResolvedTag } from "../../generator/config/bundle-config.js";
import { sampledIn } from "../../runtime-modules/identity/sampling";
import { buildBundles, groupsFor, tempCatalogue, useBrowserHarness, type Bundle, type TestPage } from "./harness/index.js";
import { openTab, sessionEntries, usePreviewApp } from "./harness/preview-app.js";

const h = useBrowserHarness();
const p = usePreviewApp({ newsroomQa: ["newsroom", "qa"] });

let newsroom: Bundle;
let rum: ResolvedTag;
let rate: number;
beforeAll(async () => {
  ({ newsroom } = await buildBundles({ newsroom: ["newsroom", "qa"] }, { sitesDir: tempCatalogue({ "newsroom.yaml": true }) }));
  rum = newsroom.config.modules.tags!.tags.find((t) => t.code === "rum")!;
  rate = newsroom.config.sampling;
}, 240_000);

/** Visitor ids as the runtime makes them; one sampled in and one sampled out at newsroom's QA rate. */
const ids = fc.sample(fc.noBias(fc.integer({ min: 0, max: 2 ** 52 - 1 }).map((n) => n.toString(36))), { numRuns: 3000, seed: 19 });
const idAt = (inside: boolean) => ids.find((id) => sampledIn(id, rate) === inside)!;

const URL_ = "https://newsroom-qa.kiwi.example/page";
const rumRequests = () => h.web.find({ host: new URL(rum.src).host, path: new URL(rum.src).pathname }).length;
const pageViews = () =>
  h.web
    .find({ host: "edge.kiwi.example", method: "POST", path: /\/v1\/(interact|collect)$/ })
    .filter((r) => (r.json as { events: Array<{ xdm: { eventType?: string } }> }).events[0].xdm.eventType === "web.webpagedetails.pageViews").length;
const cookieSetter = (id: string) => `document.cookie = "kiwi_sampling=${id}; path=/; max-age=600";`;

/** One load of newsroom's QA page with performance consent; resolves once the monitoring tag is decided and the page view sent. */
async function load(tab: TestPage | undefined, initScripts: string[] = []): Promise<TestPage> {
  const views = pageViews();
  if (tab) await tab.page.reload();
  else tab = await h.browser.openPage(h.web.page(URL_, { bundle: newsroom }), { consentGroups: groupsFor(["performance"]), initScripts });
  await tab.waitForMonitor({ type: "boot", site: "newsroom" });
  await tab.waitForMonitor({ type: "log", message: "sampling decided" });
  await expect.poll(pageViews, { timeout: 9000 }).toBeGreaterThan(views);
  return tab;
}

async function decision(tab: TestPage) {
  const events = await tab.monitorEvents();
  const tag = events.filter((e) => e.type === "tag" && e.tag === "rum" && (e.state === "loading" || e.state === "skipped")).pop();
  const logged = events.filter((e) => e.type === "log" && e.message === "sampling decided").pop();
  return {
    tag: tag && { state: tag.state, reason: tag.reason, sampling: tag.sampling },
    logged: logged && logged.data,
    command: await tab.page.evaluate(() => (window as any).sitetags.commands.rum.rumSampledIn()),
    cookie: await tab.page.evaluate(() => /(?:^|; )kiwi_sampling=([^;]*)/.exec(document.cookie)?.[1]),
  };
}

describe('"monitoring default 1 with sampled-in/out cookie per host": the host\'s rate decides, stably per visitor (newsroom qa, shipped)', () => {
  it("the shipped bundle samples rum at the host's rate (qa: 1) and carries the sampling service", () => {
    expect(rate).toBe(1);
    expect(rum.sampled).toBe(true);
  });

  it("a sampled-out visitor does not load the monitoring tag, on every reload; the other performance tags and the page view go", async () => {
    const id = idAt(false);
    const replays = () => h.web.find({ host: "replay.monitorvendor.example" }).length;
    const [rumBefore, replaysBefore] = [rumRequests(), replays()];
    let tab = await load(undefined, [cookieSetter(id)]);
    for (let i = 0; i < 2; i++) {
      expect(await decision(tab)).toEqual({
        tag: { state: "skipped", reason: "sampled-out", sampling: { rate: 1, sampledIn: false } },
        logged: { rate: 1, sampledIn: false },
        command: false,
        cookie: id,
      });
      if (i === 0) tab = await load(tab);
    }
    await expect.poll(replays).toBe(replaysBefore + 2);
    expect(rumRequests()).toBe(rumBefore);
  });

  it("a sampled-in visitor loads it, on every reload", async () => {
    const id = idAt(true);
    const before = rumRequests();
    let tab = await load(undefined, [cookieSetter(id)]);
    for (let i = 0; i < 2; i++) {
      expect(await decision(tab)).toEqual({
        tag: { state: "loading", reason: undefined, sampling: { rate: 1, sampledIn: true } },
        logged: { rate: 1, sampledIn: true },
        command: true,
        cookie: id,
      });
      if (i === 0) tab = await load(tab);
    }
    await expect.poll(rumRequests).toBe(before + 2);
  });

  it("a new visitor gets a sampling id on the host (not the apex domain), and the same answer for it on the next load", async () => {
    let tab = await load(undefined);
    const first = await decision(tab);
    expect(first.cookie).toMatch(/^[0-9a-z]+$/);
    expect(first.command).toBe(sampledIn(first.cookie!, 1));
    const cookies = await tab.context.cookies();
    expect(cookies.find((c) => c.name === "kiwi_sampling")).toMatchObject({ domain: ".newsroom-qa.kiwi.example", sameSite: "Lax" });
    tab = await load(tab);
    expect(await decision(tab)).toEqual(first);
  });
});

describe("the preview shows the decision (docs/identity.md, Sampling)", () => {
  it("the tags panel's rum row: sampled in or out at the host's rate, with the row's state to match", async () => {
    const { app } = p;
    await app.goto(`${p.preview.url}?site=newsroom&env=qa&page=home&consent=all`);
    await expect.poll(async () => (await sessionEntries(app)).some((e) => e.kind === "monitor" && e.event?.type === "boot"), { timeout: 20_000 }).toBe(true);
    await openTab(app, "tags");
    const row = app.locator('[data-testid=tag-row][data-tag="rum"]').first();
    const sampling = row.locator("[data-testid=tag-sampling]");
    await sampling.waitFor({ timeout: 15_000 });
    expect(await sampling.getAttribute("data-rate")).toBe("1");
    const inside = (await sampling.getAttribute("data-sampled-in")) === "true";
    expect(await sampling.textContent()).toBe(`sampled ${inside ? "in" : "out"} at 1%`);
    expect(await row.getAttribute("data-state")).toMatch(inside ? /^(loading|loaded)$/ : /^skipped$/);
    if (!inside) expect(await row.locator("[data-testid=tag-reason]").getAttribute("data-reason")).toBe("sampled-out");
  }, 120_000);
});

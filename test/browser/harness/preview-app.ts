/**
 * The QA preview for browser tests: real bundles from a temporary catalogue
 * (the repository's site files, the organisation's size budget raised: these
 * files prove the preview, not the budgets), the preview server on a free
 * port against that dist, headless Chromium mapping every fictional host to
 * it, and the helpers QA's steps need (choose, load, read the live session).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { hostRules, startPreview, type PreviewServer } from "../../../preview/server/main";
import { CHROMIUM } from "./browser.js";
import { buildBundles, SITES_DIR, tempCatalogue } from "./bundles.js";
import type { EnvName } from "../../../generator/config/bundle-config.js";

export const PREVIEW_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-dev-shm-usage",
];

export interface PreviewEntry {
  kind: string;
  page?: number;
  at?: number;
  event?: { type: string; [k: string]: unknown };
  request?: { seq: number; query: Record<string, string>; [k: string]: unknown };
  [k: string]: unknown;
}

export interface PreviewApp {
  preview: PreviewServer;
  browser: Browser;
  context: BrowserContext;
  app: Page;
  distDir: string;
}

/** A catalogue with the repository's files for these sites, the org budget raised. */
export function previewCatalogue(sites: string[]): string {
  const dir = tempCatalogue(Object.fromEntries(sites.map((s) => [`${s}.yaml`, true as const])));
  const org = readFileSync(join(SITES_DIR, "_org.yaml"), "utf8").replace(/^(budget:\s*\n\s+gzipBytes:\s*)\d+/m, "$1500000");
  writeFileSync(join(dir, "_org.yaml"), org);
  return dir;
}

/** Builds the bundles, starts the preview and Chromium for the file; closes them after. */
export function usePreviewApp(wanted: Record<string, [string, EnvName]>, viewport = { width: 1600, height: 1000 }): PreviewApp {
  const out = {} as PreviewApp;
  beforeAll(async () => {
    const sites = [...new Set(Object.values(wanted).map(([s]) => s))];
    const built = await buildBundles(wanted, { sitesDir: previewCatalogue(sites) });
    out.distDir = Object.values(built)[0].outDir;
    out.preview = await startPreview({ distDir: out.distDir, port: 0 });
    out.browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [...PREVIEW_FLAGS, `--host-resolver-rules=${hostRules(out.preview.port)}`, "--ignore-certificate-errors"],
    });
    out.context = await out.browser.newContext({ viewport, ignoreHTTPSErrors: true, acceptDownloads: true });
    out.app = await out.context.newPage();
  }, 240_000);
  afterAll(async () => {
    await out.browser?.close();
    await out.preview?.close();
  });
  return out;
}

export async function choose(app: Page, testId: string, value: string): Promise<void> {
  await app.locator(`[data-testid=${testId}]`).selectOption(value);
}

export async function openTab(app: Page, name: string): Promise<void> {
  await app.locator(`[data-testid=tab-${name}]`).click();
}

/** The mock page's frame in the app (the frame on a fictional *.kiwi.example host). */
export function mockPageFrame(app: Page): Frame {
  const frame = app.frames().find((f) => f !== app.mainFrame() && /\.kiwi\.example$/.test(new URL(f.url() || "about:blank", "https://x").hostname));
  if (!frame)
    throw new Error(
      `no mock page frame; frames: ${app
        .frames()
        .map((f) => f.url())
        .join(", ")}`,
    );
  return frame;
}

/** The live session's entries (window.__sitetagsPreview). */
export async function sessionEntries(app: Page): Promise<PreviewEntry[]> {
  return app.evaluate(() => (window as unknown as { __sitetagsPreview: { entries: PreviewEntry[] } }).__sitetagsPreview.entries);
}

/** The highest server record the app has received over its event stream (whether or not the session kept it). */
export async function seenSeq(app: Page): Promise<number> {
  return app.evaluate(() => (window as unknown as { __sitetagsPreview?: { seenSeq?: number } }).__sitetagsPreview?.seenSeq ?? 0);
}

/** Waits until the page's bundle booted (a boot monitor event in the session). */
export async function waitForBoot(app: Page, count = 1): Promise<void> {
  await app.waitForFunction(
    (n) =>
      ((window as unknown as { __sitetagsPreview?: { entries: PreviewEntry[] } }).__sitetagsPreview?.entries ?? []).filter(
        (e) => e.kind === "monitor" && e.event?.type === "boot",
      ).length >= n,
    count,
    { timeout: 20_000 },
  );
}

/**
 * Presses Load and waits for the bundle to boot in the new page: a boot is only counted once the session names a
 * new frame (the session is emptied at the click, but a boot entry read just before it would still count).
 */
export async function pressLoad(app: Page): Promise<void> {
  const frameOf = () => (window as unknown as { __sitetagsPreview?: { page?: { frame: string } } }).__sitetagsPreview?.page?.frame ?? null;
  const before = await app.evaluate(frameOf);
  await app.locator("[data-testid=load-button]").click();
  await app.waitForFunction(
    (previous) => {
      const s = (window as unknown as { __sitetagsPreview?: { page?: { frame: string }; entries: PreviewEntry[] } }).__sitetagsPreview;
      return !!s?.page && s.page.frame !== previous && s.entries.some((e) => e.kind === "monitor" && e.event?.type === "boot");
    },
    before,
    { timeout: 20_000 },
  );
}

/** Chooses site, environment, page and consent in the controls, presses Load, waits for the bundle to boot. */
export async function loadPage(app: Page, site: string, env: string, page: string, consent: string): Promise<void> {
  await choose(app, "site-select", site);
  await choose(app, "env-select", env);
  await choose(app, "page-select", page);
  await choose(app, "consent-select", consent);
  await pressLoad(app);
}

/** requestIds of the beacons the runtime reported in the session. */
export function reportedRequestIds(entries: PreviewEntry[]): string[] {
  return entries.flatMap((e) => (e.kind === "monitor" && e.event?.type === "beacon" && typeof e.event.requestId === "string" ? [e.event.requestId] : []));
}

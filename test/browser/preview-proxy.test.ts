/**
 * Proxy mode: the preview on a real site whose HTML the preview did not
 * write. A local HTTPS server plays the real staging site
 * (satreg-qa.kiwi.example): its own page, its own production-looking
 * script tag (with SRI), its own strict CSP with its own nonce, its own
 * data-layer pushes. Chromium goes through the preview's proxy
 * (--proxy-server); the proxy reads only the site's host, swaps the
 * production tag for the chosen bundle of dist/ and the bridge, and the
 * inspector reads the page as it reads a mock page.
 */
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startPreview, type PreviewServer } from "../../preview/server/main";
import { replaceEmbed } from "../../preview/server/proxy";
import { CHROMIUM } from "./harness/browser.js";
import { buildBundles } from "./harness/bundles.js";
import { testCertificate } from "./harness/certs.js";
import { openTab, PREVIEW_FLAGS, previewCatalogue, sessionEntries, waitForBoot } from "./harness/preview-app.js";

const REAL_HOST = "satreg-qa.kiwi.example";
const REAL_NONCE = "r3alS1teN0nce";
/** The real site's page: not the preview's mock page. */
const REAL_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>SAT Registration (real staging)</title>
<script nonce="${REAL_NONCE}">window.kiwiDataLayer = [{ event: "registration-step", flow: "newreg", page: "start", steps: [{ page: "start", action: "view", pageReach: 1 }] }];</script>
<script src="https://cdn.kiwi.example/prod/satreg/sitetags.0123456789.min.js" nonce="${REAL_NONCE}" integrity="sha384-AAAAthisIsTheProductionBundleNotTheChosenOneAAAAAAAAAAAAAAAAAAAAAAA" crossorigin="anonymous" async></script>
</head><body><h1 id="real">Register for the SAT (the real staging page)</h1>
<button id="real-modal">Checklist</button>
<script nonce="${REAL_NONCE}">document.getElementById("real-modal").addEventListener("click", function () { window.kiwiDataLayer.push({ event: "modal", modalName: "checklist", modalState: "shown" }); });</script>
</body></html>`;
const REAL_CSP = `script-src 'nonce-${REAL_NONCE}' 'strict-dynamic'; object-src 'none'; base-uri 'none'`;

let real: Server;
let realRequests: string[] = [];
let preview: PreviewServer;
let browser: Browser;
let app: Page;

beforeAll(async () => {
  const built = await buildBundles({ qa: ["satreg", "qa"], prod: ["satreg", "prod"] }, { sitesDir: previewCatalogue(["satreg"]) });
  const { key, cert } = await testCertificate();
  real = createServer({ key, cert }, (req, res) => {
    realRequests.push(`${req.headers.host}${req.url}`);
    const path = new URL(req.url ?? "/", "https://x").pathname;
    if (path === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": REAL_CSP });
      res.end(REAL_PAGE);
    } else if (path === "/fpid.js") {
      // The site's own first-party id script (the bundle's identity.fpid.src).
      res.writeHead(200, { "content-type": "text/javascript" });
      res.end('document.cookie = "kiwi_fpid=fp-real; path=/; max-age=600; secure; samesite=lax";\n');
    } else {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found\n");
    }
  });
  await new Promise<void>((resolve) => real.listen(0, "127.0.0.1", resolve));
  const realPort = (real.address() as AddressInfo).port;
  preview = await startPreview({
    distDir: built.qa.outDir,
    port: 0,
    proxyPort: 0,
    upstream: (host) => (host === REAL_HOST ? { host: "127.0.0.1", port: realPort } : undefined),
  });
  // No host mapping: every name goes through the proxy, which tunnels all but the real site to the preview server.
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...PREVIEW_FLAGS, `--proxy-server=http://127.0.0.1:${preview.proxyPort}`, "--ignore-certificate-errors"],
  });
  app = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, ignoreHTTPSErrors: true })).newPage();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await preview?.close();
  await new Promise<void>((resolve) => (real ? real.close(() => resolve()) : resolve()));
});

it("replaces only the production embed, keeping the page's nonce; a page without one is left as it is", () => {
  const out = replaceEmbed(REAL_PAGE, (nonce) => `<!--chosen ${nonce}-->`);
  expect(out.replaced).toBe(true);
  expect(out.html).toContain(`<!--chosen ${REAL_NONCE}-->`);
  expect(out.html).not.toContain("sitetags.0123456789.min.js");
  expect(out.html).toContain('id="real"');
  expect(replaceEmbed("<html><script src=/app.js></script></html>", () => "x")).toEqual({
    html: "<html><script src=/app.js></script></html>",
    replaced: false,
  });
});

it("the real staging site through the proxy: its production script tag replaced with the chosen bundle, its own CSP and pushes kept, read by the inspector as a mock page", async () => {
  realRequests = [];
  await app.goto(`${preview.url}?site=satreg&env=qa`);
  await waitForBoot(app);
  // The real site answered the page (the preview did not write it).
  expect(realRequests.some((r) => r.startsWith(`${REAL_HOST}/`))).toBe(true);
  const frame = app.frames().find((f) => new URL(f.url() || "about:blank", "https://x").hostname === REAL_HOST)!;
  expect(await frame.locator("#real").textContent()).toContain("real staging page");
  // The chosen bundle (qa, from dist/) runs, not the production one; the page's CSP is the real site's.
  expect(await frame.evaluate(() => (window as unknown as { sitetags?: { env: string; site: string } }).sitetags?.env)).toBe("qa");
  const scripts = await frame.evaluate(() => [...document.scripts].map((s) => ({ src: s.src, nonce: s.nonce })));
  expect(scripts.some((s) => /^https:\/\/cdn\.kiwi\.example\/qa\/satreg\/sitetags(\.[0-9a-f]{10})?\.min\.js$/.test(s.src) && s.nonce === REAL_NONCE)).toBe(
    true,
  );
  expect(scripts.some((s) => s.src.includes("0123456789"))).toBe(false);
  const entries = await sessionEntries(app);
  expect(entries.find((e) => e.kind === "page")?.csp).toBe(REAL_CSP);
  expect(entries.filter((e) => e.kind === "csp" || e.kind === "error")).toEqual([]);

  // The inspector: the page view's beacon, the page's own push processed, the real page's own modal push heard by the org's rule.
  await openTab(app, "beacons");
  const pageView = app.locator('[data-testid=beacon-row][data-event-type="web.webpagedetails.pageViews"]');
  await pageView.first().waitFor({ timeout: 20_000 });
  await expect.poll(() => pageView.first().getAttribute("data-status"), { timeout: 10_000 }).toBe("ok");
  expect((await sessionEntries(app)).some((e) => e.kind === "monitor" && e.event?.type === "dataLayer" && e.event.event === "registration-step")).toBe(true);
  await frame.locator("#real-modal").click();
  await openTab(app, "rules");
  await expect.poll(() => app.locator('[data-testid=rule-verdict][data-rule="modal"]').getAttribute("data-verdict"), { timeout: 10_000 }).toBe("fired");
}, 180_000);

/**
 * Chromium for the browser tests: the Debian package at /usr/bin/chromium,
 * driven by playwright-core, headless, with every fictional name
 * (*.example: the organisation's *.kiwi.example hosts, edge.kiwi.example,
 * cdn.kiwi.example and the third parties; *.youtube.com, the video
 * platform) resolved to the local test server
 * (servers.ts). The host rule also rewrites the port, so tests use real
 * looking URLs: https://clep-qa.kiwi.example/contact-us.
 *
 * One browser per test file; each `openPage` gets a fresh context (own
 * cookies and storage), closed by `closePages()` (afterEach). Before the
 * page's own scripts run, every page gets:
 * - `window.OnetrustActiveGroups` when `consentGroups` is given (what the
 *   consent banner sets; see CONSENT),
 * - debug mode when `debug` is true (the documented per-browser switch's
 *   stored form, the cookie sitetags-debug=1),
 * - a runtime monitor (`window.__sitetagsMonitors`, docs/runtime.md) that
 *   keeps every event in `window.__sitetagsEvents`,
 * - a `securitypolicyviolation` listener keeping `window.__cspViolations`.
 * Console messages and uncaught page errors are collected on the TestPage.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { testHostRules, type TestWeb } from "./servers.js";

export const CHROMIUM = "/usr/bin/chromium";

/** OnetrustActiveGroups strings (sites/_org.yaml consent.groups: C0002 performance, C0003 functional, C0004 marketing). */
export const CONSENT = {
  /** The banner recorded a choice: strictly necessary only. */
  necessary: ",C0001,",
  performance: ",C0001,C0002,",
  functional: ",C0001,C0003,",
  performanceAndFunctional: ",C0001,C0002,C0003,",
  all: ",C0001,C0002,C0003,C0004,C0005,C0006,",
} as const;

/** The banner's consent categories, each with its group id (sites/_org.yaml consent.groups). */
export const CONSENT_CATEGORIES = ["performance", "functional", "marketing", "programFunctional", "programMarketing"] as const;
export type ConsentCategoryName = (typeof CONSENT_CATEGORIES)[number];
export const CONSENT_GROUP: Record<ConsentCategoryName, string> = {
  performance: "C0002",
  functional: "C0003",
  marketing: "C0004",
  programFunctional: "C0005",
  programMarketing: "C0006",
};
/** The OnetrustActiveGroups string of a banner choice: strictly necessary plus these categories. */
export const groupsFor = (categories: readonly ConsentCategoryName[]) => `,C0001,${categories.map((c) => CONSENT_GROUP[c]).join(",")},`;

/** The banner's window event the runtime listens to (runtime-modules/core/consent.ts). */
export const CONSENT_EVENT = "consent.onetrust";

export interface OpenPageOptions {
  /** window.OnetrustActiveGroups before any page script runs; omit for "no banner yet". */
  consentGroups?: string;
  /** Debug mode on for this browser context before the page loads. */
  debug?: boolean;
  /** More scripts to run before the page's own (page.addInitScript). */
  initScripts?: string[];
  /** Navigation milestone to await (default "load"). */
  waitUntil?: "load" | "domcontentloaded" | "commit";
  /** The browser context's IANA time zone (default: the machine's). */
  timezoneId?: string;
}

export interface ConsoleEntry {
  type: string;
  text: string;
}

/** What the runtime's monitor reported (runtime-modules/core/monitor.ts): `{ type, t, ...detail }`. */
export interface MonitorEvent {
  type: string;
  t: number;
  [key: string]: unknown;
}

export interface CspViolation {
  directive: string;
  blockedURI: string;
  sourceFile: string;
  sample: string;
}

export interface TestPage {
  page: Page;
  context: BrowserContext;
  /** Every console message of every navigation of this page, in order. */
  readonly console: ConsoleEntry[];
  /** The bundle's console lines (prefixed "[sitetags]"). */
  sitetagsConsole(): ConsoleEntry[];
  /** Uncaught errors thrown into the page. */
  readonly pageErrors: Error[];
  /** Navigates this page (same context: cookies and storage persist). */
  goto(url: string): Promise<void>;
  /** The monitor events of the current document. */
  monitorEvents(): Promise<MonitorEvent[]>;
  /** Waits for a monitor event whose fields equal these (e.g. { type: "tag", tag: "chat", state: "skipped" }). */
  waitForMonitor(fields: Record<string, string | number | boolean>, options?: { timeoutMs?: number }): Promise<MonitorEvent>;
  /** The runtime's log entries as the monitor saw them ({ level, message, code?, data? }), also when window.sitetags is absent. */
  logEntries(): Promise<MonitorEvent[]>;
  cspViolations(): Promise<CspViolation[]>;
  /** URLs of the third-party scripts that ran (the test server's scripts record themselves). */
  thirdPartyScriptsRun(): Promise<string[]>;
  /** Simulates the consent banner: new active groups, then its consent-changed signal. */
  setConsent(groups: string, options?: { via?: "event" | "OptanonWrapper" }): Promise<void>;
  close(): Promise<void>;
}

export interface TestBrowser {
  browser: Browser;
  openPage(url: string, options?: OpenPageOptions): Promise<TestPage>;
  /** Closes every page's context (call in afterEach). */
  closePages(): Promise<void>;
  close(): Promise<void>;
}

/** Chromium launch flags of the browser tests. */
export const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-dev-shm-usage",
];

/** Launches Chromium with every *.example name mapped to the test server's HTTPS port. */
export async function launchBrowser(web: Pick<TestWeb, "httpsPort" | "marker">): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM)) throw new Error("Chromium is missing. Install it with: sudo apt-get update && sudo apt-get install -y chromium");
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...FLAGS, `--host-resolver-rules=${testHostRules(web.httpsPort)}`],
  });
  const open = new Set<TestPage>();
  return {
    browser,
    async openPage(url, options = {}) {
      const tab = await newTestPage(options);
      open.add(tab);
      await tab.goto(url).catch(async (e: unknown) => {
        await tab.close();
        throw e;
      });
      return tab;
    },
    async closePages() {
      const tabs = [...open];
      open.clear();
      await Promise.all(tabs.map((t) => t.close()));
    },
    async close() {
      open.clear();
      await browser.close();
    },
  };

  async function newTestPage(options: OpenPageOptions): Promise<TestPage> {
    const context = await browser.newContext({
      ignoreHTTPSErrors: true,
      serviceWorkers: "block",
      ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
    });
    // The running test's marker (HttpOnly: no page script sees it): what this context sends after the test ended is a stray.
    await context.addCookies([
      { name: web.marker.name, value: web.marker.value, domain: ".kiwi.example", path: "/", secure: true, httpOnly: true, sameSite: "None" },
    ]);
    await context.addInitScript([BASE_INIT, optionsInit(options), ...(options.initScripts ?? [])].filter(Boolean).join("\n;\n"));
    const page = await context.newPage();
    const consoleEntries: ConsoleEntry[] = [];
    const pageErrors: Error[] = [];
    page.on("console", (m) => consoleEntries.push({ type: m.type(), text: m.text() }));
    page.on("pageerror", (e) => pageErrors.push(e));
    const read = <T>(name: string) => page.evaluate((n) => ((window as unknown as Record<string, unknown>)[n] ?? []) as T, name);
    const tab: TestPage = {
      page,
      context,
      console: consoleEntries,
      pageErrors,
      sitetagsConsole: () => consoleEntries.filter((c) => c.text.startsWith("[sitetags]")),
      async goto(target) {
        await page.goto(target, { waitUntil: options.waitUntil ?? "load" });
      },
      monitorEvents: () => read<MonitorEvent[]>("__sitetagsEvents"),
      async waitForMonitor(fields, opts = {}) {
        const handle = await page
          .waitForFunction(
            (f) => {
              const events = (window as unknown as { __sitetagsEvents?: Array<Record<string, unknown>> }).__sitetagsEvents ?? [];
              return events.find((e) => Object.keys(f).every((k) => e[k] === f[k])) ?? false;
            },
            fields,
            { timeout: opts.timeoutMs ?? 5000, polling: 25 },
          )
          .catch(async (e: Error) => {
            const seen = await read<MonitorEvent[]>("__sitetagsEvents").catch(() => []);
            throw new Error(`no monitor event like ${JSON.stringify(fields)}: ${e.message.split("\n")[0]}\nevents seen: ${JSON.stringify(seen, null, 1)}`);
          });
        return (await handle.jsonValue()) as MonitorEvent;
      },
      async logEntries() {
        return (await read<MonitorEvent[]>("__sitetagsEvents")).filter((e) => e.type === "log");
      },
      cspViolations: () => read<CspViolation[]>("__cspViolations"),
      thirdPartyScriptsRun: () => read<string[]>("__thirdParty"),
      async setConsent(groups, opts = {}) {
        await page.evaluate(
          ({ groups, via, event }) => {
            const w = window as unknown as { OnetrustActiveGroups?: string; OptanonWrapper?: () => void };
            w.OnetrustActiveGroups = groups;
            if (via === "OptanonWrapper") w.OptanonWrapper?.();
            else window.dispatchEvent(new CustomEvent(event, { detail: groups.split(",").filter(Boolean) }));
          },
          { groups, via: opts.via ?? "event", event: CONSENT_EVENT },
        );
      },
      async close() {
        open.delete(tab);
        await context.close().catch(() => undefined);
      },
    };
    return tab;
  }
}

/** The first script of every document (runs before the page's own, outside its CSP). */
const BASE_INIT = [
  "window.__sitetagsEvents = [];",
  "window.__cspViolations = [];",
  "window.__sitetagsMonitors = [function (e) { var c; try { c = JSON.parse(JSON.stringify(e)); } catch (x) { c = { type: e.type, t: e.t }; } window.__sitetagsEvents.push(c); }];",
  "document.addEventListener('securitypolicyviolation', function (e) { window.__cspViolations.push({ directive: e.violatedDirective, blockedURI: e.blockedURI, sourceFile: e.sourceFile, sample: e.sample }); });",
].join("\n");

/** What the options set before the page's scripts run. */
function optionsInit(options: OpenPageOptions): string {
  const lines: string[] = [];
  if (options.consentGroups !== undefined) lines.push(`window.OnetrustActiveGroups = ${JSON.stringify(options.consentGroups)};`);
  if (options.debug) lines.push("try { document.cookie = 'sitetags-debug=1; path=/'; } catch (e) {}");
  return lines.join("\n");
}

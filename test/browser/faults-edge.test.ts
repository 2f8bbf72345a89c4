/**
 * The fault matrix, the edge (issue #22, the page; docs/runtime.md "Faults"):
 * the shipped catalogue's production bundle of a typical site
 * (prod/bigfuture) in Chromium, against the mock edge answering each fault.
 * Each record is a search push with its own term; the edge counts it by its
 * requestId (a retry keeps the requestId: the edge's own de-duplication key).
 * Each fault ends with no uncaught page error, and each record exactly as
 * docs/runtime.md promises: retried (delivered once), dropped with a log
 * line, or queued (delivered once, later).
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  buildBundle,
  CONSENT,
  settle,
  useBrowserHarness,
  type Bundle,
  type EdgeResponse,
  type RecordedRequest,
  type TestPage,
  trustTestCertificateForBeacons,
} from "./harness/index.js";

const h = useBrowserHarness();
const PAGE = "https://bigfuture.kiwi.example/colleges";
const EDGE = "edge.kiwi.example";

let bundle: Bundle;
beforeAll(async () => {
  await trustTestCertificateForBeacons(h);
  bundle = await buildBundle("bigfuture", "prod");
}, 240_000);

const events = () => h.web.find((r) => r.host === EDGE && r.method === "POST" && /\/v1\/(interact|collect)$/.test(r.path));
/** The edge's view of one record: the requests carrying it, their distinct requestIds, whether one was accepted. */
function record(term: string) {
  const requests = events().filter((r) => r.body.includes(`"${term}"`) || r.body.includes(`:${term}"`));
  return {
    requests: requests.length,
    ids: new Set(requests.map((r) => r.query.requestId)).size,
    accepted: requests.some((r) => (r.status ?? 0) >= 200 && (r.status ?? 0) < 300),
  };
}
const delivered = { ids: 1, accepted: true };

/** Opens the page with full consent and waits for its page view to be answered (the visitor's first request goes alone). */
async function open(initScripts: string[] = []): Promise<TestPage> {
  const tab = await h.browser.openPage(h.web.page(PAGE, { bundle }), { consentGroups: CONSENT.all, initScripts });
  await expect.poll(() => events().filter((r) => r.status !== undefined).length, { timeout: 8000 }).toBeGreaterThan(0);
  return tab;
}
/** Pushes one search record per term. */
async function push(tab: TestPage, terms: string[]): Promise<void> {
  await tab.page.evaluate((ts) => {
    const dl = ((window as any).kiwiDataLayer = (window as any).kiwiDataLayer || []);
    for (const term of ts) dl.push({ event: "search", term, type: "college", count: 3, hasData: true });
  }, terms);
}
/** The edge answers `response` to the first `times` requests carrying the term (strays of closed pages never take it), normally to the rest. */
function faultFor(term: string, response: EdgeResponse, times = 1): void {
  let left = times;
  h.web.edge.handler = (r) => (r.body.includes(term) && left-- > 0 ? response : { status: 200, body: { requestId: r.query.requestId, handle: [] } });
}
const logs = async (tab: TestPage, level: string) => (await tab.logEntries()).filter((e) => e.level === level).map((e) => String(e.message));
const retryNow = { "retry-after": "0", "access-control-expose-headers": "Retry-After" };

describe("the edge answers a retried status (429, 502, 503, 504): retried with the same requestId, delivered once", () => {
  for (const status of [429, 502, 503, 504]) {
    it(`${status}`, async () => {
      const tab = await open();
      faultFor(`r${status}a`, { status, headers: retryNow, body: "busy" });
      await push(tab, [`r${status}a`, `r${status}b`]);
      await expect
        .poll(() => [record(`r${status}a`), record(`r${status}b`)], { timeout: 8000 })
        .toEqual([
          { requests: 2, ...delivered },
          { requests: 1, ...delivered },
        ]);
      expect(tab.pageErrors).toEqual([]);
    });
  }
});

describe("the edge answers 500 or 400, malformed JSON, or resets the connection: dropped with a log line, not retried; the next records go on", () => {
  const cases: Array<[string, EdgeResponse, string]> = [
    ["500", { status: 500, body: "internal" }, "The server responded with a status code 500 and response body: internal"],
    ["400", { status: 400, body: { errors: [{ type: "bad" }] } }, "The server responded with a status code 400"],
    ["malformed JSON", { status: 200, body: '{"handle": [' }, 'The server responded with a status code 200 and response body: {"handle": ['],
    ["a connection reset", { status: 0, fault: "reset" }, "Network request failed."],
  ];
  for (const [name, response, message] of cases) {
    it(name, async () => {
      const tab = await open();
      const tag = name.replace(/\W/g, "").slice(0, 8).toLowerCase();
      // A reset twice: Chromium itself resends a request whose reused connection was reset.
      faultFor(`d${tag}a`, response, response.fault ? 2 : 1);
      await push(tab, [`d${tag}a`, `d${tag}b`]);
      await expect.poll(() => record(`d${tag}b`), { timeout: 8000 }).toEqual({ requests: 1, ...delivered });
      // The faulty answer's record reached the edge once (no retry; a browser resend keeps the requestId).
      expect(record(`d${tag}a`).ids).toBe(1);
      if (response.status >= 400) expect(record(`d${tag}a`)).toEqual({ requests: 1, ids: 1, accepted: false });
      expect((await logs(tab, "warn")).some((m) => m.startsWith(message))).toBe(true);
      expect(tab.pageErrors).toEqual([]);
    });
  }
});

it("the edge answers with errors and warnings (a 2xx with a handle): delivered once, each logged", async () => {
  const tab = await open();
  faultFor("wea", { status: 207, body: { handle: [], warnings: [{ type: "w", title: "slow" }], errors: [{ type: "e", title: "partial" }] } });
  await push(tab, ["wea"]);
  await expect.poll(() => record("wea"), { timeout: 8000 }).toEqual({ requests: 1, ...delivered });
  // The request is recorded when it arrives; the page logs the answer a moment later.
  await expect
    .poll(() => logs(tab, "warn"), { timeout: 8000 })
    .toEqual(expect.arrayContaining([expect.stringMatching(/warning/), expect.stringMatching(/non-fatal error/)]));
  expect(tab.pageErrors).toEqual([]);
});

it("the edge does not answer (a hung request; the client sets no timeout, as alloy): the records behind it queue, then leave by sendBeacon at pagehide, each once", async () => {
  // The visitor's consent request (set-consent) hangs: every event waits for its answer.
  h.web.edge.handler = (r) =>
    r.path.endsWith("/privacy/set-consent") ? { status: 0, fault: "hang" } : { status: 200, body: { requestId: r.query.requestId, handle: [] } };
  const tab = await h.browser.openPage(h.web.page(PAGE, { bundle }), { consentGroups: CONSENT.all });
  await h.web.waitForRequest({ host: EDGE, path: /\/privacy\/set-consent$/ });
  await push(tab, ["hanga", "hangb", "hangc"]);
  await settle(1500);
  expect(events()).toHaveLength(0); // queued: not lost, not sent
  await tab.page.goto("about:blank");
  await expect.poll(() => ["hanga", "hangb", "hangc"].map(record), { timeout: 8000 }).toEqual([1, 2, 3].map(() => ({ requests: 1, ...delivered })));
  expect(tab.pageErrors).toEqual([]);
});

it("the edge is down while the page unloads: the beacons are sent once, not retried, nothing thrown (what the edge never answered is the browser's to drop)", async () => {
  const tab = await open();
  await push(tab, ["downa"]);
  await expect.poll(() => record("downa"), { timeout: 8000 }).toEqual({ requests: 1, ...delivered });
  faultFor("downb", { status: 0, fault: "reset" }, 9);
  await push(tab, ["downb"]);
  await tab.page.evaluate(() => window.dispatchEvent(new PageTransitionEvent("pagehide", { persisted: false })));
  await tab.page.goto("about:blank");
  await settle(1000);
  expect(record("downb").ids).toBeLessThanOrEqual(1);
  expect(tab.pageErrors).toEqual([]);
});

export type { RecordedRequest };

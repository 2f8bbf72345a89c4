/**
 * "An email address leaks when its at-sign is double-encoded" (issue #22, the
 * page): a seeded fuzz of page addresses, referrers, clicked links and pushed
 * link clicks, each holding an email address or a redacted parameter's value
 * under 1–3 levels of percent-encoding (either case, "+", in the query, the
 * fragment, a hash route, the path, or an address nested in a value), run on
 * the shipped catalogue's production bundle of a typical site
 * (prod/bigfuture) in real Chromium against the mock edge. Nothing of the
 * address (its domain, kiwimail) nor of any redacted value (every one starts
 * qqx) may appear, decoded to a fixed point, in any request the page makes
 * after its own document (URL, body, headers) or in any cookie.
 *
 * One page load carries one page address and one referrer variant, then
 * three clicked links and two pushed link clicks: seven variants per load. Loads run
 * in batches of one browser context each.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { buildBundle, CONSENT, settle, useBrowserHarness, type Bundle, type RecordedRequest, trustTestCertificateForBeacons } from "./harness/index.js";

const h = useBrowserHarness();
const HOST = "bigfuture.kiwi.example";
/** What must never leave: the address's domain, and the prefix of every redacted value. */
const ADDRESS_MARK = "kiwimail";
const SECRET_MARK = "qqx";
/** A value of a parameter that is not redacted: it must arrive (the scan is not looking at nothing). */
const CONTROL = "keepzz";

const NAMES = ["u", "personId", "regId", "regNo", "i", "studentid"];

/** s percent-encoded depth times (encodeURIComponent), hex digits in lower case when asked. */
function nest(s: string, depth: number, lower: boolean): string {
  let t = s;
  for (let i = 0; i < depth; i++) t = encodeURIComponent(t);
  return lower ? t.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()) : t;
}

/** An email address, encoded: only its at-sign (%40, %2540, %252540) or all of it, 1–3 levels deep. */
const email = fc
  .record({
    local: fc.constantFrom("jane.doe", "Jane.Doe", "jane.doe+news", "j"),
    domain: fc.constantFrom("kiwimail.example", "KiwiMail.Example", "mail.kiwimail.example"),
    depth: fc.integer({ min: 1, max: 3 }),
    whole: fc.boolean(),
    lower: fc.boolean(),
  })
  .map(({ local, domain, depth, whole, lower }) =>
    whole ? nest(`${local}@${domain}`, depth, lower) : `${local.replace("+", "%2B")}%${"25".repeat(depth - 1)}40${domain}`,
  );

/** A redacted name=value pair (name in any case, value qqx…, sometimes with "+"), the pair or only its = encoded 0–3 levels deep. */
const secretPair = fc
  .record({
    name: fc.tuple(fc.constantFrom(...NAMES), fc.array(fc.boolean(), { minLength: 9, maxLength: 9 })).map(([n, up]) =>
      n
        .split("")
        .map((c, k) => (up[k] ? c.toUpperCase() : c.toLowerCase()))
        .join(""),
    ),
    value: fc.tuple(fc.stringMatching(/^[a-z]{4,8}$/), fc.boolean()).map(([v, plus]) => `${SECRET_MARK}${v}${plus ? `+${SECRET_MARK}x` : ""}`),
    depth: fc.integer({ min: 0, max: 3 }),
    onlyEquals: fc.boolean(),
    lower: fc.boolean(),
  })
  .map(({ name, value, depth, onlyEquals, lower }) =>
    onlyEquals && depth > 0 ? `${name}%${"25".repeat(depth - 1)}3D${value}` : nest(`${name}=${value}`, depth, lower),
  );

/** Something that must not leave: an address, or a redacted pair. */
const payload = fc.oneof(
  email.map((e) => ({ text: e, pair: false })),
  secretPair.map((p) => ({ text: p, pair: true })),
);

/** Where a payload stands in an address (after the origin). */
const place = fc.constantFrom("query", "fragment", "route", "path", "nested");
function address(origin: string, where: string, p: { text: string; pair: boolean }): string {
  const value = p.pair ? p.text : `e=${p.text}`;
  switch (where) {
    case "query":
      return `${origin}/about?tab=${CONTROL}&${value}`;
    case "fragment":
      return `${origin}/about?tab=${CONTROL}#${value}`;
    case "route":
      return `${origin}/about?tab=${CONTROL}#/account?${value}`;
    case "path":
      return `${origin}/about/${p.text}/more?tab=${CONTROL}`;
    default:
      return `${origin}/about?tab=${CONTROL}&next=${encodeURIComponent(`${origin}/x?${value}`)}`;
  }
}

interface Load {
  page: string;
  referrer: string;
  links: string[];
  pushed: string[];
}

const load: fc.Arbitrary<Load> = fc
  .record({
    page: fc.tuple(place, payload),
    referrer: fc.tuple(fc.constantFrom("https://www.google.com", "https://news.example", "https://partner.example"), place, payload),
    links: fc.array(fc.tuple(fc.constantFrom("https://news.example", "https://bigfuture.kiwi.example"), place, payload), { minLength: 3, maxLength: 3 }),
    pushed: fc.array(fc.tuple(place, payload), { minLength: 2, maxLength: 2 }),
  })
  .map(({ page, referrer, links, pushed }) => ({
    page: address(`https://${HOST}`, page[0], page[1]),
    referrer: address(referrer[0], referrer[1], referrer[2]).replace("/about", referrer[0].includes("google") ? "/search" : "/story"),
    links: links.map(([origin, where, p]) => address(origin, where, p).replace("/about", "/files/guide.pdf")),
    pushed: pushed.map(([where, p]) => address("https://news.example", where, p)),
  }));

const LOADS = fc.sample(load, { seed: 22, numRuns: 74 });
const BATCHES = 2;
const VARIANTS_PER_LOAD = 7;

let bundle: Bundle;
beforeAll(async () => {
  await trustTestCertificateForBeacons(h);
  bundle = await buildBundle("bigfuture", "prod");
}, 240_000);

/** The test's own decoder (not the runtime's): decodeURIComponent until nothing changes, escape by escape where a sequence is malformed. */
function decodeFully(text: string): string {
  let t = text;
  for (let i = 0; i < 10; i++) {
    let next: string;
    try {
      next = decodeURIComponent(t);
    } catch {
      next = t.replace(/%[0-9a-f]{2}/gi, (m) => (parseInt(m.slice(1), 16) < 0x80 ? String.fromCharCode(parseInt(m.slice(1), 16)) : m));
    }
    if (next === t) return t;
    t = next;
  }
  return t;
}

/** Every place a request carries text: its URL, its headers (cookies included), its body; decoded to a fixed point, lower case. */
function requestText(r: RecordedRequest): string {
  return decodeFully([r.url, JSON.stringify(r.headers), r.body].join("\n")).toLowerCase();
}

/** What leaked: the marks found in the requests after the page documents and in the cookies. */
function leaks(requests: RecordedRequest[], cookies: Array<{ name: string; value: string }>): string[] {
  const found: string[] = [];
  for (const r of requests) {
    if (r.kind === "page") continue; // the page's own document request is its address
    const text = requestText(r);
    for (const mark of [ADDRESS_MARK, SECRET_MARK])
      if (text.includes(mark)) found.push(`${mark} in ${r.method} ${r.url}: ${text.slice(Math.max(0, text.indexOf(mark) - 120), text.indexOf(mark) + 60)}`);
  }
  for (const c of cookies) {
    const text = decodeFully(`${c.name}=${c.value}`).toLowerCase();
    for (const mark of [ADDRESS_MARK, SECRET_MARK]) if (text.includes(mark)) found.push(`${mark} in cookie ${text}`);
  }
  return found;
}

const edgeEvents = () => h.web.find((r) => r.host === "edge.kiwi.example" && r.method === "POST" && /\/v1\/(interact|collect)$/.test(r.path));
let eventsSeen = 0;
let controlSeen = 0;

describe(`"zero occurrences of the address or of a redacted value in any request URL, body, header or cookie" (${LOADS.length * VARIANTS_PER_LOAD} generated variants, seed 22)`, () => {
  const size = Math.ceil(LOADS.length / BATCHES);
  for (let batch = 0; batch < BATCHES; batch++) {
    const loads = LOADS.slice(batch * size, (batch + 1) * size);
    it(`batch ${batch + 1}/${BATCHES}: ${loads.length} page loads, ${loads.length * VARIANTS_PER_LOAD} variants (page address, referrer, three clicked links, two pushed link clicks)`, async () => {
      h.web.page(`https://${HOST}/about*`, { bundle });
      const tab = await h.browser.openPage("about:blank", { consentGroups: CONSENT.all });
      // Clicked links stay on the page (the bundle's listener runs first, in the capture phase).
      await tab.context.addInitScript("addEventListener('click', function (e) { e.preventDefault(); });");
      for (const l of loads) {
        await tab.page.goto(l.page, { referer: l.referrer, waitUntil: "domcontentloaded" });
        await tab.page.evaluate((v) => {
          for (const href of v.links) {
            const a = document.createElement("a");
            a.href = href;
            a.textContent = "Guide " + href;
            document.body.appendChild(a);
            a.click();
          }
          const dl = ((window as any).kiwiDataLayer = (window as any).kiwiDataLayer || []);
          for (const url of v.pushed)
            dl.push({ event: "link-click", linkType: "external", linkName: "story " + url, linkUrl: url, eventCode: "event50", hasData: true });
        }, l);
        await settle(30);
      }
      // Unload the last page (its queued events go by beacon) and let every beacon arrive.
      await tab.page.goto("about:blank");
      await settle(500);
      const found = leaks(h.web.requests, await tab.context.cookies());
      expect(found).toEqual([]);
      expect(tab.pageErrors).toEqual([]);
      eventsSeen += edgeEvents().length;
      controlSeen += h.web.requests.filter((r) => r.kind === "edge" && r.body.includes(CONTROL)).length;
    }, 120_000);
  }

  it("the scan saw real traffic: events at the edge, and the address's unredacted parameters in them", () => {
    expect(LOADS.length * VARIANTS_PER_LOAD).toBeGreaterThanOrEqual(500);
    expect(eventsSeen).toBeGreaterThan(LOADS.length);
    expect(controlSeen).toBeGreaterThan(0);
  });
});

/**
 * "Prototype pollution" (issue #22, the page): objects built by JSON.parse
 * with "__proto__", "constructor" and "prototype" keys, pushed through every
 * path by which page data reaches a deep merge, in real Chromium on the
 * shipped catalogue's production bundle (prod/bigfuture):
 * - the data layer's state (data-only pushes, event pushes, nested), the
 *   identity push and the records of pushed entities (search, link click),
 *   the page's onBeforeEventSend hook replacing xdm and data;
 * - the Edge client's xdm and datastream-override merges, which today merge
 *   only the bundle's own objects: the runtime's one guarded merge
 *   (runtime-modules/core/merge.ts) is compiled into the page and run with
 *   the client's own calls on such objects.
 * Each asserts `({}).polluted === undefined` and an unchanged Object.prototype.
 */
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { buildBundle, CONSENT, settle, useBrowserHarness, type Bundle } from "./harness/index.js";

const h = useBrowserHarness();
const URL_ = "https://bigfuture.kiwi.example/colleges";

/** The payloads, as JSON text: JSON.parse keeps "__proto__" an own key (an object literal would not). */
const PAYLOADS = [
  '{"__proto__":{"polluted":"top"}}',
  '{"a":{"__proto__":{"polluted":"nested"}}}',
  '{"constructor":{"prototype":{"polluted":"constructor"}}}',
  '{"a":{"b":{"constructor":{"prototype":{"polluted":"deep"}}}}}',
  '{"prototype":{"polluted":"prototype"}}',
];

let bundle: Bundle;
let mergeScript: string;
beforeAll(async () => {
  bundle = await buildBundle("bigfuture", "prod");
  const esbuild = await import("esbuild");
  const out = await esbuild.build({
    entryPoints: [fileURLToPath(new URL("../../runtime-modules/core/merge.ts", import.meta.url))],
    bundle: true,
    write: false,
    format: "iife",
    globalName: "__merge",
    target: "es2020",
  });
  mergeScript = out.outputFiles[0].text;
}, 240_000);

/** Object.prototype's own names, and whether a fresh object sees "polluted". */
const prototypeState = () => ({ names: Object.getOwnPropertyNames(Object.prototype).sort().join(), polluted: ({} as Record<string, unknown>).polluted });

describe('"A Chromium test pushes such objects through every path that merges page data" and asserts ({}).polluted === undefined', () => {
  it("the data layer's state, the identity push, pushed entities (search, link click), the onBeforeEventSend hook: on the production bundle", async () => {
    const page = h.web.page(URL_, {
      bundle,
      // Before the bundle: pushes it processes at start.
      before: [
        `window.__payloads = ${JSON.stringify(PAYLOADS)}; var dl = window.kiwiDataLayer = []; __payloads.forEach(function (p) { dl.push(JSON.parse(p)); });`,
      ],
    });
    const tab = await h.browser.openPage(page, { consentGroups: CONSENT.all });
    const before = await tab.page.evaluate(prototypeState);
    expect(before.polluted).toBeUndefined();
    const eventsBefore = h.web.find((r) => r.host === "edge.kiwi.example" && /\/v1\/interact$/.test(r.path)).length;
    await tab.page.evaluate(() => {
      const w = window as any;
      const parse = (p: string) => JSON.parse(p);
      // The hook hands back xdm and data holding the payloads (the client serialises them; no prototype changes).
      w.sitetagsOnBeforeEventSend = (content: any) => {
        content.xdm = Object.assign(parse(w.__payloads[0]), content.xdm, { _kiwi: parse(w.__payloads[1]) });
        content.data = Object.assign(parse(w.__payloads[2]), content.data);
      };
      for (const p of w.__payloads as string[]) {
        const o = parse(p);
        w.kiwiDataLayer.push(o); // data only: the state merge
        w.kiwiDataLayer.push(Object.assign(parse(p), { event: "identity", accountId: "1000234", namespace: "st", roles: [parse(p)] }));
        w.kiwiDataLayer.push(
          Object.assign(parse(p), { event: "search", term: "nursing " + p.length, type: "college", count: 3, facet: parse(p), hasData: true }),
        );
        w.kiwiDataLayer.push(
          Object.assign(parse(p), {
            event: "link-click",
            linkType: "external",
            linkName: parse(p),
            linkUrl: "https://news.example/story",
            eventCode: "event50",
            hasData: true,
          }),
        );
        w.kiwiDataLayer.push({ event: "page-view", pageCode: "detail", extra: parse(p) });
      }
    });
    // Events reach the edge (so the merges ran on these pushes), and nothing changed a prototype.
    await expect
      .poll(() => h.web.find((r) => r.host === "edge.kiwi.example" && /\/v1\/interact$/.test(r.path)).length, { timeout: 8000 })
      .toBeGreaterThan(eventsBefore + 4);
    await settle(300);
    expect(await tab.page.evaluate(prototypeState)).toEqual(before);
    expect(await tab.page.evaluate(() => Object.getPrototypeOf((window as any).kiwiDataLayer) === Array.prototype)).toBe(true);
    expect(tab.pageErrors).toEqual([]);
  });

  it("the Edge client's xdm and datastream-override merges (the runtime's guarded merge, compiled into the page, with the client's own calls)", async () => {
    const tab = await h.browser.openPage(h.web.page(URL_, { before: [mergeScript] }));
    const result = await tab.page.evaluate((payloads) => {
      const { mergeInto } = (window as any).__merge;
      const before = Object.getOwnPropertyNames(Object.prototype).sort().join();
      for (const p of payloads) {
        // create-analytics.ts: mergeInto(mergeInto(contextXdm(...), ours), user) and mergeInto({com_adobe_analytics: …}, configOverrides)
        const xdm = mergeInto(
          mergeInto(
            { web: { webPageDetails: { URL: location.href } }, device: {} },
            { eventType: "web.webpagedetails.pageViews", web: { webPageDetails: { name: "x" } } },
          ),
          JSON.parse(p),
        );
        mergeInto({ com_adobe_analytics: { reportSuites: ["rs"] } }, JSON.parse(p));
        mergeInto(xdm, { web: JSON.parse(p) });
      }
      return { polluted: ({} as any).polluted, same: Object.getOwnPropertyNames(Object.prototype).sort().join() === before };
    }, PAYLOADS);
    expect(result).toEqual({ polluted: undefined, same: true });
    expect(tab.pageErrors).toEqual([]);
  });
});

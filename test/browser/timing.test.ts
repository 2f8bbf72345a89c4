/**
 * Timing values in YAML drive the runtime's waits (issue #19): one lab site
 * (a test-made catalogue) whose qa and uat environments set different
 * values, the same page in each, and the order and count of the records at
 * the mock edge show the difference (no wall-clock assertion: a timer rule
 * at 2000 ms is the yardstick).
 *
 * - timing.pageLoad: window-loaded rules run at the load event, or pageLoad
 *   after the rules start when the load has not come (a hanging image).
 * - timing.elementWait: an element-exists rule polls for its element this
 *   long, then gives up.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { buildBundles, CONSENT, tempCatalogue, useBrowserHarness, type Bundle, type RecordedRequest } from "./harness/index.js";

const h = useBrowserHarness();

const LAB = `# yaml-language-server: $schema=./site.schema.json
code: timinglab
name: Timing lab
appId: "903"
spa: false
hosts:
  qa: [timinglab-qa.kiwi.example]
  uat: [timinglab-uat.kiwi.example]
envs:
  qa: { timing: { pageLoad: 500, elementWait: 500 } }
  uat: { timing: { pageLoad: 5000, elementWait: 5000 } }
rules:
  - { id: loaded, name: Window loaded, events: [{ type: windowLoaded }], actions: [{ type: sendEvent, name: loaded, eventType: lab.loaded }] }
  - { id: mark, name: Yardstick, events: [{ type: timer, delay: 2000 }], actions: [{ type: sendEvent, name: mark, eventType: lab.mark }] }
  - { id: appears, name: Element appears, events: [{ type: elementExists, selector: "#late" }], actions: [{ type: sendEvent, name: appeared, eventType: lab.appeared }] }
`;

/** An image that holds the page's load event for 8 s; an element that appears 1.5 s after the page starts. */
const BODY = `<img src="https://slow.thirdparty.example/hold.gif" alt="">
<script>setTimeout(function () { var d = document.createElement("div"); d.id = "late"; document.body.appendChild(d); }, 1500);</script>`;

let qa: Bundle;
let uat: Bundle;
beforeAll(async () => {
  ({ qa, uat } = await buildBundles({ qa: ["timinglab", "qa"], uat: ["timinglab", "uat"] }, { sitesDir: tempCatalogue({ "timinglab.yaml": LAB }) }));
}, 240_000);

/** The lab's event types in the order the mock edge received them. */
const labEvents = () =>
  h.web
    .find({ host: "edge.kiwi.example", method: "POST", path: /\/v1\/(interact|collect)$/ })
    .map((r: RecordedRequest) => (r.json as { events: Array<{ xdm: { eventType: string } }> }).events[0].xdm.eventType)
    .filter((t) => t.startsWith("lab."));

async function open(bundle: Bundle, host: string) {
  h.web.script("https://slow.thirdparty.example/hold.gif", { delayMs: 8000, contentType: "image/gif", body: "" });
  return h.browser.openPage(h.web.page(`https://${host}/`, { bundle, body: BODY }), { consentGroups: CONSENT.performance });
}

describe('timing values from YAML (spec section 9 "Timeouts")', () => {
  it('"page load 500-5000" and "element wait 5000 ms": pageLoad 500 and elementWait 500 (qa): the window-loaded rules run before the 2 s yardstick, though the page has not loaded; the element that comes at 1.5 s is given up on', async () => {
    await open(qa, "timinglab-qa.kiwi.example");
    await expect.poll(labEvents, { timeout: 9000 }).toContain("lab.mark");
    expect(labEvents()).toEqual(["lab.loaded", "lab.mark"]);
  });

  it("pageLoad 5000 and elementWait 5000 (uat), the same page: the yardstick first, the element seen, the window-loaded rules at pageLoad (still before the load event at 8 s), once", async () => {
    const tab = await open(uat, "timinglab-uat.kiwi.example");
    await expect.poll(labEvents, { timeout: 12000 }).toContain("lab.loaded");
    expect(labEvents()).toEqual(["lab.appeared", "lab.mark", "lab.loaded"]);
    // The load event itself (the image at 8 s) runs them no second time.
    await tab.page.waitForFunction(() => document.readyState === "complete", undefined, { timeout: 15000 });
    await tab.page.evaluate(() => new Promise((done) => setTimeout(done, 300)));
    expect(labEvents()).toEqual(["lab.appeared", "lab.mark", "lab.loaded"]);
  });
});

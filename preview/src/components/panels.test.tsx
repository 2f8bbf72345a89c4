/**
 * The inspector's panels render what the lib computes (server-side render;
 * no DOM needed): the data-testid hooks the browser test reads, the
 * decoded beacon, the gate's reasons, and unknown event types as JSON.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { groupBeacons } from "../lib/beacons";
import { normalizeConfig } from "../lib/bundle-config";
import type { Entry } from "../lib/protocol";
import { groupRuleFirings } from "../lib/rules";
import { computeTags } from "../lib/tags";
import { BeaconsPanel } from "./panels/Beacons";
import { EventsPanel } from "./panels/Events";
import { RulesPanel } from "./panels/Rules";
import { TagsPanel } from "./panels/Tags";

const body = JSON.stringify({
  events: [
    {
      xdm: {
        eventType: "web.webpagedetails.pageViews",
        web: { webPageDetails: { name: "satreg:register:paymentconfirmation", URL: "https://satreg.kiwi.example/register/paymentConfirmation" } },
      },
      data: { __adobe: { analytics: { events: "purchase", eVar30: "SAT-1" } } },
    },
  ],
  meta: { configOverrides: { com_adobe_analytics: { reportSuites: ["kiwiglobalprod"] } } },
});
const url = "https://edge.kiwi.example/ee/v1/interact?configId=ds&requestId=r1";
const entries: Entry[] = [
  { kind: "monitor", page: 1, at: 1100, event: { type: "rule", t: 100, rule: "payment-confirmation", event: "libraryLoaded", state: "triggered" } },
  { kind: "monitor", page: 1, at: 1100, event: { type: "rule", t: 100, rule: "payment-confirmation", event: "libraryLoaded", state: "fired" } },
  {
    kind: "monitor",
    page: 1,
    at: 1101,
    event: { type: "tag", t: 101, tag: "payment-confirmation", state: "waiting", reason: "consent-category", category: "marketing" },
  },
  { kind: "monitor", page: 1, at: 1200, event: { type: "beacon", t: 200, url, requestId: "r1", eventType: "web.webpagedetails.pageViews", body } },
  {
    kind: "network",
    page: 1,
    at: 1210,
    request: {
      seq: 1,
      time: 1210,
      kind: "edge",
      host: "edge.kiwi.example",
      method: "POST",
      url,
      path: "/ee/v1/interact",
      query: { requestId: "r1" },
      status: 503,
      durationMs: 2,
      body,
    },
  },
  {
    kind: "network",
    page: 1,
    at: 2300,
    request: {
      seq: 2,
      time: 2300,
      kind: "edge",
      host: "edge.kiwi.example",
      method: "POST",
      url,
      path: "/ee/v1/interact",
      query: { requestId: "r1" },
      status: 200,
      durationMs: 2,
      body,
    },
  },
  { kind: "monitor", page: 1, at: 2400, event: { type: "brandNewEvent", t: 400, answer: 42 } },
];
const config = normalizeConfig({
  site: { code: "satreg" },
  env: "prod",
  rules: [
    {
      id: "payment-confirmation",
      events: [],
      conditions: [{ type: "path", equals: "/register/paymentConfirmation" }],
      actions: [{ type: "pixel", src: "https://pixel.adpartner.example/conv", consent: "marketing" }],
    },
  ],
});

describe("inspector panels", () => {
  it("beacons: one card per event, decoded, with attempts and the retry", () => {
    const html = renderToStaticMarkup(<BeaconsPanel groups={groupBeacons(entries)} start={1000} now={5000} />);
    expect(html).toContain('data-event-type="web.webpagedetails.pageViews"');
    expect(html).toContain('data-page-name="satreg:register:paymentconfirmation"');
    expect(html).toContain('data-status="ok"');
    expect(html).toContain("1 retry");
    expect(html).toContain("<th>eVar30</th><td>SAT-1</td>");
    expect(html).toContain("kiwiglobalprod");
    expect(html).toContain("page view × 1");
  });

  it("rules: conditions with results, actions with outcomes and what they wait for", () => {
    const html = renderToStaticMarkup(
      <RulesPanel
        firings={groupRuleFirings(entries, config.rules)}
        start={1000}
        consentNote={(c) => (c === "marketing" ? "waiting for marketing consent" : undefined)}
      />,
    );
    expect(html).toContain('data-rule="payment-confirmation" data-state="fired"');
    expect(html).toContain("passed</span> path equals &quot;/register/paymentConfirmation&quot;");
    expect(html).toContain('data-outcome="pending"');
    expect(html).toContain("waiting for marketing consent");
  });

  it("tags: the gate's decision with its reason", () => {
    const html = renderToStaticMarkup(<TagsPanel tags={computeTags(entries, groupRuleFirings(entries, config.rules), config)} start={1000} />);
    expect(html).toContain('data-tag="payment-confirmation" data-state="waiting"');
    expect(html).toContain('data-reason="consent-category"');
    expect(html).toContain("waiting for consent: marketing not granted");
  });

  it("events: every type, an unknown one as JSON", () => {
    const html = renderToStaticMarkup(<EventsPanel entries={entries} start={1000} />);
    expect(html).toContain('data-type="brandNewEvent"');
    expect(html).toContain("brandNewEvent (1) — new type");
    expect(html).toContain('<span class="json-key">answer: </span><span class="json-number">42</span>');
  });
});

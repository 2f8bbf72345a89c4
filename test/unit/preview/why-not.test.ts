import { describe, expect, it } from "vitest";
import { normalizeConfig } from "../../../preview/src/lib/bundle-config";
import type { Entry } from "../../../preview/src/lib/protocol";
import { groupRuleFirings } from "../../../preview/src/lib/rules";
import { ruleVerdicts } from "../../../preview/src/lib/why-not";

const config = normalizeConfig({
  site: { code: "bigfuture" },
  env: "qa",
  dataElements: { modalName: { push: "modalName" } },
  rules: [
    { id: "page-view", events: [{ type: "libraryLoaded" }], conditions: [], actions: [{ type: "sendPageView" }] },
    { id: "modal", events: [{ type: "dataLayerPush", event: "modal" }], conditions: [{ type: "dataElement", name: "modalName", exists: true }], actions: [] },
    { id: "form-submit", events: [{ type: "dataLayerPush", event: "form-submit" }], conditions: [], actions: [] },
  ],
});
const other = normalizeConfig({
  site: { code: "bigfuture" },
  env: "prod",
  rules: [{ id: "payment", events: [{ type: "libraryLoaded" }], conditions: [], actions: [] }],
});

const m = (at: number, event: Record<string, unknown>): Entry => ({ kind: "monitor", page: 1, at, event: { t: at, type: String(event.type), ...event } });

describe("every rule's why-not", () => {
  it("each rule of the bundle is fired, stopped at a condition (which, with its value), not listening, or off in this environment", () => {
    const entries: Entry[] = [
      { kind: "page", page: 1, at: 0, href: "https://bigfuture-qa.kiwi.example/", title: "", timeOrigin: 0, csp: "" },
      m(1, { type: "rule", rule: "page-view", event: "libraryLoaded", state: "triggered" }),
      m(2, { type: "rule", rule: "page-view", event: "libraryLoaded", state: "fired" }),
      m(3, { type: "dataLayer", event: "modal", push: { event: "modal", modalState: "shown" } }),
      m(4, { type: "rule", rule: "modal", event: "modal", state: "triggered" }),
      m(5, { type: "rule", rule: "modal", event: "modal", state: "skipped", condition: 0 }),
    ];
    const verdicts = ruleVerdicts(config, groupRuleFirings(entries, config.rules), entries, [...other.rules, ...config.rules]);
    expect(verdicts.map((v) => [v.rule, v.state])).toEqual([
      ["page-view", "fired"],
      ["modal", "condition failed"],
      ["form-submit", "not listening"],
      ["payment", "off in this environment"],
    ]);
    expect(verdicts[1].condition).toEqual({ index: 0, summary: "dataElement modalName exists", value: "modalName = (none)" });
    expect(verdicts[2].detail).toContain('data-layer push "form-submit"');
    expect(verdicts[2].detail).toContain("pushed: modal");
  });
});

import { describe, expect, it } from "vitest";
import type { BundleConfig } from "../../../generator/config/bundle-config.js";
import { ACTION_TYPES, EVENT_TYPES } from "../../../generator/config/schemas/rules.js";
import { edgeFeaturesOf, featureImports, featureKeyOf, featureSetOf, SOURCED_EVENTS } from "../../../generator/bundle/features.js";
import * as edgeFeatures from "../../../runtime-modules/edge/features";
import * as actions from "../../../runtime-modules/rules/actions";
import * as conditions from "../../../runtime-modules/rules/conditions";
import * as events from "../../../runtime-modules/rules/events";
import { allRuleFeatures } from "../../../runtime-modules/rules/features";
import { lists } from "../../../runtime-modules/rules/data-elements";

const rules = (list: unknown[]) => ({ rules: list }) as unknown as Pick<BundleConfig, "rules">;

describe("per-feature-set cores (features.ts)", () => {
  it("each feature is exported under its type's name, as the generated entry imports it", () => {
    for (const [name, fn] of Object.entries(allRuleFeatures().conditions)) expect((conditions as Record<string, unknown>)[name], name).toBe(fn);
    for (const [name, fn] of Object.entries(allRuleFeatures().actions)) expect((actions as Record<string, unknown>)[name], name).toBe(fn);
    for (const [name, fn] of Object.entries(allRuleFeatures().events)) expect((events as Record<string, unknown>)[name], name).toBe(fn);
    expect(Object.keys(allRuleFeatures().actions).sort()).toEqual([...ACTION_TYPES].sort());
    // The sourced events, in the order boot connects them; the others are the core's own.
    expect(Object.keys(allRuleFeatures().events)).toEqual(SOURCED_EVENTS);
    expect(SOURCED_EVENTS.every((e) => (EVENT_TYPES as readonly string[]).includes(e))).toBe(true);
  });

  it("a bundle's feature set is what its rules use, through not, allOf and anyOf", () => {
    const set = featureSetOf(
      rules([
        {
          events: [
            { type: "timer", delay: 5 },
            { type: "dataLayerPush", event: "x" },
            { type: "click", selector: "a" },
          ],
          conditions: [
            {
              type: "not",
              condition: {
                type: "anyOf",
                conditions: [
                  { type: "path", equals: "/" },
                  { type: "allOf", conditions: [{ type: "env", in: ["qa"] }] },
                ],
              },
            },
          ],
          actions: [{ type: "sendEvent" }, { type: "pixel" }],
        },
        { events: [{ type: "libraryLoaded" }], conditions: [], actions: [{ type: "sendPageView" }] },
      ]),
    );
    expect(set).toEqual({
      conditions: ["allOf", "anyOf", "env", "not", "path"],
      actions: ["pixel", "sendEvent", "sendPageView"],
      events: ["click", "timer"],
      edge: [],
    });
    expect(featureKeyOf(set)).toBe(
      featureKeyOf(
        featureSetOf(
          rules([
            {
              events: [{ type: "click" }, { type: "timer" }],
              conditions: [{ type: "not", condition: { type: "anyOf", conditions: [{ type: "path" }, { type: "allOf", conditions: [{ type: "env" }] }] } }],
              actions: [{ type: "sendPageView" }, { type: "pixel" }, { type: "sendEvent" }],
            },
          ]),
        ),
      ),
    );
    expect(featureKeyOf(featureSetOf(rules([])))).not.toBe(featureKeyOf(set));
  });

  it("the list options (unique, sort, reduce) are a feature of the bundles whose data elements use them; other sets keep their keys", () => {
    const plain = featureSetOf({ ...rules([]), dataElements: { a: { push: "a", join: "|" } } } as unknown as Pick<BundleConfig, "rules">);
    expect(plain.elements).toBeUndefined();
    expect(featureKeyOf(plain)).toBe(featureKeyOf(featureSetOf(rules([]))));
    for (const option of [{ unique: true }, { sort: true }, { reduce: "count" }]) {
      const set = featureSetOf({ ...rules([]), dataElements: { a: { push: "a", join: "|", ...option } } } as unknown as Pick<BundleConfig, "rules">);
      expect(set.elements).toEqual(["lists"]);
      expect(featureKeyOf(set)).not.toBe(featureKeyOf(plain));
    }
    const { imports, table } = featureImports({ conditions: [], actions: [], events: [], edge: [], elements: ["lists"] }, "/rt", ".js");
    expect(imports).toEqual(['import { lists as e_lists } from "/rt/rules/data-elements.js";']);
    expect(table).toContain("elements: { lists: e_lists }");
    expect(allRuleFeatures().elements.lists).toBe(lists);
  });

  it("the entry imports only the set's functions and hands boot their table", () => {
    const { imports, table } = featureImports({ conditions: ["dataElement"], actions: ["sendEvent", "sendPageView"], events: [], edge: [] }, "/rt", ".js");
    expect(imports).toEqual([
      'import { dataElement as c_dataElement } from "/rt/rules/conditions.js";',
      'import { sendEvent as a_sendEvent, sendPageView as a_sendPageView } from "/rt/rules/actions.js";',
    ]);
    expect(table).toBe("{ conditions: { dataElement: c_dataElement }, actions: { sendEvent: a_sendEvent, sendPageView: a_sendPageView }, events: {  } }");
  });

  it("the Edge client's config-driven paths are features of the config: thirdPartyCookies (spec section 9: our sites false), datastreamOverride and configOverrides only where the config turns them on", () => {
    expect(edgeFeaturesOf(undefined)).toEqual([]);
    expect(edgeFeaturesOf({ thirdPartyCookies: false })).toEqual([]);
    expect(edgeFeaturesOf({ thirdPartyCookies: true })).toEqual(["thirdPartyCookies"]);
    expect(edgeFeaturesOf({ datastreamOverride: "ds-qa", configOverrides: {} })).toEqual(["datastreamOverride"]);
    expect(edgeFeaturesOf({ thirdPartyCookies: true, datastreamOverride: "ds-qa", configOverrides: { a: 1 } })).toEqual([
      "thirdPartyCookies",
      "datastreamOverride",
      "configOverrides",
    ]);
    for (const [name, fn] of Object.entries(allRuleFeatures().edge)) expect((edgeFeatures as Record<string, unknown>)[name], name).toBe(fn);
    const on = featureSetOf({ rules: [], analytics: { thirdPartyCookies: true } });
    expect(on.edge).toEqual(["thirdPartyCookies"]);
    expect(featureKeyOf(on)).not.toBe(featureKeyOf(featureSetOf({ rules: [], analytics: { thirdPartyCookies: false } })));
    const { imports, table } = featureImports(on, "/rt", ".js");
    expect(imports).toEqual(['import { thirdPartyCookies as e_thirdPartyCookies } from "/rt/edge/features.js";']);
    expect(table).toContain("edge: { thirdPartyCookies: e_thirdPartyCookies }");
  });
});

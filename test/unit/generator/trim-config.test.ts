import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BundleConfig, EnvName } from "../../../generator/config/bundle-config.js";
import { loadCatalogue } from "../../../generator/config/load.js";
import { MODULE_NAMES } from "../../../generator/bundle/build.js";
import { entriesOverlap, trimConfig, trimTiming } from "../../../generator/bundle/trim-config.js";
import { isAuthorizedHost } from "../../../runtime-modules/core/authorize.js";
import { detectEnvironment } from "../../../runtime-modules/core/environment.js";
import { hostMatches } from "../../../runtime-modules/core/host-match.js";
import { SITES } from "../../helpers/fs.js";

const ENVS: EnvName[] = ["dev", "qa", "uat", "perf", "prod"];
const label = fc.constantFrom("a", "b", "kiwi", "x-qa", "www");
const host = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join("."));
const entry = fc.oneof(
  host,
  host.map((h) => `*.${h}`),
);
const hostTable = fc.dictionary(fc.constantFrom(...ENVS), fc.array(entry, { minLength: 1, maxLength: 3 }), { minKeys: 1 }) as fc.Arbitrary<
  Partial<Record<EnvName, string[]>>
>;

function configOf(env: EnvName, hosts: Partial<Record<EnvName, string[]>>): BundleConfig {
  return {
    env,
    hosts,
    envFallback: [{ pattern: "^(localhost|127\\.0\\.0\\.1)$", env: "dev" }],
    defaultEnv: "prod",
    rules: [],
    timing: {},
    modules: {},
  } as unknown as BundleConfig;
}

describe("the config a bundle inlines (trim-config.ts)", () => {
  it("two host entries overlap exactly when some host name matches both", () => {
    fc.assert(
      fc.property(entry, entry, fc.array(label, { maxLength: 2 }), (a, b, extra) => {
        // A host that matches both is one of them or a subdomain of the longer one.
        const candidates = [a, b].flatMap((e) => [e.replace(/^\*\./, ""), [...extra, "z", e.replace(/^\*\./, "")].join(".")]);
        if (candidates.some((h) => hostMatches(h, a) && hostMatches(h, b))) expect(entriesOverlap(a, b)).toBe(true);
        if (!entriesOverlap(a, b)) expect(candidates.some((h) => hostMatches(h, a) && hostMatches(h, b))).toBe(false);
      }),
    );
  });

  it('"Trim the config inlined in production bundles": on every host the bundle authorizes, boot detects the same environment from the trimmed hosts and fallback', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ENVS), hostTable, host, fc.array(label, { maxLength: 2 }), (env, hosts, h, sub) => {
        const full = configOf(env, hosts);
        const trimmed = trimConfig(full);
        // Hosts to try: the generated one, each entry's own name and a subdomain of it, localhost.
        const names = [
          h,
          "localhost",
          ...Object.values(hosts).flatMap((es) => es!.flatMap((e) => [e.replace(/^\*\./, ""), [...sub, e.replace(/^\*\./, "")].join(".")])),
        ];
        for (const name of names) {
          if (!isAuthorizedHost(name, env, full.hosts)) continue;
          expect(isAuthorizedHost(name, env, trimmed.hosts)).toBe(true);
          expect(detectEnvironment(name, trimmed.hosts, trimmed.envFallback, trimmed.defaultEnv)).toBe(
            detectEnvironment(name, full.hosts, full.envFallback, full.defaultEnv),
          );
        }
      }),
      { numRuns: 500 },
    );
  });

  it("on the shipped catalogue: production bundles carry no rule names, other environments' hosts only where they overlap, no fallback outside dev", async () => {
    const catalogue = await loadCatalogue({ sitesDir: SITES, moduleNames: MODULE_NAMES });
    let dropped = 0;
    for (const bundle of catalogue.bundles) {
      const trimmed = trimConfig(bundle.config);
      expect(trimmed.hosts[bundle.env]).toEqual(bundle.config.hosts[bundle.env]);
      expect(trimmed.envFallback).toEqual(bundle.env === "dev" ? bundle.config.envFallback : []);
      expect(trimmed.envGlobal).toBe(bundle.env === "dev" ? "kiwiEnvironment" : undefined);
      expect(trimmed.rules.map((r) => r.id)).toEqual(bundle.config.rules.map((r) => r.id));
      expect(trimmed.rules.some((r) => "name" in r)).toBe(bundle.env !== "prod" && bundle.config.rules.length > 0);
      for (const env of Object.keys(bundle.config.hosts) as EnvName[])
        if (env !== bundle.env) dropped += bundle.config.hosts[env]!.length - (trimmed.hosts[env] || []).length;
      // The resolved config is left as it was.
      expect(JSON.stringify(bundle.config)).not.toBe(JSON.stringify(trimmed));
    }
    expect(dropped).toBeGreaterThan(0);
  });

  it("issue #19: the timing values a bundle can read stay, the others are left out (the noPush waits its rules name, the chat link's and the popup's retries); on the shipped catalogue", async () => {
    const catalogue = await loadCatalogue({ sitesDir: SITES, moduleNames: MODULE_NAMES });
    const always = ["pageLoad", "routeChange", "spaPage", "elementWait", "elementPoll", "ruleTimeout", "startupWait"];
    const seen = new Set<string>();
    for (const bundle of catalogue.bundles) {
      const timing = trimTiming(bundle.config);
      const waits = bundle.config.rules.flatMap((r) => r.events.flatMap((e) => (e.type === "noPush" ? [e.wait] : [])));
      const chat = !!bundle.config.modules.chat;
      const chatFlow = !!bundle.config.modules.chatFlow;
      const kept = Object.keys(timing).sort();
      expect(kept).toEqual(
        [
          ...always,
          ...new Set(waits),
          ...(chat ? ["widgetLink"] : []),
          ...(chatFlow ? ["retryAttempts"] : []),
          ...(chat || chatFlow ? ["retryInterval"] : []),
        ].sort(),
      );
      for (const key of kept) expect(timing[key as keyof typeof timing]).toBe(bundle.config.timing[key as keyof typeof timing]);
      kept.forEach((k) => seen.add(k));
    }
    // The catalogue has a bundle that reads each: k12reports the loading wait, the chat sites the chat link's.
    for (const key of ["loading", "widgetLink", "retryInterval"]) expect(seen.has(key), key).toBe(true);
  });
});

/**
 * Property (issue 20, "the consent matrix"): over random tag declarations
 * (category, lifecycle, kind, excluded app ids), sites (internal or not,
 * application ids on and off the spec's exclusion lists), cb-disable-{code}
 * in the query, the global privacy signal, and random sequences of consent
 * changes (grants, late grants, withdrawals) interleaved with the page's
 * milestones (DOM ready, window loaded), the runtime's declared-tag loader
 * (core/tag-loader.ts through the real consent service) holds:
 *  - "a tag runs only if consent for its category is given": each tag is
 *    inserted only at a step when its category is granted and its lifecycle
 *    point has passed;
 *  - "each ... once per page": never inserted twice;
 *  - cb-disable-{code}, the exclusion lists (the category's and the tag's
 *    own), and GPC for marketing stop it for good;
 *  - a late grant loads it: it is inserted exactly when some step had both
 *    its consent and its lifecycle point (and nothing blocks it).
 *  - the vendor families (task tagsB): a tag of the advertising-tracker
 *    family (function or array call) or of the push-notification family
 *    gets its vendor queue and init call exactly when it is inserted, never
 *    before, never without it; data-layer events pushed before it is ready
 *    are forwarded then (at most 50), later ones only while its consent is
 *    granted; a push tag's page views follow the same rule, except that a
 *    page view pushed before the tag loaded waits only until its category,
 *    once granted, is withdrawn (then it is dropped, and none waits while
 *    the category stays withdrawn).
 *  - every family (task tagsC): rum (the sampled-out visitor skipped),
 *    beacon (its host pattern), the chat-flow popup (its route pattern) and
 *    guided help load by the same rules, and each family's vendor behaviour
 *    (its prepare hook; the beacon's embed settings) runs exactly when its
 *    tag loads; personalisation, the Edge client's performance tag, is
 *    allowed by the gate exactly when performance is granted (or the site is
 *    internal) and cb-disable-personalization is absent.
 * The rules are written again here, independently of the runtime code.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ConsentCategory, ResolvedTag } from "../../../../generator/config/bundle-config.js";
import { loadTag } from "../../../../runtime-modules/core/tag-loader";
import type { TagFamilies } from "../../../../runtime-modules/core/types";
import { createAdTracker } from "../../../../runtime-modules/modules/ad-tracker/create-ad-tracker";
import { createPushNotifications } from "../../../../runtime-modules/modules/push-notifications/create-push-notifications";
import { createRum } from "../../../../runtime-modules/modules/rum/create-rum";
import { createBeacon } from "../../../../runtime-modules/modules/beacon/create-beacon";
import { createChatFlow } from "../../../../runtime-modules/modules/chat-flow/create-chat-flow";
import { createGuidedHelp } from "../../../../runtime-modules/modules/guided-help/create-guided-help";
import { BeaconSettingsSchema, ChatFlowSettingsSchema, GuidedHelpSettingsSchema } from "../../../../generator/config/schemas/tags.js";
import { bundleConfig, consentFor } from "../helpers/config";
import { fakePage } from "../helpers/fake-page";

const CATEGORIES: ConsentCategory[] = ["performance", "functional", "marketing", "programFunctional", "programMarketing"];
const GROUP: Record<ConsentCategory, string> = {
  performance: "C0002",
  functional: "C0003",
  marketing: "C0004",
  programFunctional: "C0005",
  programMarketing: "C0006",
};
const LIFECYCLES = ["pageTop", "domReady", "windowLoaded"] as const;
/** Section 9: "Exclusion app ids: functional 229; marketing 8, 229, 282, 292, 366, 395, 412." */
const EXCLUDED: Partial<Record<ConsentCategory, string[]>> = { functional: ["229"], marketing: ["8", "229", "282", "292", "366", "395", "412"] };
const APP_IDS = ["8", "23", "229", "292", "777"];

type Step =
  | { type: "consent"; groups: ConsentCategory[]; via: "wrapper" | "event" }
  | { type: "domReady" }
  | { type: "load" }
  | { type: "push"; event: "purchase" | "page-view" | "other" };
const FAMILIES = ["none", "trackerFunction", "trackerArray", "push", "rum", "beacon", "chatFlow", "guidedHelp"] as const;

const tagArb = (i: number) =>
  fc.record({
    code: fc.constant(`tag-${i}`),
    category: fc.constantFrom(...CATEGORIES),
    lifecycleShift: fc.constantFrom(0, 1, 2),
    kind: fc.constantFrom("script" as const, "pixel" as const, "iframe" as const),
    excludeAppIds: fc.subarray(APP_IDS, { maxLength: 2 }),
    family: fc.constantFrom(...FAMILIES),
    /** beacon: whether its hostNameRegex matches the host; chatFlow: whether its route pattern matches the path (or is false). */
    matches: fc.boolean(),
  });

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant("consent" as const),
      groups: fc.subarray(CATEGORIES),
      via: fc.constantFrom("wrapper" as const, "event" as const),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ type: "domReady" as const }) },
  { weight: 1, arbitrary: fc.constant({ type: "load" as const }) },
  {
    weight: 2,
    arbitrary: fc.record({ type: fc.constant("push" as const), event: fc.constantFrom("purchase" as const, "page-view" as const, "other" as const) }),
  },
);

const scenarioArb = fc.record({
  tags: fc.integer({ min: 1, max: 5 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => tagArb(i)))),
  internal: fc.boolean(),
  appId: fc.constantFrom(...APP_IDS),
  gpc: fc.boolean(),
  disabled: fc.subarray(["tag-0", "tag-1", "tag-2", "personalization"], { maxLength: 2 }),
  /** The visitor's sampling decision at the host's rate (the rum family's sampled tags). */
  sampledIn: fc.boolean(),
  steps: fc.array(stepArb, { maxLength: 10 }),
});

/** Section 9: performance at page top; functional, program and marketing at DOM ready; a declared lifecycle never earlier. */
function lifecycleOf(category: ConsentCategory, shift: number): (typeof LIFECYCLES)[number] {
  const earliest = category === "performance" ? 0 : 1;
  return LIFECYCLES[Math.min(2, earliest + shift)];
}

/** The family settings of a generated tag: its vendor global is `v_{code}` (tag-0 → v_tag_0). */
function familyOf(code: string, family: (typeof FAMILIES)[number], matches: boolean): Partial<ResolvedTag> {
  const global = "v_" + code.replace(/-/g, "_");
  if (family === "none") return {};
  if (family === "rum") return { family: "rum", rum: {}, sampled: true };
  if (family === "beacon")
    return { family: "beacon", beacon: BeaconSettingsSchema.parse({ hostNameRegex: matches ? "kiwi\\.example$" : "^other\\.", global, name: "kiwi" }) };
  if (family === "chatFlow")
    return { family: "chatFlow", chatFlow: ChatFlowSettingsSchema.parse({ flowId: "f-1", routePattern: matches ? false : "^/scores" }) };
  if (family === "guidedHelp") return { family: "guidedHelp", guidedHelp: GuidedHelpSettingsSchema.parse({ api: global }) };
  if (family === "push")
    return { family: "pushNotifications", pushNotifications: { global, appId: "A-1", initCommand: "init", pageViewCommand: "pageView" }, settings: { x: 1 } };
  const call = family === "trackerArray" ? ("array" as const) : ("function" as const);
  return {
    family: "adTracker",
    adTracker: { tracker: global, call, pixelId: "P-1", initCommand: "init", trackCommand: "track", events: { purchase: "PURCHASE" }, pageView: "PAGE_VIEW" },
  };
}

describe("declared tags: consent x lifecycle x blocks x vendor families (property, 1500 runs)", () => {
  it('"a tag runs only if consent for its category is given", at its lifecycle point, once per page; a late grant loads it; cb-disable, exclusions and GPC stop it', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        const query = s.disabled.length ? "?" + s.disabled.map((c) => `cb-disable-${c}`).join("&") : "";
        const page = fakePage({ url: `https://site-qa.kiwi.example/page${query}`, readyState: "loading" });
        const win = page.window;
        // The fake page's elements have no CSSOM; the loader hides its image and frame through element.style.
        const create = page.document.createElement;
        page.document.createElement = (tag: string) => Object.assign(create(tag), { style: {} });
        if (s.gpc) win.navigator.globalPrivacyControl = true;
        const base = bundleConfig();
        const bundle = bundleConfig({
          site: { code: "site", name: "Site", appId: s.appId, spa: false, internal: s.internal },
          exclusions: { ...base.exclusions, appIds: { functional: EXCLUDED.functional!, marketing: EXCLUDED.marketing! } },
        });
        const listeners: Array<(push: Record<string, unknown>, event: string | undefined) => void> = [];
        const dataLayer = { get: () => undefined, push() {}, on: (l: (typeof listeners)[number]) => void listeners.push(l) };
        const log = { debug() {}, info() {}, warn() {}, error() {}, entries: [] } as never;
        const consent = consentFor(bundle, win, log);
        const inserted: string[] = [];
        const loadScript = (src: string) => {
          inserted.push(src);
          return Promise.resolve();
        };
        const tags: ResolvedTag[] = s.tags.map((t) => ({
          code: t.code,
          category: t.category,
          lifecycle: lifecycleOf(t.category, t.lifecycleShift),
          kind: t.kind,
          src: `https://vendor.example/${t.code}`,
          ...(t.excludeAppIds.length ? { excludeAppIds: t.excludeAppIds } : {}),
          ...familyOf(t.code, t.family, t.matches),
        }));
        bundle.modules.tags = { enabled: true, tags };
        const tagFamilies: TagFamilies = {};
        const services = {
          log,
          monitor: { emit() {} },
          consent,
          loadScript,
          win: win as never,
          bundle,
          page: { host: "site-qa.kiwi.example", path: "/page" } as never,
          tagFamilies,
          sampling: { rate: 1, sampledIn: () => s.sampledIn },
        };
        // The families' modules, as boot creates them before module tags, with the same injected registry.
        const familyServices = { ...services, dataLayer, config: { enabled: true } } as never;
        if (tags.some((t) => t.family === "adTracker")) createAdTracker(familyServices);
        if (tags.some((t) => t.family === "pushNotifications")) createPushNotifications(familyServices);
        if (tags.some((t) => t.family === "rum")) createRum(familyServices);
        if (tags.some((t) => t.family === "beacon")) createBeacon(familyServices);
        if (tags.some((t) => t.family === "chatFlow")) createChatFlow(familyServices);
        if (tags.some((t) => t.family === "guidedHelp")) createGuidedHelp(familyServices);
        // Every family's vendor behaviour (its prepare hook) runs exactly when its tag loads: counted per tag.
        const prepared: Record<string, number> = {};
        for (const hook of Object.values(tagFamilies)) {
          const prepare = hook.prepare;
          if (prepare)
            hook.prepare = (tag) => {
              prepared[tag.code] = (prepared[tag.code] ?? 0) + 1;
              return prepare(tag);
            };
        }
        /** What each tag's vendor global received: its queue's entries (function stub: each call's arguments). */
        const vendorCalls = (code: string): unknown[][] => {
          const v = (win as Record<string, unknown>)["v_" + code.replace(/-/g, "_")] as { q?: ArrayLike<unknown>[] } | unknown[][] | undefined;
          if (!v) return [];
          return Array.isArray(v) ? v : ((v as { q?: ArrayLike<unknown>[] }).q ?? []).map((a) => Array.from(a));
        };
        const pushes: Array<Step & { type: "push" }> = [];
        const readyAfter: Record<string, number> = {};
        const expectedCalls: Record<string, unknown[][]> = {};
        const count = (code: string) =>
          inserted.filter((src) => src.endsWith("/" + code)).length +
          page.document.body.children.filter((el) => el.getAttribute("src") === `https://vendor.example/${code}`).length;

        let granted: ConsentCategory[] | null = null;
        let reached = 0;
        const allowedNow = (c: ConsentCategory) => s.internal || (granted !== null && granted.includes(c));
        const blocked = (t: (typeof s.tags)[number]) =>
          s.disabled.includes(t.code) ||
          t.excludeAppIds.includes(s.appId) ||
          (!t.category.startsWith("program") && (EXCLUDED[t.category] ?? []).includes(s.appId)) ||
          (t.category === "marketing" && s.gpc) ||
          // The families' own checks: the sampled-out visitor (rum), the beacon's host pattern, the popup's route pattern.
          (t.family === "rum" && !s.sampledIn) ||
          ((t.family === "beacon" || t.family === "chatFlow") && !t.matches);
        const everDue = new Set<string>();
        const check = () => {
          // Personalisation (the Edge client's performance tag "personalization", docs/edge.md): its proposition fetch goes exactly
          // when the gate allows it, "never without consent", cb-disable-personalization stops it, an internal site allows it.
          const p = consent.decide("personalization", "performance");
          expect(p.allowed, `personalization: ${p.reason}`).toBe(allowedNow("performance") && !s.disabled.includes("personalization"));
          for (const [i, t] of s.tags.entries()) {
            const due = allowedNow(t.category) && reached >= LIFECYCLES.indexOf(tags[i].lifecycle);
            if (due) everDue.add(t.code);
            const n = count(t.code);
            // Never twice; never without consent or before its lifecycle point (inserted only when due at some step).
            expect(n, `${t.code} inserted ${n} times`).toBeLessThanOrEqual(1);
            if (n === 1) expect(everDue.has(t.code), `${t.code} inserted without consent or before ${tags[i].lifecycle}`).toBe(true);
            if (blocked(t)) expect(n, `${t.code} blocked but inserted`).toBe(0);
            // Liveness: due now and not blocked -> inserted by now.
            if (due && !blocked(t)) expect(n, `${t.code} due but not inserted`).toBe(1);
            if (t.family === "none" || t.family === "rum") continue;
            if (tagFamilies[tags[i].family!]!.prepare) expect(prepared[t.code] ?? 0, `${t.code}'s family prepared`).toBe(n);
            if (t.family === "beacon")
              expect((win as Record<string, unknown>)["v_" + t.code.replace(/-/g, "_")] !== undefined, `${t.code}'s embed settings`).toBe(n === 1);
            if (!["trackerFunction", "trackerArray", "push"].includes(t.family)) continue;
            // The vendor's queue and init call exactly when the tag is inserted; the waiting events then (at most 50).
            if (n === 1 && readyAfter[t.code] === undefined) {
              readyAfter[t.code] = pushes.length;
              expectedCalls[t.code] =
                t.family === "push"
                  ? [
                      ["init", { appId: "A-1", x: 1 }],
                      ["pageView", { path: "/page" }],
                      ...Array.from({ length: viewsWaiting[t.code] ?? 0 }, () => ["pageView", { path: "/page" }]),
                    ]
                  : [
                      ["init", "P-1"],
                      ["track", "P-1", "PAGE_VIEW", { path: "/page" }],
                      ...pushes
                        .filter((p) => p.event === "purchase")
                        .slice(0, 50)
                        .map(() => ["track", "P-1", "PURCHASE", { n: 1 }]),
                    ];
            }
            expect(vendorCalls(t.code), `${t.code}'s vendor calls`).toEqual(n === 1 ? expectedCalls[t.code] : []);
          }
        };
        /** Push tags not loaded yet: the page views waiting for them, and whether their category has been granted on this page. */
        const viewsWaiting: Record<string, number> = {};
        const grantedOnce: Record<string, boolean> = {};
        /** A push tag's category granted now, or withdrawn after a grant (then its waiting views are dropped). */
        const pushWithdrawn = (t: (typeof s.tags)[number]) => {
          if (allowedNow(t.category)) grantedOnce[t.code] = true;
          else if (grantedOnce[t.code]) {
            viewsWaiting[t.code] = 0;
            return true;
          }
          return false;
        };
        const push = (step: Step & { type: "push" }) => {
          pushes.push(step);
          for (const t of s.tags) {
            if (readyAfter[t.code] === undefined) {
              if (t.family === "push" && step.event === "page-view" && !pushWithdrawn(t)) viewsWaiting[t.code] = Math.min(50, (viewsWaiting[t.code] ?? 0) + 1);
              continue;
            }
            const tag = tags.find((x) => x.code === t.code)!;
            if (!allowedNow(tag.category)) continue;
            if (t.family === "push" && step.event === "page-view") expectedCalls[t.code].push(["pageView", { path: "/page" }]);
            if (t.family.startsWith("tracker") && step.event === "purchase") expectedCalls[t.code].push(["track", "P-1", "PURCHASE", { n: 1 }]);
          }
          for (const l of listeners) l({ event: step.event, n: 1 }, step.event);
        };
        for (const tag of tags) loadTag(services, tag);
        check();
        for (const step of s.steps) {
          if (step.type === "push") push(step);
          else if (step.type === "domReady") {
            // Each milestone happens once, in page order.
            if (reached < 1) {
              reached = 1;
              page.fireDocument("DOMContentLoaded");
            }
          } else if (step.type === "load") {
            if (reached === 2) continue;
            if (reached < 1) {
              reached = 1;
              page.fireDocument("DOMContentLoaded");
            }
            reached = 2;
            page.document.readyState = "complete";
            page.fireWindow("load");
          } else if (!s.internal) {
            // An internal site has no banner: full consent from the start.
            win.OnetrustActiveGroups = "," + ["C0001", ...step.groups.map((c) => GROUP[c])].join(",") + ",";
            if (step.via === "event") page.fireWindow("consent.onetrust");
            else win.OptanonWrapper();
            granted = step.groups;
            for (const t of s.tags) if (t.family === "push" && readyAfter[t.code] === undefined) pushWithdrawn(t);
          }
          check();
        }
        // Exactly once when it ever was due and nothing blocks it; never otherwise.
        for (const t of s.tags) expect(count(t.code), t.code).toBe(everDue.has(t.code) && !blocked(t) ? 1 : 0);
      }),
      { numRuns: 1500 },
    );
    // 1500 runs take about 15 s on an idle machine; the shared CI runner is slower.
  }, 120_000);
});

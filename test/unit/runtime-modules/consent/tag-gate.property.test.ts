/**
 * Property: over random site configs, consent histories, GPC, URLs with and
 * without user names, cb-disable parameters, stored statuses and tag
 * categories, the gate allows a tag exactly when no forbidding rule applies,
 * and a blocked tag names the first rule that forbids it. The rules are
 * written again here, simply and independently of the runtime code.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ConsentCategory } from "../../../../generator/config/bundle-config.js";
import type { ConsentEvent } from "../../../../runtime-modules/consent/state";
import type { TagStatus } from "../../../../runtime-modules/consent/tag-status";
import { consentReducer, initialConsentState } from "../../../../runtime-modules/consent/state";
import { decideTag } from "../../../../runtime-modules/consent/tag-gate";
import { ids, SPEC_EXCLUSIONS } from "./fixtures";

const APP_IDS = ["8", "16", "110", "229", "282", "292", "366", "395", "412", "999"];
const HOSTS = ["www.kiwi.example", "store.kiwi.example", "pay.secure.kiwi.example", "privacy.kiwi.example", "x.other.example"];
const HOST_ENTRIES = [...HOSTS, "*.secure.kiwi.example", "*.kiwi.example"];
const TAGS = ["pixel", "chat", "survey"];
const GROUPS = ["C0001", "C0002", "C0003", "C0004", "C0005", "C0006", "X0002", "C00021"];
const SYNTHETIC_UA = "Mozilla/5.0 (compatible; Catchpoint)";
const CATEGORY_LABELS: Record<string, ConsentCategory | undefined> = {
  performance: "performance",
  Performance: "performance",
  functional: "functional",
  Functional: "functional",
  marketing: "marketing",
  Marketing: "marketing",
  programFunctional: "programFunctional",
  "Program-Functional": "programFunctional",
  programMarketing: "programMarketing",
  "Program-Marketing": "programMarketing",
  bogus: undefined,
};
const GROUP_OF: Record<ConsentCategory, string> = {
  performance: "C0002",
  functional: "C0003",
  marketing: "C0004",
  programFunctional: "C0005",
  programMarketing: "C0006",
};

const sub = <T>(items: T[]) => fc.subarray(items);
const word = fc.stringMatching(/^[a-z]{1,8}$/);

const consentEvent: fc.Arbitrary<ConsentEvent> = fc.oneof(
  { weight: 5, arbitrary: sub(GROUPS).map((g) => ({ type: "groups-updated" as const, groups: "," + g.join(",") + "," })) },
  { weight: 1, arbitrary: fc.constant({ type: "banner-loaded" as const }) },
  { weight: 1, arbitrary: fc.constant({ type: "banner-closed" as const }) },
  { weight: 1, arbitrary: fc.constantFrom("error", "timeout", "config", "skipped").map((reason) => ({ type: "banner-failed" as const, reason })) },
  { weight: 1, arbitrary: fc.constant({ type: "internal-site" as const }) },
);

const storedStatus: fc.Arbitrary<TagStatus | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constant({ status: "enabled" as const }),
  fc.constantFrom("query-parameter", "synthetics", "legal", "configuration").map((reason) => ({ status: "disabled" as const, reason })),
);

const scenario = fc.record({
  internal: fc.boolean(),
  appId: fc.constantFrom(...APP_IDS),
  host: fc.constantFrom(...HOSTS),
  exclusions: fc.record({
    appIds: fc.record({ functional: sub(APP_IDS), marketing: sub(APP_IDS) }),
    hosts: fc.record({ functional: sub(HOST_ENTRIES), marketing: sub(HOST_ENTRIES) }),
    allowHosts: fc.oneof({ weight: 3, arbitrary: fc.constant([] as string[]) }, { weight: 1, arbitrary: sub(HOST_ENTRIES) }),
  }),
  specExclusions: fc.boolean(),
  events: fc.array(consentEvent, { maxLength: 6 }),
  gpc: fc.boolean(),
  tagCode: fc.constantFrom(...TAGS),
  /** cb-disable-{code} parameters in the query: this tag's, another's, or a near miss. */
  disableCodes: sub([...TAGS, "pixelx", "cha"]),
  disableValue: fc.boolean(),
  safeParams: fc.array(fc.tuple(word, word), { maxLength: 3 }),
  emailInQuery: fc.boolean(),
  idInQuery: fc.boolean(),
  referrerKind: fc.constantFrom("none", "plain", "email", "id"),
  userId: fc.option(
    fc.integer({ min: 100000, max: 999999 }).map((n) => "U" + n),
    { nil: undefined },
  ),
  category: fc.constantFrom(...Object.keys(CATEGORY_LABELS), undefined),
  defaultCategory: fc.constantFrom<ConsentCategory>("performance", "functional", "marketing", "programFunctional", "programMarketing"),
  synthetic: fc.boolean(),
  stored: storedStatus,
  force: fc.boolean(),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function build(s: Scenario) {
  const params = s.safeParams.map(([k, v]) => k + "=" + v);
  for (const code of s.disableCodes) params.push("cb-disable-" + code + (s.disableValue ? "=1" : ""));
  if (s.emailInQuery) params.push("email=jane.doe%40school.org");
  const idInQuery = s.idInQuery && !!s.userId;
  if (idInQuery) params.push("who=" + s.userId!.toLowerCase());
  const referrer =
    s.referrerKind === "plain"
      ? "https://ref.example/page?q=sat"
      : s.referrerKind === "email"
        ? "https://ref.example/?u=jane@school.org"
        : s.referrerKind === "id" && s.userId
          ? "https://ref.example/?u=" + s.userId
          : "";
  const exclusions = s.specExclusions ? { ...SPEC_EXCLUSIONS, allowHosts: s.exclusions.allowHosts } : s.exclusions;
  return {
    query: params.length ? "?" + params.join("&") : "",
    referrer,
    exclusions,
    userNameInUrl: s.emailInQuery || idInQuery || s.referrerKind === "email" || (s.referrerKind === "id" && !!s.userId),
  };
}

/** The forbidding rules, in the documented order, as the gate's reason names. */
function oracle(s: Scenario): string[] {
  const b = build(s);
  const category = CATEGORY_LABELS[s.category as string] ?? s.defaultCategory;
  const hostIn = (entries: string[]) => entries.some((e) => e === s.host || (e.startsWith("*.") && s.host.endsWith(e.slice(1)) && s.host !== e.slice(2)));
  const rules: string[] = [];
  if (s.disableCodes.includes(s.tagCode)) rules.push("cb-disable");
  if (s.synthetic) rules.push("synthetics");
  if (b.exclusions.allowHosts.length && !hostIn(b.exclusions.allowHosts)) rules.push("allow-list");
  if (s.stored?.status === "disabled" && !s.force) rules.push("stored-status");
  // An internal site has full consent; the legal checks below still hold there.
  let fullConsent = s.internal;
  let groups: string[] = [];
  for (const e of s.events) {
    if (e.type === "internal-site") fullConsent = true;
    if (e.type === "groups-updated" && !fullConsent) groups = String(e.groups).split(",").filter(Boolean);
  }
  const consented = fullConsent || (groups.some((g) => g[0] === "C") && groups.includes(GROUP_OF[category]));
  if (!consented) rules.push("consent-category");
  if (category === "programFunctional" || category === "programMarketing") return rules;
  if (category === "functional" || category === "marketing") {
    if (b.exclusions.appIds[category].includes(s.appId)) rules.push("exclusion-app-id");
    if (hostIn(b.exclusions.hosts[category])) rules.push("exclusion-host");
  }
  if (category === "marketing" && s.gpc) rules.push("gpc");
  if (category === "marketing" && b.userNameInUrl) rules.push("user-name-in-url");
  return rules;
}

function decide(s: Scenario) {
  const b = build(s);
  return decideTag({
    tagCode: s.tagCode,
    category: s.category,
    consent: s.events.reduce(consentReducer, initialConsentState(ids)),
    site: { internal: s.internal, appId: s.appId },
    page: { host: s.host, query: b.query, referrer: b.referrer },
    userAgent: s.synthetic ? SYNTHETIC_UA : "Mozilla/5.0 Chrome/126",
    gpc: s.gpc,
    userIds: s.userId ? [s.userId] : [],
    settings: { defaultCategory: s.defaultCategory, exclusions: b.exclusions, syntheticsUserAgent: "(Synthetics|Catchpoint)" },
    stored: s.stored,
    force: s.force,
  });
}

describe("decideTag against an independent oracle", () => {
  it("never allows what a rule forbids (5000 runs)", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        if (oracle(s).length) expect(decide(s).allowed).toBe(false);
      }),
      { numRuns: 5000 },
    );
  });
  it("allows exactly when no rule forbids, and names the first rule that does (2000 runs)", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const rules = oracle(s);
        const d = decide(s);
        expect(d.allowed).toBe(rules.length === 0);
        expect(d.reason).toBe(rules.length ? rules[0] : s.internal ? "internal-site" : "consent-given");
      }),
      { numRuns: 2000 },
    );
  });
  it("marketing never runs off an internal site with GPC, a user name in the URL or without C0004 (1000 runs)", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const d = decide({ ...s, internal: false, category: "Marketing" });
        const b = build(s);
        if (s.gpc || b.userNameInUrl) expect(d.allowed).toBe(false);
        if (d.allowed) {
          const last = [...s.events].reverse().find((e) => e.type === "groups-updated" || e.type === "internal-site");
          expect(s.events.some((e) => e.type === "internal-site") || (last?.type === "groups-updated" && String(last.groups).includes(",C0004,"))).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

/**
 * Issue 18's generic record capabilities (docs/rules.md, "Record
 * capabilities"), as tables: the lookup table and the products string of data
 * elements (runtime-modules/rules/data-elements.ts), the dateAge condition
 * (conditions.ts) and the sessionTimer action (actions.ts).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import { DataElementSchema, RuleActionSchema } from "../../../../generator/config/schemas/rules.js";
import { shapeValue } from "../../../../runtime-modules/rules/data-elements";
import { evaluate, type ConditionContext } from "../../../../runtime-modules/rules/conditions";
import { runAction, type ActionContext } from "../../../../runtime-modules/rules/actions";
import { allRuleFeatures } from "../../../../runtime-modules/rules/features";
import type { RuleCondition } from "../../../../generator/config/bundle-config.js";
import { featureImports, type FeatureSet } from "../../../../generator/bundle/features.js";
import { build } from "esbuild";
import { createConsent } from "../../../../runtime-modules/consent/create-consent";
import { decodeHistory, encodeHistory } from "../../../../runtime-modules/analytics/traffic-source";
import { bundleConfig } from "../helpers/config";
import { fileURLToPath } from "node:url";

afterEach(() => vi.useRealTimers());

/** The section 9 table, as sites/payments.yaml writes it. */
const PREFIXES: Record<string, string> = {
  sa: "answer services",
  as: "ap score sending",
  be: "event app",
  hsl: "search licensing",
  hsp: "plans",
  cp: "clep",
  ev: "online meeting",
  so: "online store",
  sr: "sat registration",
  sx: "cancel",
  sc: "change",
  ss: "score sends",
};
const shape = (options: Record<string, unknown>, value: unknown) => shapeValue(value, DataElementSchema.parse({ push: "v", ...options }));

describe("lookup tables (issue 18: purchase-id prefixes)", () => {
  it.each(Object.entries(PREFIXES))('"Purchase id prefixes: ... %s" stands for %s', (prefix, kind) => {
    expect(shape({ lookup: PREFIXES }, prefix)).toBe(kind);
  });
  it.each([
    ["a value the table does not name has none", "zz", undefined],
    ["no value stays none", undefined, undefined],
    ["an inherited name is no entry", "toString", undefined],
    ["a number is looked up as text", 7, "seven"],
    ["the entry is cleaned and lowercased after the lookup", "x", "mixed case"],
  ])("%s", (_what, value, expected) => {
    expect(shape({ lookup: { ...PREFIXES, "7": "seven", x: "  Mixed   Case " }, clean: true, lowercase: true }, value)).toBe(expected);
  });
});

describe("products strings (issue 18: products with category, quantity and price)", () => {
  const products = { join: ",", fields: ["category", "id", "quantity", "price"], fieldSeparator: ";" };
  it.each([
    ["a store purchase: category;product;quantity;price", [{ id: "qas", category: "answer-services", quantity: 1, price: 18 }], "answer-services;qas;1;18"],
    [
      "a CLEP order: products with price only",
      [
        { id: "clep-biology", price: 93 },
        { id: "clep-spanish", price: 93 },
      ],
      ";clep-biology;;93,;clep-spanish;;93",
    ],
    ["a product with none of the fields is left out", [{ diCode: "1234" }, { id: "a" }], ";a;;"],
    ["no products: an empty text", [], ""],
  ])("%s", (_what, value, expected) => {
    expect(shape(products, value)).toBe(expected);
  });
  it('"diCode for AP score sends": the codes of the products that have one', () => {
    expect(shape({ join: "|", fields: ["diCode"] }, [{ id: "a", diCode: "1234" }, { id: "b" }, { id: "c", diCode: "5678" }])).toBe("1234|5678");
  });
  it("an object with fields is a list of one (NRP award: id, name, year)", () => {
    expect(shape({ join: "|", fields: ["id", "name", "year"] }, { id: "nrp-ahsp", name: "Award", year: 2024 })).toBe("nrp-ahsp:Award:2024");
    expect(shape({ join: "|", fields: ["id", "name", "year"] }, undefined)).toBe(undefined);
    expect(shape({ join: "|" }, { id: "a" })).toBe("");
  });
  it("every product of any list appears once, in order, its fields joined by the separator", () => {
    const product = fc.record({ id: fc.stringMatching(/^[a-z]{1,6}$/), quantity: fc.integer({ min: 1, max: 9 }), price: fc.integer({ min: 0, max: 500 }) });
    fc.assert(
      fc.property(fc.array(product, { maxLength: 8 }), (list) => {
        expect(shape(products, list)).toBe(list.map((p) => `;${p.id};${p.quantity};${p.price}`).join(","));
      }),
    );
  });
});

describe("dateAge (issue 18: the six-month flag)", () => {
  const ctx = (value: unknown): ConditionContext => ({ dataElement: () => value, table: allRuleFeatures().conditions }) as unknown as ConditionContext;
  const sixMonths = { type: "dateAge", name: "lastOrder", atLeastMonths: 6 } as RuleCondition;
  it.each([
    ["2025-01-15: six months old on 2025-07-15", "2025-01-15", true],
    ["2025-01-16: one day short of six months", "2025-01-16", false],
    ["2024-03-01: more than a year old", "2024-03-01", true],
    ["yesterday", "2025-07-14", false],
    ["a time in ms", Date.UTC(2024, 11, 1), true],
    ["not a date", "soon", false],
    ["no value", undefined, false],
    ["a date in the future", "2026-01-01", false],
  ])('"Six-month flag: last order 6+ months old": %s', (_what, value, expected) => {
    vi.useFakeTimers({ now: new Date(2025, 6, 15, 12) });
    expect(evaluate(sixMonths, ctx(value))).toBe(expected);
  });
  it("lessThanMonths bounds from above; both bounds make a band", () => {
    vi.useFakeTimers({ now: new Date(2025, 6, 15, 12) });
    const recent = { type: "dateAge", name: "d", lessThanMonths: 6 } as RuleCondition;
    const band = { type: "dateAge", name: "d", atLeastMonths: 3, lessThanMonths: 6 } as RuleCondition;
    expect([evaluate(recent, ctx("2025-01-16")), evaluate(recent, ctx("2025-01-15"))]).toEqual([true, false]);
    expect([evaluate(band, ctx("2025-04-15")), evaluate(band, ctx("2025-04-16")), evaluate(band, ctx("2025-01-15"))]).toEqual([true, false, false]);
  });
  it.each(["America/Los_Angeles", "Pacific/Kiritimati"])('"Six-month flag": a date-only value is a calendar date where the visitor is (%s)', (tz) => {
    const before = process.env.TZ;
    process.env.TZ = tz;
    try {
      vi.useFakeTimers({ now: new Date(2025, 6, 15, 12) });
      expect([evaluate(sixMonths, ctx("2025-01-15")), evaluate(sixMonths, ctx("2025-01-16"))]).toEqual([true, false]);
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });
  it("atLeastMonths N and lessThanMonths N never both pass (the flag and its negation)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3650 }), fc.integer({ min: 1, max: 24 }), (daysAgo, n) => {
        const value = Date.now() - daysAgo * 86400000;
        const older = evaluate({ type: "dateAge", name: "d", atLeastMonths: n } as RuleCondition, ctx(value));
        const younger = evaluate({ type: "dateAge", name: "d", lessThanMonths: n } as RuleCondition, ctx(value));
        expect(older).toBe(!younger);
      }),
    );
  });
});

describe("sessionTimer (issue 18: career quiz timing)", () => {
  function timer() {
    const store = new Map<string, string>();
    const sessionStorage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    };
    const ctx = { doc: { defaultView: { sessionStorage } }, table: allRuleFeatures().actions } as unknown as ActionContext;
    const run = (what: "start" | "stop" | "reset") => runAction(RuleActionSchema.parse({ type: "sessionTimer", name: "careerQuiz", do: what }), ctx);
    const read = () => Object.fromEntries([...store].map(([k, v]) => [k.replace("sitetags:timer:careerQuiz:", ""), v]));
    return { run, read };
  }
  it('"Career quiz: start records start time; completion records stop time and duration, then resets both"', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const t = timer();
    t.run("start");
    expect(t.read()).toEqual({ start: "1000000" });
    vi.setSystemTime(1_000_000 + 83_400);
    t.run("stop");
    expect(t.read()).toEqual({ start: "1000000", stop: "1083400", seconds: "83" });
    t.run("reset");
    expect(t.read()).toEqual({});
  });
  it('"timeToComplete in seconds (0 if not a number)": a stop without a start gives 0', () => {
    vi.useFakeTimers({ now: 5_000 });
    const t = timer();
    t.run("stop");
    expect(t.read()).toEqual({ stop: "5000", seconds: "0" });
  });
  it("a new start forgets the last stop and duration", () => {
    vi.useFakeTimers({ now: 1_000 });
    const t = timer();
    t.run("start");
    t.run("stop");
    vi.setSystemTime(9_000);
    t.run("start");
    expect(t.read()).toEqual({ start: "9000" });
  });
});

/** Task "rec" (issue 18): the tag-settings and traffic-source pushes' actions (sites/newsroom.yaml, sites/events.yaml). */
function storage() {
  const store = new Map<string, string>();
  return {
    store,
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  };
}
/** A data-elements stub: %name% tokens read from the push. */
const fromPush = (push: Record<string, string | undefined>) => ({
  resolve: (text: string) => text.replace(/%(\w+)%/g, (_m, k: string) => push[k] ?? ""),
});

describe('tagStatus (tag-settings push: "A stored status is reused unless a fresh evaluation is forced")', () => {
  function pageWith(push: Record<string, string | undefined>, search = "") {
    const sessionStorage = storage();
    const doc = { cookie: "", referrer: "" } as { cookie: string; referrer: string; defaultView?: unknown };
    const win = {
      location: { hostname: "newsroom.kiwi.example", search },
      navigator: { userAgent: "test" },
      document: doc,
      sessionStorage,
      addEventListener() {},
      setTimeout: () => 0,
    } as unknown as Window;
    doc.defaultView = win;
    const ctx = { doc, dataElements: fromPush(push), table: allRuleFeatures().actions } as unknown as ActionContext;
    runAction(RuleActionSchema.parse({ type: "tagStatus", tag: "%tagKey%", status: "%status%" }), ctx);
    const consent = createConsent({
      config: bundleConfig(),
      win,
      log: { enabled: false, debug() {}, info() {}, warn() {}, error() {} },
      monitor: { emit() {} },
      loadScript: () => new Promise(() => {}),
    } as never);
    return { stored: sessionStorage.store, decide: () => consent.decide("chat", "functional") };
  }
  it("a pushed disabled status is kept where the tag check reads it, and reused: the tag is blocked (stored-status, reason configuration)", () => {
    const p = pageWith({ tagKey: "chat", status: "disabled" });
    expect(Object.fromEntries(p.stored)).toEqual({ "sitetags:tag:chat": JSON.stringify({ status: "disabled", reason: "configuration" }) });
    expect(p.decide()).toMatchObject({ allowed: false, reason: "stored-status", detail: "configuration" });
  });
  it("?cb-refresh forces a fresh evaluation: the stored status is not reused", () => {
    const p = pageWith({ tagKey: "chat", status: "disabled" }, "?cb-refresh");
    expect(p.decide().reason).not.toBe("stored-status");
  });
  it.each([
    ['"status defaults to enabled": no status keeps enabled', { tagKey: "chat" }, { "sitetags:tag:chat": '{"status":"enabled"}' }],
    ["a status neither enabled nor disabled keeps nothing", { tagKey: "chat", status: "maybe" }, {}],
    ["no tag key keeps nothing", { status: "disabled" }, {}],
  ])("%s", (_what, push, expected) => {
    expect(Object.fromEntries(pageWith(push).stored)).toEqual(expected);
  });
});

describe("trafficTouch (traffic-source push: the pushed touch into the visit's history)", () => {
  /** Cookie writes of the last touch(): name -> [value, max-age seconds]. */
  let writes: Record<string, [string, number | undefined]> = {};
  function touch(push: Record<string, string | undefined>, history?: string, performance = true) {
    const jar: Record<string, string> = history ? { kiwi_ts: history, kiwi_ts_lt: history } : {};
    writes = {};
    const cookies = {
      get: (n: string) => jar[n],
      set: (n: string, v: string, o?: { maxAgeSeconds?: number }) => void ((jar[n] = v), (writes[n] = [v, o?.maxAgeSeconds])),
      remove: (n: string) => void delete jar[n],
    };
    const consent = { whenAllowed: (category: string, run: () => void) => void (category === "performance" && performance && run()) };
    const ctx = { doc: {}, cookies, consent, dataElements: fromPush(push), table: allRuleFeatures().actions } as unknown as ActionContext;
    runAction(RuleActionSchema.parse({ type: "trafficTouch", channel: "%channel%", campaign: "%campaign%", historyDays: 60 }), ctx);
    return jar.kiwi_ts === undefined ? undefined : decodeHistory(jar.kiwi_ts);
  }
  const t = 1_700_000_000_000;
  const direct = encodeHistory({ channels: ["Direct"], campaigns: [], first: "Direct", latest: "Direct", t });
  const email = encodeHistory({ channels: ["Email"], campaigns: ["spring"], first: "Email", latest: "Email", t });
  it('"a visit with a new campaign different from the previous is recorded"', () => {
    vi.useFakeTimers({ now: t + 1000 });
    expect(touch({ channel: "Email", campaign: "spring-sat-2025" }, direct)).toEqual({
      channels: ["Direct", "Email"],
      campaigns: ["spring-sat-2025"],
      first: "Direct",
      latest: "Email",
      t: t + 1000,
    });
  });
  it('"direct visits do not overwrite an earlier non-direct one"; the same campaign again is no new touch', () => {
    vi.useFakeTimers({ now: t + 1000 });
    expect(touch({ channel: "Direct" }, email)).toEqual(decodeHistory(email));
    expect(touch({ channel: "Email", campaign: "spring" }, email)).toEqual(decodeHistory(email));
  });
  it('"history expires after 60 days": a touch after that starts a new history', () => {
    vi.useFakeTimers({ now: t + 61 * 86_400_000 });
    expect(touch({ channel: "SMS" }, email)).toMatchObject({ channels: ["SMS"], campaigns: [], first: "SMS", latest: "SMS" });
  });
  it("no channel records nothing", () => {
    expect(touch({ campaign: "spring" })).toBeUndefined();
  });
  // Task "preview": the pushed touch refreshes the lifetime cookie as a page view's touch does.
  it('"lifetime cookie (only with performance consent, 60 days)", "history expires after 60 days": a recorded touch rewrites it, 60 days from this touch', () => {
    vi.useFakeTimers({ now: t + 10 * 86_400_000 });
    const history = touch({ channel: "Email", campaign: "spring-sat-2025" }, direct);
    expect(writes.kiwi_ts_lt).toEqual([encodeHistory(history!), 60 * 86_400]);
    expect(writes.kiwi_ts_lt[0]).toBe(writes.kiwi_ts[0]);
    // No new touch: neither cookie is written (the lifetime cookie keeps its expiry, from the latest recorded touch).
    touch({ channel: "Email", campaign: "spring" }, email);
    expect(writes).toEqual({});
    // Without performance consent: the session cookie only.
    touch({ channel: "SMS" }, direct, false);
    expect(Object.keys(writes)).toEqual(["kiwi_ts"]);
  });
});

describe("per feature set (a bundle whose rules use neither carries neither)", () => {
  const root = fileURLToPath(new URL("../../../../runtime-modules", import.meta.url));
  /** The rule features of a generated core entry, bundled and minified as the build does. */
  async function core(set: FeatureSet): Promise<string> {
    const { imports, table } = featureImports(set, root, "");
    const contents = `${imports.join("\n")}\nexport const table = ${table};`;
    const out = await build({
      stdin: { contents, loader: "ts", resolveDir: root },
      bundle: true,
      format: "esm",
      minify: true,
      write: false,
      logLevel: "silent",
    });
    return out.outputFiles[0].text;
  }
  it("tagStatus and trafficTouch are in a core only when its rules use them (task rec: 0 B elsewhere)", async () => {
    const plain = await core({ conditions: ["dataElement"], actions: ["sendEvent", "sendPageView"], events: [], edge: [] });
    const both = await core({ conditions: ["dataElement"], actions: ["sendEvent", "sendPageView", "tagStatus", "trafficTouch"], events: [], edge: [] });
    for (const marker of ["sitetags:tag:", "kiwi_ts"]) {
      expect(plain, marker).not.toContain(marker);
      expect(both, marker).toContain(marker);
    }
  });
  it("sessionTimer and dateAge are in a core only when its rules use them", async () => {
    const plain = await core({ conditions: ["dataElement"], actions: ["sendEvent", "sendPageView"], events: [], edge: [] });
    const both = await core({ conditions: ["dataElement", "dateAge"], actions: ["sendEvent", "sendPageView", "sessionTimer"], events: [], edge: [] });
    for (const marker of ["sitetags:timer:", "getFullYear"]) {
      expect(plain, marker).not.toContain(marker);
      expect(both, marker).toContain(marker);
    }
  });
});

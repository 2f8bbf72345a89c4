import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Rule, RuleAction } from "../../../../generator/config/bundle-config.js";
import { DataElementSchema, RuleSchema } from "../../../../generator/config/schemas/rules.js";
import { readPath } from "../../../../runtime-modules/rules/data-layer";
import { createRuleEngine, type EngineDeps } from "../../../../runtime-modules/rules/engine";
import { createDataElements } from "../../../../runtime-modules/rules/data-elements";
import { STEP_TIMEOUT, STEP_WAITS_FOR_CONSENT, RULE_ACTION_FAILED } from "../../../../runtime-modules/core/messages";
import { allRuleFeatures } from "../../../../runtime-modules/rules/features";

const rule = (r: Record<string, unknown>): Rule =>
  RuleSchema.parse({ name: "r", events: [{ type: "libraryLoaded" }], actions: [{ type: "pushDataLayer", data: {} }], ...r });

function setup(
  rules: Rule[],
  extra: {
    command?: (...args: unknown[]) => unknown;
    elements?: Record<string, unknown>;
    state?: Record<string, unknown>;
    whenTagAllowed?: (tag: string, category: unknown, load: () => void) => void;
    loadScript?: () => Promise<void>;
    /** Monitor.on: whether a monitor listens (without it, every rule event is built). */
    monitorOn?: () => boolean;
    now?: () => number;
    /** Action functions in place of the bundle's (a spy). */
    actions?: Partial<ReturnType<typeof allRuleFeatures>["actions"]>;
  } = {},
) {
  const calls: string[] = [];
  const logs: Array<{ level: string; message: string; data?: unknown }> = [];
  const events: Array<Record<string, unknown>> = [];
  const log = {
    enabled: false,
    debug: (message: string, data?: unknown) => logs.push({ level: "debug", message, data }),
    info: (message: string, data?: unknown) => logs.push({ level: "info", message, data }),
    warn: (message: string, data?: unknown) => logs.push({ level: "warn", message, data }),
    error: (message: string, data?: unknown) => logs.push({ level: "error", message, data }),
  };
  const defs = Object.fromEntries(Object.entries(extra.elements ?? {}).map(([k, v]) => [k, DataElementSchema.parse(v)]));
  const dataElements = createDataElements(defs, {
    page: () => ({ host: "x", path: "/", query: new URLSearchParams(), hash: "", referrer: "", href: "https://x/" }),
    cookies: { get: () => undefined },
    dataLayer: { get: (p) => readPath(extra.state ?? {}, p) },
    win: {} as Window,
    provided: () => undefined,
    log,
  });
  const deps: EngineDeps = {
    conditions: {
      page: () => ({ host: "x.kiwi.example", path: "/scores/", query: new URLSearchParams("a=1"), hash: "", referrer: "", href: "" }),
      cookie: () => undefined,
      dataElement: dataElements.get,
      consent: () => true,
      env: "qa",
      loggedIn: () => false,
      random: () => 0.5,
      table: allRuleFeatures().conditions,
    },
    actions: {
      analytics: { pageView: async () => calls.push("pageView"), event: async () => calls.push("event"), setVariables: () => void calls.push("setVariables") },
      consent: {
        allows: () => true,
        whenAllowed: (_c, cb) => cb(),
        decide: () => ({ allowed: true, reason: "consent-given", category: "marketing" }),
        whenTagAllowed: extra.whenTagAllowed ?? ((_t, _c, load) => load()),
        sdk: () => "in",
        reported: () => true,
        onChange() {},
      },
      loadScript: extra.loadScript ?? (async () => void calls.push("loadScript")),
      dataElements,
      pushDataLayer: (data) => void calls.push(`push:${JSON.stringify(data)}`),
      commands: { chat: { open: (...args: unknown[]) => (extra.command ?? (() => calls.push("open")))(...args) } },
      doc: {} as Document,
      table: { ...allRuleFeatures().actions, ...extra.actions },
    },
    log,
    monitor: { emit: (type, detail) => void events.push({ type, ...detail }), on: extra.monitorOn },
    timeout: 2000,
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    now: extra.now ?? (() => Date.now()),
  };
  return { engine: createRuleEngine(rules, deps), calls, logs, events };
}

const push = (tag: string): RuleAction => ({ type: "pushDataLayer", data: { tag }, waitBeforeNext: false });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("push: data elements", () => {
  it("a data-layer push rule's conditions and actions read that push's own fields, even when its actions run after the next push (no stale values from the merged state)", async () => {
    const { engine, calls } = setup(
      [
        rule({
          id: "app-error",
          events: [{ type: "dataLayerPush", event: "application-error" }],
          conditions: [{ type: "dataElement", name: "errorCode", exists: true }],
          actions: [
            { type: "command", module: "chat", name: "open", waitBeforeNext: true },
            { type: "pushDataLayer", data: { sent: "%errorCode%:%errorType%" } },
          ],
        }),
      ],
      {
        elements: { errorCode: { push: "code" }, errorType: { push: "type", default: "none" } },
        state: { code: "E1", type: "college" },
        command: () => new Promise((r) => setTimeout(r, 10)),
      },
    );
    engine.fire("dataLayerPush", { key: "application-error", data: { event: "application-error", code: "E2" } });
    // A push without a code: the merged state still has E1 (and a search's type), but this push has no data.
    engine.fire("dataLayerPush", { key: "application-error", data: { event: "application-error" } });
    await vi.runAllTimersAsync();
    expect(calls).toEqual(['push:{"sent":"E2:none"}']);
  });
});

describe("rule order", () => {
  it('"rules run per event by order value (lower first; default 50); equal order keeps declaration order"', () => {
    const { engine, calls } = setup([
      rule({ id: "d", actions: [push("default-50")] }),
      rule({ id: "a", order: 10, actions: [push("10-first")] }),
      rule({ id: "b", order: 0, actions: [push("0")] }),
      rule({ id: "c", order: 10, actions: [push("10-second")] }),
      rule({ id: "e", order: 5, actions: [push("5")] }),
    ]);
    engine.fire("libraryLoaded");
    expect(calls).toEqual(['push:{"tag":"0"}', 'push:{"tag":"5"}', 'push:{"tag":"10-first"}', 'push:{"tag":"10-second"}', 'push:{"tag":"default-50"}']);
  });

  it("a rule fires only for its own event type and key", () => {
    const { engine, calls } = setup([
      rule({ id: "s", events: [{ type: "dataLayerPush", event: "search" }], actions: [push("search")] }),
      rule({ id: "c", events: [{ type: "dataLayerPush", event: "cart" }], actions: [push("cart")] }),
    ]);
    engine.fire("dataLayerPush", { key: "search" });
    engine.fire("domReady");
    expect(calls).toEqual(['push:{"tag":"search"}']);
  });
});

describe("conditions", () => {
  it("all conditions must pass; a failing condition skips the actions and is reported", () => {
    const { engine, calls, events } = setup([
      rule({
        id: "pass",
        conditions: [
          { type: "path", startsWith: "/scores" },
          { type: "env", in: ["qa"] },
        ],
        actions: [push("pass")],
      }),
      rule({
        id: "fail",
        conditions: [
          { type: "path", startsWith: "/scores" },
          { type: "query", name: "a", equals: "2" },
        ],
        actions: [push("fail")],
      }),
    ]);
    engine.fire("libraryLoaded");
    expect(calls).toEqual(['push:{"tag":"pass"}']);
    expect(events).toContainEqual(expect.objectContaining({ type: "rule", rule: "fail", state: "skipped", condition: 1 }));
  });
});

describe("wait-before-next and timeouts", () => {
  it('"A wait-before-next action blocks the rest of its own rule until it settles"; "it never stalls other rules"', async () => {
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const { engine, calls } = setup(
      [
        rule({ id: "waits", order: 0, actions: [{ type: "command", module: "chat", name: "open", waitBeforeNext: true }, push("after-wait")] }),
        rule({ id: "other", order: 10, actions: [push("other-rule")] }),
      ],
      { command: () => slow },
    );
    engine.fire("libraryLoaded");
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toEqual(['push:{"tag":"other-rule"}']);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['push:{"tag":"other-rule"}', 'push:{"tag":"after-wait"}']);
  });

  it('"A timed-out step logs the catalogue\'s timeout error" and its rule stops; default 2000 ms', async () => {
    const { engine, calls, logs, events } = setup(
      [rule({ id: "hang", actions: [{ type: "command", module: "chat", name: "open", waitBeforeNext: true }, push("never")] })],
      { command: () => new Promise(() => {}) },
    );
    engine.fire("libraryLoaded");
    await vi.advanceTimersByTimeAsync(1999);
    expect(logs.filter((l) => l.message === STEP_TIMEOUT)).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(logs).toContainEqual(
      expect.objectContaining({ level: "error", message: STEP_TIMEOUT, data: expect.objectContaining({ rule: "hang", timeout: 2000 }) }),
    );
    expect(events).toContainEqual(expect.objectContaining({ rule: "hang", action: 0, outcome: "timed out" }));
    expect(calls).toEqual([]);
  });

  /** A data layer whose `slow` read takes 2001 ms of the (faked) clock and whose `almost` read takes 1999 ms. */
  function slowState() {
    return {
      get slow() {
        vi.setSystemTime(Date.now() + 2001);
        return "x";
      },
      get almost() {
        vi.setSystemTime(Date.now() + 1999);
        return "x";
      },
      kind: "k1",
    };
  }

  // The rule engine times a rule's conditions together (two clock readings per rule, issue #21): a rule whose
  // conditions ran past the limit counts as failed at the condition its evaluation stopped at.
  it('"timeout error when a condition or action exceeds its limit": a condition past 2000 ms fails its rule, which does not fire; other rules go on', () => {
    const state = slowState();
    const { engine, calls, logs, events } = setup(
      [
        rule({ id: "ok", order: 0, conditions: [{ type: "dataElement", name: "kind", equals: "k1" }], actions: [push("ok")] }),
        rule({
          id: "slow-last",
          order: 5,
          conditions: [
            { type: "dataElement", name: "kind", equals: "k1" },
            { type: "dataElement", name: "slow", exists: true },
          ],
          actions: [push("slow-last")],
        }),
        rule({
          id: "slow-then-failed",
          order: 10,
          conditions: [
            { type: "dataElement", name: "slow", exists: true },
            { type: "dataElement", name: "kind", equals: "k2" },
          ],
          actions: [push("slow-then-failed")],
        }),
        rule({ id: "within", order: 50, conditions: [{ type: "dataElement", name: "almost", exists: true }], actions: [push("within")] }),
      ],
      { state, elements: { slow: { dataLayer: "slow", storage: "none" }, almost: { dataLayer: "almost", storage: "none" }, kind: { dataLayer: "kind" } } },
    );
    engine.fire("libraryLoaded");
    expect(calls).toEqual(['push:{"tag":"ok"}', 'push:{"tag":"within"}']);
    const timeouts = logs.filter((l) => l.message === STEP_TIMEOUT);
    expect(timeouts).toEqual([
      { level: "error", message: STEP_TIMEOUT, data: { rule: "slow-last", condition: 1, timeout: 2000 } },
      { level: "error", message: STEP_TIMEOUT, data: { rule: "slow-then-failed", condition: 1, timeout: 2000 } },
    ]);
    expect(events).toContainEqual(expect.objectContaining({ type: "rule", rule: "slow-last", state: "timed out", condition: 1 }));
    expect(events).toContainEqual(expect.objectContaining({ type: "rule", rule: "slow-then-failed", state: "timed out", condition: 1 }));
    expect(events.filter((e) => e.state === "fired").map((e) => e.rule)).toEqual(["ok", "within"]);
  });

  // Issue #21: the clock reading at the end of a skipped rule's conditions is the next rule's start; after a rule that
  // fired (its actions ran meanwhile) the next rule's start is read afresh, so an action's time never counts as a condition's.
  it("\"timeout error when a condition or action exceeds its limit\": a rule is timed from its own conditions' start, not from an earlier rule's", () => {
    const state = slowState();
    const { engine, calls, logs } = setup(
      [
        // Its synchronous action takes 1500 ms, the next rule's conditions 1999: within the limit each.
        rule({
          id: "slow-action",
          order: 0,
          conditions: [{ type: "dataElement", name: "kind", equals: "k1" }],
          actions: [{ type: "command", module: "chat", name: "open", waitBeforeNext: false }],
        }),
        rule({ id: "after-action", order: 5, conditions: [{ type: "dataElement", name: "almost", exists: true }], actions: [push("after-action")] }),
        // Skipped after 1999 ms of conditions, then a rule whose conditions take 1 ms more than nothing: within the limit.
        rule({ id: "skipped", order: 10, conditions: [{ type: "dataElement", name: "almost", equals: "y" }], actions: [push("skipped")] }),
        rule({ id: "after-skip", order: 50, conditions: [{ type: "dataElement", name: "kind", equals: "k1" }], actions: [push("after-skip")] }),
        // Skipped at once, then a rule whose conditions take 2001 ms: timed out all the same.
        rule({ id: "skipped-fast", order: 50, conditions: [{ type: "dataElement", name: "kind", equals: "k2" }], actions: [push("skipped-fast")] }),
        rule({ id: "slow-after-skip", order: 50, conditions: [{ type: "dataElement", name: "slow", exists: true }], actions: [push("slow-after-skip")] }),
      ],
      {
        state,
        elements: { slow: { dataLayer: "slow", storage: "none" }, almost: { dataLayer: "almost", storage: "none" }, kind: { dataLayer: "kind" } },
        command: () => void vi.setSystemTime(Date.now() + 1500),
        // No monitor listening: the busy path, where a skipped rule's end reading is shared.
        monitorOn: () => false,
      },
    );
    engine.fire("libraryLoaded");
    expect(calls).toEqual(['push:{"tag":"after-action"}', 'push:{"tag":"after-skip"}']);
    expect(logs.filter((l) => l.message === STEP_TIMEOUT)).toEqual([
      { level: "error", message: STEP_TIMEOUT, data: { rule: "slow-after-skip", condition: 0, timeout: 2000 } },
    ]);
  });

  it("with no monitor listening, the clock is read once per skipped rule, and afresh at the start of a rule after one that fired (issue #21)", () => {
    let readings = 0;
    const skipped = (id: string) => rule({ id, order: 0, conditions: [{ type: "dataElement", name: "kind", equals: "k2" }] });
    const fires = (id: string) => rule({ id, order: 0, conditions: [{ type: "dataElement", name: "kind", equals: "k1" }], actions: [push(id)] });
    const { engine, calls } = setup([skipped("a"), skipped("b"), fires("c"), skipped("d"), rule({ id: "none", order: 0 })], {
      state: { kind: "k1" },
      elements: { kind: { dataLayer: "kind" } },
      monitorOn: () => false,
      now: () => (readings++, Date.now()),
    });
    engine.fire("libraryLoaded");
    expect(calls).toEqual(['push:{"tag":"c"}', "push:{}"]);
    // a: start and end; b, c: their ends (b's start is a's end, c's is b's); d: start (c fired) and end; none: no conditions.
    expect(readings).toBe(6);
  });

  it("the actions of a rule that waited (wait-before-next) still run as that rule, after later rules of the same firing ran", async () => {
    const { engine, logs } = setup(
      [
        rule({
          id: "waits",
          order: 0,
          actions: [
            { type: "command", module: "chat", name: "open", waitBeforeNext: true },
            { type: "log", level: "debug", message: "required data missing" },
          ],
        }),
        rule({ id: "later", order: 5, actions: [{ type: "log", level: "debug", message: "no payload data found" }] }),
      ],
      { command: () => new Promise((r) => setTimeout(r, 10)) },
    );
    engine.fire("libraryLoaded");
    await vi.runAllTimersAsync();
    expect(logs.filter((l) => l.level === "debug").map((l) => [l.message, (l.data as { rule: string }).rule])).toEqual([
      ["no payload data found", "later"],
      ["required data missing", "waits"],
    ]);
  });

  it("an action's own timeout replaces the default (the spec's 10000 ms for the ambassador script)", async () => {
    const { engine, logs } = setup([rule({ id: "amb", actions: [{ type: "command", module: "chat", name: "open", timeout: 10000, waitBeforeNext: true }] })], {
      command: () => new Promise(() => {}),
    });
    engine.fire("libraryLoaded");
    await vi.advanceTimersByTimeAsync(9999);
    expect(logs.some((l) => l.message === STEP_TIMEOUT)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(logs).toContainEqual(expect.objectContaining({ message: STEP_TIMEOUT, data: expect.objectContaining({ timeout: 10000 }) }));
  });

  it("a step that does not wait still has its timeout logged, and the rule goes on at once", async () => {
    const { engine, calls, logs } = setup([rule({ id: "r", actions: [{ type: "command", module: "chat", name: "open" }, push("next")] })], {
      command: () => new Promise(() => {}),
    });
    engine.fire("libraryLoaded");
    expect(calls).toEqual(['push:{"tag":"next"}']);
    await vi.advanceTimersByTimeAsync(2000);
    expect(logs.some((l) => l.message === STEP_TIMEOUT)).toBe(true);
  });
});

describe("a tag waiting for consent", () => {
  const tagRule = () =>
    rule({ id: "payment-confirmation", actions: [{ type: "loadScript", src: "https://tags.adpartner.example/p.js", consent: "marketing" } as RuleAction] });

  it('"A tag waiting for consent is not an error": past its limit it logs at debug level, and loads once after a late grant', async () => {
    let grant: (() => void) | undefined;
    const { engine, calls, logs } = setup([tagRule()], { whenTagAllowed: (_t, _c, load) => void (grant = load) });
    engine.fire("libraryLoaded");
    await vi.advanceTimersByTimeAsync(2000);
    expect(logs.filter((l) => l.level === "error")).toEqual([]);
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: "debug",
        message: STEP_WAITS_FOR_CONSENT,
        data: expect.objectContaining({ rule: "payment-confirmation", timeout: 2000 }),
      }),
    );
    grant?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(["loadScript"]);
  });

  it("a real timeout keeps the error: consent given, the tag never loads", async () => {
    const { engine, logs } = setup([tagRule()], { loadScript: () => new Promise(() => {}) });
    engine.fire("libraryLoaded");
    await vi.advanceTimersByTimeAsync(2000);
    expect(logs).toContainEqual(expect.objectContaining({ level: "error", message: STEP_TIMEOUT }));
    expect(logs.some((l) => l.message === STEP_WAITS_FOR_CONSENT)).toBe(false);
  });
});

describe("containment", () => {
  it('"an exception in any condition or action is caught and logged; other rules … carry on"', async () => {
    const { engine, calls, logs } = setup(
      [
        rule({ id: "throws", order: 0, actions: [{ type: "command", module: "chat", name: "open" }, push("after-throw")] }),
        rule({ id: "rejects", order: 1, actions: [{ type: "command", module: "chat", name: "open", waitBeforeNext: true }, push("never")] }),
        rule({ id: "later", order: 50, actions: [push("later")] }),
      ],
      {
        command: (() => {
          let n = 0;
          return () => {
            if (n++ === 0) throw new Error("boom");
            return Promise.reject(new Error("async boom"));
          };
        })(),
      },
    );
    expect(() => engine.fire("libraryLoaded")).not.toThrow();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['push:{"tag":"after-throw"}', 'push:{"tag":"later"}']);
    expect(logs.filter((l) => l.message === RULE_ACTION_FAILED).map((l) => (l.data as { rule: string }).rule)).toEqual(["throws", "rejects"]);
  });

  it("a condition that throws stops only its own rule", () => {
    // The compiler refuses an invalid regular expression; the runtime still guards against one.
    const bad = rule({ id: "bad", conditions: [{ type: "path", matches: "x" }], actions: [push("bad")] });
    (bad.conditions[0] as { matches: string }).matches = "(";
    const { engine, calls } = setup([bad, rule({ id: "good", actions: [push("good")] })]);
    engine.fire("libraryLoaded");
    expect(calls).toEqual(['push:{"tag":"good"}']);
  });
});

describe("one push's rules share its data-layer and push reads (issue #21, rule-engine throughput)", () => {
  it("while held, a dataLayer: element is read once for all the push's rules; a cookie or push: element is read each time; after the release (an action that waited) it is read afresh", () => {
    const reads: string[] = [];
    let state: Record<string, unknown> = { item: { kind: "k1" } };
    let cookie = "c1";
    const log = { enabled: false, debug() {}, info() {}, warn() {}, error() {} };
    const defs = Object.fromEntries(
      Object.entries({ kind: { dataLayer: "item.kind" }, id: { push: "id" }, seen: { cookie: "seen" } }).map(([k, v]) => [k, DataElementSchema.parse(v)]),
    );
    const de = createDataElements(defs, {
      page: () => ({ host: "x", path: "/", query: new URLSearchParams(), hash: "", referrer: "", href: "https://x/" }),
      cookies: { get: () => (reads.push("cookie"), cookie) },
      dataLayer: { get: (p) => (reads.push(p), readPath(state, p)) },
      win: {} as Window,
      provided: () => undefined,
      log,
    });
    const scope = de.forPush({ id: 7 });
    const release = scope.hold!();
    expect([scope.get("kind"), scope.get("kind"), scope.resolve("%kind%-%id%"), scope.get("id")]).toEqual(["k1", "k1", "k1-7", 7]);
    expect(reads).toEqual(["item.kind"]);
    expect([scope.get("seen"), (cookie = "c2"), scope.get("seen")]).toEqual(["c1", "c2", "c2"]);
    // Another scope (a direct call from an action) shares nothing.
    expect(de.get("id")).toBeUndefined();
    release();
    state = { item: { kind: "k2" } };
    expect(scope.get("kind")).toBe("k2");
    expect(reads.filter((r) => r === "item.kind")).toHaveLength(2);
  });
  it("the engine holds a push's reads only while its rules run: the same values for every rule of the push", () => {
    const reads: string[] = [];
    const log = { enabled: false, debug() {}, info() {}, warn() {}, error() {} };
    const de = createDataElements(
      { v: DataElementSchema.parse({ dataLayer: "v" }) },
      {
        page: () => ({ host: "x", path: "/", query: new URLSearchParams(), hash: "", referrer: "", href: "https://x/" }),
        cookies: { get: () => undefined },
        dataLayer: { get: (p) => (reads.push(p), 3) },
        win: {} as Window,
        provided: () => undefined,
        log,
      },
    );
    const fired: string[] = [];
    const rules = [1, 2, 3].map((i) =>
      rule({
        id: `r${i}`,
        events: [{ type: "dataLayerPush", event: "e" }],
        conditions: [{ type: "dataElement", name: "v", gt: i - 1 }],
        actions: [{ type: "log", level: "debug", message: "vouchers order ID missing" }],
      }),
    );
    const engine = createRuleEngine(rules, {
      conditions: {
        page: () => ({}) as never,
        cookie: () => undefined,
        dataElement: de.get,
        consent: () => true,
        env: "qa",
        loggedIn: () => false,
        random: () => 0.5,
        table: allRuleFeatures().conditions,
      },
      actions: { dataElements: de, table: allRuleFeatures().actions } as unknown as EngineDeps["actions"],
      log: { ...log, debug: () => void fired.push("log") },
      monitor: { emit: () => undefined },
      timeout: 2000,
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      now: () => 0,
    });
    engine.fire("dataLayerPush", { key: "e", data: { event: "e" } });
    expect(fired).toHaveLength(3);
    expect(reads).toEqual(["v"]);
    engine.fire("dataLayerPush", { key: "e", data: { event: "e" } });
    expect(reads).toEqual(["v", "v"]);
  });
});

// Issue #21: a firing reuses the action context and push scope of the last firing at its depth, unless an action of
// that firing returned a promise (it may read them when it settles); a fire from an action is one deeper, with its own.
describe("a context per firing depth, reused", () => {
  const onPush = (r: Record<string, unknown>) => rule({ events: [{ type: "dataLayerPush", event: "e" }], ...r });

  it("pushes whose actions return nothing share one context; each push's rules read that push, the next rule the same", () => {
    const seen: unknown[] = [];
    const original = allRuleFeatures().actions.pushDataLayer!;
    const { engine, calls } = setup(
      [
        onPush({ id: "a", order: 0, actions: [{ type: "pushDataLayer", data: { a: "%id%" } }] }),
        onPush({ id: "b", order: 10, actions: [{ type: "pushDataLayer", data: { b: "%id%" } }] }),
      ],
      { elements: { id: { push: "id" } }, actions: { pushDataLayer: (action, ctx) => (seen.push(ctx, ctx.dataElements), original(action, ctx)) } },
    );
    for (const id of [1, 2, 3]) engine.fire("dataLayerPush", { key: "e", data: { event: "e", id } });
    expect(calls).toEqual(['push:{"a":"1"}', 'push:{"b":"1"}', 'push:{"a":"2"}', 'push:{"b":"2"}', 'push:{"a":"3"}', 'push:{"b":"3"}']);
    expect(new Set(seen.filter((_, i) => i % 2 === 0)).size).toBe(1);
    expect(new Set(seen.filter((_, i) => i % 2 === 1)).size).toBe(1);
  });

  it('"Tags load after the consent banner closes": a tag that waits for consent loads with its own push\'s values and rule, after later pushes reused the context', async () => {
    const loads: Array<() => void> = [];
    const sources: string[] = [];
    const { engine, calls } = setup(
      [
        onPush({
          id: "tag",
          order: 0,
          conditions: [{ type: "dataElement", name: "id", equals: 1 }],
          actions: [{ type: "loadScript", src: "https://t.example/%id%.js", consent: "performance" }],
        }),
        onPush({ id: "note", order: 10, actions: [{ type: "pushDataLayer", data: { id: "%id%" } }] }),
      ],
      {
        elements: { id: { push: "id" } },
        whenTagAllowed: (tag, _category, load) => void loads.push(() => (sources.push(tag), load())),
        loadScript: ((src: string) => (sources.push(src), Promise.resolve())) as unknown as () => Promise<void>,
      },
    );
    for (const id of [1, 2, 3]) engine.fire("dataLayerPush", { key: "e", data: { event: "e", id } });
    expect(calls).toEqual(['push:{"id":"1"}', 'push:{"id":"2"}', 'push:{"id":"3"}']);
    expect(loads).toHaveLength(1);
    loads[0]();
    await vi.advanceTimersByTimeAsync(0);
    expect(sources).toEqual(["tag", "https://t.example/1.js"]);
  });

  it("a fire from an action (a direct call) gets its own context: the outer push's later actions still read the outer push", () => {
    let engine!: ReturnType<typeof setup>["engine"];
    const made = setup(
      [
        onPush({
          id: "outer",
          order: 0,
          actions: [
            { type: "command", module: "chat", name: "open" },
            { type: "pushDataLayer", data: { outer: "%id%" } },
          ],
        }),
        rule({ id: "inner", events: [{ type: "dataLayerPush", event: "inner" }], actions: [{ type: "pushDataLayer", data: { inner: "%id%" } }] }),
      ],
      { elements: { id: { push: "id" } }, command: () => engine.fire("dataLayerPush", { key: "inner", data: { event: "inner", id: 99 } }) },
    );
    engine = made.engine;
    for (const id of [1, 2]) engine.fire("dataLayerPush", { key: "e", data: { event: "e", id } });
    expect(made.calls).toEqual(['push:{"inner":"99"}', 'push:{"outer":"1"}', 'push:{"inner":"99"}', 'push:{"outer":"2"}']);
  });
});

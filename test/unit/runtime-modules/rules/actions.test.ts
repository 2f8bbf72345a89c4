/** Rule actions that load tags (runtime-modules/rules/actions.ts): when they run. */
import { describe, expect, it } from "vitest";
import { runAction, type ActionContext } from "../../../../runtime-modules/rules/actions";
import { allRuleFeatures } from "../../../../runtime-modules/rules/features";
import type { RuleAction } from "../../../../generator/config/bundle-config.js";

function context(readyState: DocumentReadyState, blockedForGood = false) {
  const loaded: string[] = [];
  const ready: Array<() => void> = [];
  const doc = {
    readyState,
    addEventListener: (type: string, fn: () => void) => void (type === "DOMContentLoaded" && ready.push(fn)),
    createElement: () => ({ setAttribute: (k: string, v: string) => k === "src" && loaded.push("pixel " + v), style: {} }),
    body: { appendChild: () => undefined },
  } as unknown as Document;
  const ctx = {
    consent: { whenTagAllowed: (_tag: string, _category: unknown, load: () => void, blocked?: () => void) => (blockedForGood ? blocked?.() : load()) },
    loadScript: async (src: string) => void loaded.push("script " + src),
    dataElements: { resolve: (s: string) => s, resolveDeep: <T>(v: T) => v },
    doc,
    rule: "r",
    table: allRuleFeatures().actions,
  } as unknown as ActionContext;
  return { ctx, loaded, domReady: () => ready.splice(0).forEach((fn) => fn()) };
}

describe("tag actions", () => {
  it('"Performance tags … load at extensions or page top; functional and program tags … and marketing tags … at DOM ready"', () => {
    const c = context("loading");
    void runAction({ type: "pixel", src: "https://px.example/m", kind: "image", consent: "marketing" } as RuleAction, c.ctx);
    void runAction({ type: "loadScript", src: "https://f.example/f.js", consent: "functional" } as RuleAction, c.ctx);
    void runAction({ type: "loadScript", src: "https://p.example/p.js", consent: "performance" } as RuleAction, c.ctx);
    expect(c.loaded).toEqual(["script https://p.example/p.js"]);
    c.domReady();
    expect(c.loaded).toEqual(["script https://p.example/p.js", "pixel https://px.example/m", "script https://f.example/f.js"]);
  });
  it("after DOM ready every tag action runs at once", () => {
    const c = context("interactive");
    void runAction({ type: "pixel", src: "https://px.example/m", kind: "image", consent: "marketing" } as RuleAction, c.ctx);
    expect(c.loaded).toEqual(["pixel https://px.example/m"]);
  });
  it("a tag the gate blocks for good (privacy signal, exclusion list, cb-disable) ends its action at once: a skip, not a timeout", async () => {
    const c = context("interactive", true);
    await expect(runAction({ type: "pixel", src: "https://px.example/m", kind: "image", consent: "marketing" } as RuleAction, c.ctx)).resolves.toBeUndefined();
    expect(c.loaded).toEqual([]);
  });
  it("a beacon action is done once handed over (it may wait for consent in the client: no timeout error); with waitBeforeNext the step waits for its delivery", () => {
    const pending = new Promise(() => {});
    const ctx = {
      analytics: { event: () => pending, pageView: () => pending },
      dataElements: { resolve: (s: string) => s, resolveDeep: <T>(v: T) => v },
      table: allRuleFeatures().actions,
    } as unknown as ActionContext;
    expect(runAction({ type: "sendEvent", name: "n", eventType: "t", linkType: "other" } as RuleAction, ctx)).toBeUndefined();
    expect(runAction({ type: "sendPageView" } as RuleAction, ctx)).toBeUndefined();
    expect(runAction({ type: "sendEvent", name: "n", eventType: "t", linkType: "other", waitBeforeNext: true } as RuleAction, ctx)).toBe(pending);
  });
});

describe("the log action (issue 18: a skipped push logs the spec's message)", () => {
  it("logs the message at its level with the rule's id; without a logger it does nothing", () => {
    const logs: Array<[string, string, unknown]> = [];
    const at = (level: string) => (message: string, data?: unknown) => void logs.push([level, message, data]);
    const log = { enabled: false, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
    const ctx = {
      dataElements: { resolve: (s: string) => s, resolveDeep: <T>(v: T) => v },
      rule: "vouchers-order-no-id",
      log,
      table: allRuleFeatures().actions,
    } as unknown as ActionContext;
    runAction({ type: "log", level: "warn", message: "vouchers order ID missing" } as RuleAction, ctx);
    runAction({ type: "log", level: "info", message: "required data missing" } as RuleAction, ctx);
    expect(logs).toEqual([
      ["warn", "vouchers order ID missing", { rule: "vouchers-order-no-id" }],
      ["info", "required data missing", { rule: "vouchers-order-no-id" }],
    ]);
    expect(() => runAction({ type: "log", level: "warn", message: "x" } as RuleAction, { ...ctx, log: undefined })).not.toThrow();
  });
  it("the schema takes only the runtime's messages (docs/messages.md)", async () => {
    const { RuleActionSchema } = await import("../../../../generator/config/schemas/rules.js");
    expect(RuleActionSchema.safeParse({ type: "log", message: "voucher action type not recognized" }).success).toBe(true);
    expect(RuleActionSchema.parse({ type: "log", message: "voucher action type not recognized" })).toMatchObject({ level: "warn" });
    expect(RuleActionSchema.safeParse({ type: "log", message: "something I made up" }).success).toBe(false);
  });
});

describe("setVariables with xdm (issue #19: identity in every record)", () => {
  it("an xdm value that is exactly one token keeps the data element's own value (an identity map, a number); other text is resolved; variables are text", () => {
    const values: Record<string, unknown> = {
      identityMap: { CBPEOPLEID: [{ id: "1", authenticatedState: "authenticated", primary: true }] },
      grade: 3,
      who: "st",
    };
    const calls: unknown[][] = [];
    const ctx = {
      table: allRuleFeatures().actions,
      analytics: { setVariables: (...args: unknown[]) => void calls.push(args) },
      dataElements: {
        get: (name: string) => values[name],
        resolve: (s: string) => s.replace(/%(\w+)%/g, (_m, n: string) => (values[n] === undefined ? "" : String(values[n]))),
        resolveDeep: <T>(v: T): T => JSON.parse(JSON.stringify(v).replace(/%(\w+)%/g, (_m, n: string) => (values[n] === undefined ? "" : String(values[n])))),
      },
    } as unknown as ActionContext;
    runAction(
      {
        type: "setVariables",
        variables: { eVar208: "%grade%" },
        xdm: { identityMap: "%identityMap%", _kiwi: { grade: "%grade%", label: "%who%-%grade%", missing: "%nothing%" } },
      } as unknown as RuleAction,
      ctx,
    );
    expect(calls).toEqual([[{ eVar208: "3" }, { identityMap: values.identityMap, _kiwi: { grade: 3, label: "st-3", missing: undefined } }]]);
  });
});

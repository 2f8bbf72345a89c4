/**
 * The chat-flow popup (issue 20; spec sections 5, 8 and 9) with a fake
 * clock: its validation, "shows once per cookie", "skipped if path does not
 * match", "ignored within 1 second of the last", exit intent, the delay, the
 * vendor's retries (10 x 100 ms), its ready timeout (30000 ms) and the
 * trigger element's wait (5000 ms). The module runs against a minimal window
 * whose timers are vitest's fake ones; real mouse moves are in Chromium
 * (test/browser/tags.test.ts).
 */
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ResolvedTag } from "../../../../generator/config/bundle-config.js";
import { ChatFlowSettingsSchema } from "../../../../generator/config/schemas/tags.js";
import type { TagFamilies } from "../../../../runtime-modules/core/types";
import { createChatFlow } from "../../../../runtime-modules/modules/chat-flow/create-chat-flow";
import { chatFlowProblems, isExitIntent } from "../../../../runtime-modules/modules/chat-flow/popup";
import * as M from "../../../../runtime-modules/core/messages";

type Listener = (e: { clientY: number }) => void;

/** The org's timing values (sites/_org.yaml): the popup's retries and element wait when the tag sets none. */
const ORG_TIMING = { retryAttempts: 10, retryInterval: 100, elementWait: 5000 };

function setup(settings: Record<string, unknown> = {}, path = "/scores", timing: Record<string, number> = ORG_TIMING) {
  const chatFlow = ChatFlowSettingsSchema.parse({ flowId: "help-1", ...settings });
  const tag = {
    code: "chat-flow",
    category: "functional",
    lifecycle: "domReady",
    kind: "script",
    family: "chatFlow",
    src: "https://flow.example/p.js",
    chatFlow,
  } as ResolvedTag;
  const listeners: Record<string, Listener[]> = {};
  const clicks: Array<() => void> = [];
  let element: object | null = null;
  const jar = new Map<string, { value: string; options?: unknown }>();
  const logs: Array<[string, string, unknown]> = [];
  const events: unknown[] = [];
  const doc = {
    addEventListener: (type: string, fn: Listener) => (listeners[type] = listeners[type] || []).push(fn),
    querySelector: () => element,
    createDocumentFragment: () => ({
      querySelector(s: string) {
        if (/^[#.]?[\w-]+$/.test(s)) return null;
        throw new SyntaxError("bad selector");
      },
    }),
  };
  const win: Record<string, unknown> = {
    document: doc,
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (t: ReturnType<typeof setTimeout>) => clearTimeout(t),
  };
  const log = Object.fromEntries(["debug", "info", "warn", "error"].map((l) => [l, (m: string, d: unknown) => logs.push([l, m, d])]));
  const tagFamilies: TagFamilies = {};
  const instance = createChatFlow({
    config: { enabled: true },
    tagFamilies,
    win: win as unknown as Window,
    bundle: { modules: { tags: { enabled: true, tags: [tag] } }, timing },
    log,
    monitor: { emit: (type: string, d: unknown) => events.push({ type, ...(d as object) }) },
    cookies: {
      get: (n: string) => jar.get(n)?.value,
      set: (n: string, value: string, options?: unknown) => jar.set(n, { value, options }),
      remove: (n: string) => jar.delete(n),
    },
    page: { path, host: "newsroom-qa.kiwi.example" },
  } as never);
  const hook = tagFamilies.chatFlow;
  const shown: string[] = [];
  /** The vendor: its ready callback runs at once unless told otherwise. */
  const vendor = (ready: unknown = (cb: () => void) => cb()) => (win.kiwiChatFlow = { ready, showFlow: (id: string) => shown.push(id) });
  const move = (y: number) => {
    for (const fn of listeners.mousemove ?? []) fn({ clientY: y });
  };
  return {
    tag,
    hook,
    win,
    jar,
    logs,
    events,
    shown,
    vendor,
    move,
    commands: instance.commands!,
    messages: () => logs.map(([, m]) => m),
    setElement(e: object | null) {
      element = e && { addEventListener: (_: string, fn: () => void) => clicks.push(fn) };
    },
    click: () => clicks.forEach((fn) => fn()),
  };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('section 5: "flow id required; route pattern a regex or false; cookie lifetime and delay not negative"', () => {
  it("the build refuses the tag's settings (file:line:col in the bad-config fixtures 106, 107)", () => {
    expect(ChatFlowSettingsSchema.safeParse({}).success).toBe(false);
    expect(ChatFlowSettingsSchema.safeParse({ flowId: "" }).success).toBe(false);
    expect(ChatFlowSettingsSchema.safeParse({ flowId: "f", cookieDays: -1 }).success).toBe(false);
    expect(ChatFlowSettingsSchema.safeParse({ flowId: "f", delay: -1 }).success).toBe(false);
    expect(ChatFlowSettingsSchema.safeParse({ flowId: "f", routePattern: true }).success).toBe(false);
    expect(ChatFlowSettingsSchema.safeParse({ flowId: "f", trigger: "click" }).success).toBe(false);
    expect(ChatFlowSettingsSchema.parse({ flowId: "f" })).toEqual({
      flowId: "f",
      api: "kiwiChatFlow",
      showCommand: "showFlow",
      trigger: "exitIntent",
      routePattern: false,
      cookie: "widget_shown",
      cookieDays: 1,
      delay: 0,
      exitThreshold: 5,
      rateLimit: 1000,
      readyTimeout: 30000,
    });
  });
  it("at run time the page's options are checked the same way: each problem named", () => {
    const ok = { flowId: "f", routePattern: false, cookieDays: 0, delay: 0 };
    expect(chatFlowProblems(ok)).toEqual([]);
    expect(chatFlowProblems({ ...ok, routePattern: "^/scores" })).toEqual([]);
    expect(chatFlowProblems({ routePattern: "(", cookieDays: -1, delay: -0.5 })).toEqual([
      "flowId is required",
      "routePattern must be a regex or false",
      "cookieDays must not be negative",
      "delay must not be negative",
    ]);
    expect(chatFlowProblems({ ...ok, routePattern: true })).toEqual(["routePattern must be a regex or false"]);
    expect(chatFlowProblems({ ...ok, cookieDays: "1" as unknown as number, delay: undefined })).toEqual(["delay must not be negative"]);
  });
  it('"Errors are logged and the popup skipped" (the command with invalid options)', () => {
    const t = setup({ trigger: "load" });
    t.vendor();
    t.hook.loaded!(t.tag);
    vi.runAllTimers();
    t.jar.clear();
    vi.advanceTimersByTime(5000);
    expect(t.commands.chatFlowPopup({ flowId: "", cookieDays: -1 })).toBe(false);
    vi.runAllTimers();
    expect(t.shown).toEqual(["help-1"]);
    expect(t.logs).toContainEqual([
      "error",
      M.CHAT_FLOW_OPTIONS_INVALID,
      expect.objectContaining({ problems: ["flowId is required", "cookieDays must not be negative"] }),
    ]);
  });
});

describe('"Shows once per cookie" (widget_shown, 1 day, path /)', () => {
  it("shown once, the cookie written for a day; later triggers and the command see it and skip", () => {
    const t = setup({ trigger: "load" });
    t.vendor();
    t.hook.loaded!(t.tag);
    vi.runAllTimers();
    expect(t.shown).toEqual(["help-1"]);
    expect(t.jar.get("widget_shown")).toEqual({ value: "1", options: { maxAgeSeconds: 86400 } });
    expect(t.events).toEqual([{ type: "chatFlow", tag: "chat-flow", flowId: "help-1" }]);
    vi.advanceTimersByTime(5000);
    expect(t.commands.chatFlowPopup()).toBe(false);
    expect(t.messages()).toContain(M.CHAT_FLOW_ALREADY_SHOWN);
    expect(t.commands.chatFlowShown()).toEqual(["help-1"]);
  });
  it("a lifetime of 0 days: a session cookie", () => {
    const t = setup({ trigger: "load", cookieDays: 0 });
    t.vendor();
    t.hook.loaded!(t.tag);
    vi.runAllTimers();
    expect(t.jar.get("widget_shown")).toEqual({ value: "1", options: undefined });
  });
  it("the cookie set by another tab between the trigger and the vendor's ready: not shown", () => {
    const t = setup({ trigger: "load", delay: 2000 });
    t.vendor();
    t.hook.loaded!(t.tag);
    t.jar.set("widget_shown", { value: "1" });
    vi.runAllTimers();
    expect(t.shown).toEqual([]);
  });
});

describe('"skipped if path does not match" the route pattern (a regex, or false for every path)', () => {
  it("the tag is skipped on other paths; false matches every path", () => {
    expect(setup({ routePattern: "^/scores" }, "/scores/details").hook.skip!(setup({ routePattern: "^/scores" }).tag)).toBeUndefined();
    const other = setup({ routePattern: "^/scores" }, "/register");
    expect(other.hook.skip!(other.tag)).toBe(M.PATH_DOES_NOT_MATCH_ROUTE);
    const any = setup({}, "/anything");
    expect(any.hook.skip!(any.tag)).toBeUndefined();
  });
  it("the command's own route pattern is checked against the path", () => {
    const t = setup({ trigger: "click", selector: "#help" });
    t.vendor();
    t.hook.loaded!(t.tag);
    expect(t.commands.chatFlowPopup({ routePattern: "^/register" })).toBe(false);
    expect(t.messages()).toContain(M.PATH_DOES_NOT_MATCH_ROUTE);
    expect(t.commands.chatFlowPopup({ routePattern: "^/scores", flowId: "other" })).toBe(true);
    vi.runAllTimers();
    expect(t.shown).toEqual(["other"]);
  });
  it("the command before the tag has loaded: 'widget not loaded'", () => {
    const t = setup();
    expect(t.commands.chatFlowPopup()).toBe(false);
    expect(t.messages()).toEqual([M.WIDGET_NOT_LOADED]);
  });
});

describe('"ignored within 1 second of the last"; the delay', () => {
  it("a trigger 999 ms after the last is ignored, one 1000 ms after is taken", () => {
    const t = setup({ trigger: "click", selector: "#help", delay: 10000 });
    t.vendor();
    t.setElement({});
    t.hook.loaded!(t.tag);
    t.click();
    vi.advanceTimersByTime(999);
    t.click();
    expect(t.messages()).toEqual([M.CHAT_FLOW_RATE_LIMITED]);
    vi.advanceTimersByTime(1);
    t.click();
    expect(t.messages()).toEqual([M.CHAT_FLOW_RATE_LIMITED]);
    vi.advanceTimersByTime(8999);
    expect(t.shown).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(t.shown).toEqual(["help-1"]);
    vi.runAllTimers();
    expect(t.shown).toEqual(["help-1"]);
    expect(t.messages()).toEqual([M.CHAT_FLOW_RATE_LIMITED, M.CHAT_FLOW_ALREADY_SHOWN]);
  });
  it("property: of triggers at random times, exactly those at least rateLimit after the last taken one are taken", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 2000 }), (gaps, rateLimit) => {
        vi.setSystemTime(1_000_000);
        const t = setup({ trigger: "click", selector: "#help", delay: 600000, rateLimit });
        t.setElement({});
        t.hook.loaded!(t.tag);
        let last = -Infinity;
        let now = 0;
        let taken = 0;
        for (const gap of gaps) {
          vi.advanceTimersByTime(gap);
          now += gap;
          t.click();
          if (now - last >= rateLimit) {
            taken++;
            last = now;
          }
        }
        expect(t.messages().filter((m) => m === M.CHAT_FLOW_RATE_LIMITED)).toHaveLength(gaps.length - taken);
        vi.clearAllTimers();
      }),
      { numRuns: 200 },
    );
  });
});

describe('"Exit intent: mouse within 5 px of the top moving upward"', () => {
  it("property: within the threshold and above the previous position, nothing else", () => {
    fc.assert(
      fc.property(fc.integer({ min: -20, max: 800 }), fc.option(fc.integer({ min: -20, max: 800 })), fc.integer({ min: 0, max: 20 }), (y, prev, threshold) => {
        expect(isExitIntent(y, prev ?? undefined, threshold)).toBe(prev !== null && y < prev && y <= threshold);
      }),
      { numRuns: 1000 },
    );
  });
  it("the armed page: moving down to 3 px or up to 6 px shows nothing; up to 5 px shows", () => {
    const t = setup();
    t.vendor();
    t.hook.loaded!(t.tag);
    t.move(0);
    t.move(3);
    t.move(300);
    t.move(6);
    vi.runAllTimers();
    expect(t.shown).toEqual([]);
    t.move(5);
    vi.runAllTimers();
    expect(t.shown).toEqual(["help-1"]);
  });
});

describe('the vendor: "Retry defaults 10 attempts, 100 ms", "ready timeout 30000 ms", "element wait 5000 ms, 100 ms poll"', () => {
  it("a vendor object arriving on the 10th attempt (900 ms) is used; never: 'timed out after 10 attempts' at 900 ms", () => {
    const late = setup({ trigger: "load" });
    late.hook.loaded!(late.tag);
    vi.advanceTimersByTime(899);
    late.vendor();
    vi.advanceTimersByTime(1);
    expect(late.shown).toEqual(["help-1"]);

    const never = setup({ trigger: "load" });
    never.hook.loaded!(never.tag);
    vi.advanceTimersByTime(899);
    expect(never.messages()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(never.messages()).toEqual(["timed out after 10 attempts"]);
  });
  it("issue #19: the retries, their interval and the element wait are the bundle's timing values (retryAttempts, retryInterval, elementWait) unless the tag sets its own", () => {
    const timing = { retryAttempts: 3, retryInterval: 250, elementWait: 1000 };
    const never = setup({ trigger: "load" }, "/scores", timing);
    never.hook.loaded!(never.tag);
    vi.advanceTimersByTime(499);
    expect(never.messages()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(never.messages()).toEqual(["timed out after 3 attempts"]);

    const own = setup({ trigger: "load", retries: 2, retryInterval: 50 }, "/scores", timing);
    own.hook.loaded!(own.tag);
    vi.advanceTimersByTime(50);
    expect(own.messages()).toEqual(["timed out after 2 attempts"]);

    const element = setup({ trigger: "click", selector: "#help" }, "/scores", timing);
    element.hook.loaded!(element.tag);
    vi.advanceTimersByTime(999);
    expect(element.messages()).toEqual([]);
    vi.advanceTimersByTime(250);
    expect(element.messages()).toEqual([M.NO_TRIGGER_ELEMENT]);
  });
  it("'need a ready function' when the vendor object has none", () => {
    const t = setup({ trigger: "load" });
    t.vendor(42);
    t.hook.loaded!(t.tag);
    vi.runAllTimers();
    expect(t.logs).toContainEqual(["error", M.NEED_READY_FUNCTION, { tag: "chat-flow" }]);
    expect(t.shown).toEqual([]);
  });
  it("'ready timeout' at 30000 ms, not before; a ready callback after it shows nothing", () => {
    let ready: () => void = () => undefined;
    const t = setup({ trigger: "load" });
    t.vendor((cb: () => void) => (ready = cb));
    t.hook.loaded!(t.tag);
    vi.advanceTimersByTime(29999);
    expect(t.messages()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(t.messages()).toEqual([M.READY_TIMEOUT]);
    ready();
    expect(t.shown).toEqual([]);
  });
  it("the trigger element appearing within 5000 ms is armed; never: 'no trigger element' at 5000 ms; an invalid selector: 'selector not valid'", () => {
    const t = setup({ trigger: "click", selector: "#help" });
    t.vendor();
    t.hook.loaded!(t.tag);
    vi.advanceTimersByTime(3000);
    t.setElement({});
    vi.advanceTimersByTime(100);
    t.click();
    vi.runAllTimers();
    expect(t.shown).toEqual(["help-1"]);

    const never = setup({ trigger: "click", selector: "#help" });
    never.hook.loaded!(never.tag);
    vi.advanceTimersByTime(4999);
    expect(never.messages()).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(never.messages()).toEqual([M.NO_TRIGGER_ELEMENT]);

    const bad = setup({ trigger: "click", selector: "#help" });
    bad.hook.loaded!({ ...bad.tag, chatFlow: { ...bad.tag.chatFlow!, selector: "a[" } });
    expect(bad.messages()).toEqual([M.SELECTOR_NOT_VALID]);
  });
  it("spec section 8, 'need a valid DOM selector' and 'selector not valid': the page's own click trigger (chatFlowPopup({ trigger: 'click', selector })) without a selector, or with a blank one, is not armed; one that does not parse neither; a valid one is armed and shows on its click", () => {
    const t = setup({ trigger: "exitIntent" });
    t.vendor();
    t.hook.loaded!(t.tag);
    for (const selector of [undefined, "", "  ", 42]) {
      t.logs.length = 0;
      expect(t.commands.chatFlowPopup({ trigger: "click", selector })).toBe(false);
      expect(t.logs).toEqual([["warn", M.NEED_VALID_DOM_SELECTOR, { tag: "chat-flow", selector }]]);
    }
    t.logs.length = 0;
    expect(t.commands.chatFlowPopup({ trigger: "click", selector: "a[" })).toBe(false);
    expect(t.messages()).toEqual([M.SELECTOR_NOT_VALID]);
    vi.runAllTimers();
    expect(t.shown).toEqual([]);

    t.logs.length = 0;
    t.setElement({});
    expect(t.commands.chatFlowPopup({ trigger: "click", selector: "#ask" })).toBe(true);
    expect(t.shown).toEqual([]);
    t.click();
    vi.runAllTimers();
    expect(t.shown).toEqual(["help-1"]);
    expect(t.messages()).toEqual([]);
  });
});

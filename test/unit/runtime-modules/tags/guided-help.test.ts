/**
 * The guided-help vendor family (issue 20; spec sections 3, 8 and 9) with a
 * fake clock: the vendor's flow and survey events as the guided-help and
 * guided-help-survey pushes the YAML records consume, the step time spent in
 * tenths of a second, and "guidance widget not available" when the vendor
 * never arrives. The vendor in Chromium: test/browser/tags-guided-help.test.ts.
 */
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ResolvedTag } from "../../../../generator/config/bundle-config.js";
import { GUIDED_HELP_FLAGS, GuidedHelpSettingsSchema } from "../../../../generator/config/schemas/tags.js";
import type { TagFamilies } from "../../../../runtime-modules/core/types";
import { createGuidedHelp } from "../../../../runtime-modules/modules/guided-help/create-guided-help";
import { guidedHelpPush, tenthsOfSecond } from "../../../../runtime-modules/modules/guided-help/flow-events";
import * as M from "../../../../runtime-modules/core/messages";

const SETTINGS = GuidedHelpSettingsSchema.parse({});

function setup(settings: Record<string, unknown> = {}) {
  const guidedHelp = GuidedHelpSettingsSchema.parse(settings);
  const tag = {
    code: "guided-help",
    category: "functional",
    lifecycle: "domReady",
    kind: "script",
    family: "guidedHelp",
    src: "https://guide.example/g.js",
    guidedHelp,
  } as ResolvedTag;
  const logs: Array<[string, string, unknown]> = [];
  const events: Array<Record<string, unknown>> = [];
  const pushed: Array<Record<string, unknown>> = [];
  const win: Record<string, unknown> = {
    document: {},
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (t: ReturnType<typeof setTimeout>) => clearTimeout(t),
  };
  const log = Object.fromEntries(["debug", "info", "warn", "error"].map((l) => [l, (m: string, d: unknown) => logs.push([l, m, d])]));
  const tagFamilies: TagFamilies = {};
  const instance = createGuidedHelp({
    config: { enabled: true },
    tagFamilies,
    win: win as unknown as Window,
    log,
    monitor: { emit: (type: string, d: unknown) => events.push({ type, ...(d as object) }) },
    dataLayer: { push: (p: Record<string, unknown>) => pushed.push(p) },
  } as never);
  const hook = tagFamilies.guidedHelp!;
  let handler: ((name: string, event: unknown) => void) | undefined;
  const listened: string[] = [];
  /** The vendor: records what it is asked to listen to. */
  const vendor = (extra: Record<string, unknown> = {}) =>
    (win[guidedHelp.api] = {
      on(name: string, fn: (name: string, event: unknown) => void) {
        listened.push(name);
        handler = fn;
      },
      ...extra,
    });
  return {
    tag,
    hook,
    logs,
    events,
    pushed,
    listened,
    vendor,
    emit: (name: string, event: unknown) => handler!(name, event),
    commands: instance.commands!,
    messages: () => logs.map(([, m]) => m),
  };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('section 3: "Guided-help flow event: flowId, flowName, flowStep, flowActionStep, flowActionElement, flowActionSubmit, flowActionUrl, step time spent (tenths of a second), flags"', () => {
  const flow = {
    flowId: "f-1",
    flowName: "Onboarding",
    stepNumber: 2,
    stepChildNumber: 1,
    interaction: { element: "next-button", formId: "signup-form", destination: "https://apclassroom.kiwi.example/next" },
  };
  it("each vendor flow event is a guided-help push with the flow, the action and its one flag true", () => {
    for (const [name, flag] of Object.entries(SETTINGS.flowEvents)) {
      expect(guidedHelpPush(name, flow, SETTINGS), name).toEqual({
        event: "guided-help",
        flowId: "f-1",
        flowName: "Onboarding",
        flowStep: 2,
        flowActionStep: "1",
        flowActionElement: "next-button",
        flowActionSubmit: "signup-form",
        flowActionUrl: "https://apclassroom.kiwi.example/next",
        [flag]: true,
      });
    }
    // The default names cover every flag of the spec.
    expect(new Set(Object.values(SETTINGS.flowEvents))).toEqual(new Set(GUIDED_HELP_FLAGS));
  });
  it('"step time spent (tenths of a second)" on the time-spent push; "Step time in tenths of a second"', () => {
    expect(guidedHelpPush("step_completed", { flowId: "f-1" }, SETTINGS, 8550)).toEqual({
      event: "guided-help",
      flowId: "f-1",
      stepTimeSpent: 86,
      timeSpent: true,
    });
    expect(tenthsOfSecond(0)).toBe(0);
    expect(tenthsOfSecond(-500)).toBe(0);
    expect(tenthsOfSecond(149)).toBe(1);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (ms) => {
        const t = tenthsOfSecond(ms);
        return Number.isInteger(t) && Math.abs(t * 100 - ms) <= 50;
      }),
      { numRuns: 1000 },
    );
  });
  it("no flow id, or a vendor event the settings do not name: no push (the records skip a push without a flow id)", () => {
    expect(guidedHelpPush("flow_started", { flowName: "x" }, SETTINGS)).toBeUndefined();
    expect(guidedHelpPush("flow_started", null, SETTINGS)).toBeUndefined();
    expect(guidedHelpPush("checklist_shown", { flowId: "f" }, SETTINGS)).toBeUndefined();
    expect(guidedHelpPush("constructor", { flowId: "f" }, SETTINGS)).toBeUndefined();
  });
  it('"Survey variants have impression, score, feedback, dismiss": guided-help-survey pushes', () => {
    const s = { flowId: "s-77", flowName: "Was this helpful?" };
    expect(guidedHelpPush("nps_survey_started", s, SETTINGS)).toEqual({ event: "guided-help-survey", ...s, impression: true });
    expect(guidedHelpPush("nps_score", { ...s, score: 4 }, SETTINGS)).toEqual({ event: "guided-help-survey", ...s, score: 4 });
    expect(guidedHelpPush("nps_feedback", { ...s, feedback: "clear" }, SETTINGS)).toEqual({ event: "guided-help-survey", ...s, feedback: "clear" });
    expect(guidedHelpPush("nps_ask_me_later_selected", s, SETTINGS)).toEqual({ event: "guided-help-survey", ...s, dismiss: true });
    expect(guidedHelpPush("nps_score", { ...s, score: "" }, SETTINGS)).toBeUndefined();
    expect(guidedHelpPush("nps_feedback", s, SETTINGS)).toBeUndefined();
  });
  it("property: any mapped flow event with a flow id gives exactly one flag, true, and only string or number fields", () => {
    const names = Object.keys(SETTINGS.flowEvents);
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.string({ minLength: 1 }), fc.anything(), fc.anything(), (name, flowId, step, interaction) => {
        const push = guidedHelpPush(name, { flowId, stepNumber: step, interaction }, SETTINGS)!;
        const flags = GUIDED_HELP_FLAGS.filter((f) => f in push);
        expect(flags).toEqual([SETTINGS.flowEvents[name]]);
        expect(push[flags[0]]).toBe(true);
        for (const [k, v] of Object.entries(push)) if (k !== flags[0]) expect(["string", "number"]).toContain(typeof v);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("the vendor in the page (fake clock)", () => {
  it('"guidance widget not available" when the vendor never arrives within its timeout (5000 ms), once, and not before', () => {
    const s = setup();
    expect(s.hook.prepare!(s.tag)).toBe(true);
    vi.advanceTimersByTime(4900);
    expect(s.messages()).not.toContain(M.GUIDANCE_WIDGET_NOT_AVAILABLE);
    vi.advanceTimersByTime(300);
    expect(s.messages().filter((m) => m === M.GUIDANCE_WIDGET_NOT_AVAILABLE)).toHaveLength(1);
    expect(s.events).toContainEqual(expect.objectContaining({ type: "guidedHelp", tag: "guided-help", state: "unavailable" }));
    vi.advanceTimersByTime(60_000);
    expect(s.messages().filter((m) => m === M.GUIDANCE_WIDGET_NOT_AVAILABLE)).toHaveLength(1);
  });
  it("the timeout comes from the config (timeout 1200 ms)", () => {
    const s = setup({ timeout: 1200 });
    s.hook.prepare!(s.tag);
    vi.advanceTimersByTime(1100);
    expect(s.messages()).toEqual([]);
    vi.advanceTimersByTime(200);
    expect(s.messages()).toEqual([M.GUIDANCE_WIDGET_NOT_AVAILABLE]);
  });
  it("a vendor arriving late is listened to (on 'all'); its events become data-layer pushes with the step time from the step's start", () => {
    const s = setup();
    s.hook.prepare!(s.tag);
    vi.advanceTimersByTime(700);
    s.vendor();
    vi.advanceTimersByTime(100);
    expect(s.listened).toEqual(["all"]);
    s.emit("flow_started", { flowId: "f-1", flowName: "Onboarding", timestamp: 1000 });
    s.emit("step_started", { flowId: "f-1", stepId: "a", stepNumber: 1, timestamp: 2000 });
    s.emit("step_completed", { flowId: "f-1", stepId: "a", stepNumber: 1, timestamp: 10_550 });
    s.emit("flow_error", { flowId: "f-1", flowName: "Onboarding" });
    s.emit("unknown_event", { flowId: "f-1" });
    expect(s.pushed).toEqual([
      { event: "guided-help", flowId: "f-1", flowName: "Onboarding", impression: true },
      { event: "guided-help", flowId: "f-1", flowStep: 1, stepImpression: true },
      { event: "guided-help", flowId: "f-1", flowStep: 1, stepTimeSpent: 86, timeSpent: true },
      { event: "guided-help", flowId: "f-1", flowName: "Onboarding", error: true },
    ]);
    expect(s.commands.guidedHelpPushes()).toEqual(s.pushed);
    vi.advanceTimersByTime(10_000);
    expect(s.messages()).not.toContain(M.GUIDANCE_WIDGET_NOT_AVAILABLE);
  });
  it('guidedHelpIdentify: the visitor identified to the vendor once it arrives, at once when it is there; no id: "no appcues object or identified variables"', () => {
    const s = setup();
    const calls: unknown[][] = [];
    s.hook.prepare!(s.tag);
    s.commands.guidedHelpIdentify!("h-1", { namespace: "st" });
    expect(calls).toEqual([]);
    s.vendor({ identify: (...args: unknown[]) => calls.push(args) });
    vi.advanceTimersByTime(100);
    expect(calls).toEqual([["h-1", { namespace: "st" }]]);
    s.commands.guidedHelpIdentify!("h-2");
    expect(calls).toEqual([
      ["h-1", { namespace: "st" }],
      ["h-2", {}],
    ]);
    for (const id of [undefined, "", 42]) s.commands.guidedHelpIdentify!(id);
    expect(s.messages()).toEqual(Array(3).fill(M.NO_APPCUES_OBJECT));
    expect(calls).toHaveLength(2);
  });
  it('"no appcues object or identified variables": a vendor without identify, or none at all while an identify waits', () => {
    const withoutIdentify = setup();
    withoutIdentify.vendor();
    withoutIdentify.hook.prepare!(withoutIdentify.tag);
    withoutIdentify.commands.guidedHelpIdentify!("h-1", {});
    vi.advanceTimersByTime(100);
    expect(withoutIdentify.messages()).toEqual([M.NO_APPCUES_OBJECT]);
    expect(withoutIdentify.listened).toEqual(["all"]);

    const never = setup();
    never.hook.prepare!(never.tag);
    never.commands.guidedHelpIdentify!("h-1", {});
    vi.advanceTimersByTime(5200);
    expect(never.messages()).toEqual([M.GUIDANCE_WIDGET_NOT_AVAILABLE, M.NO_APPCUES_OBJECT]);
  });
  it("the vendor's handler never throws into the vendor: a failing push is logged", () => {
    const s = setup();
    s.vendor();
    s.hook.prepare!(s.tag);
    vi.advanceTimersByTime(100);
    s.pushed.push = () => {
      throw new Error("boom");
    };
    expect(() => s.emit("flow_started", { flowId: "f" })).not.toThrow();
    expect(s.logs).toContainEqual(["error", M.COMMAND_FAILED, expect.objectContaining({ tag: "guided-help", vendorEvent: "flow_started" })]);
  });
});

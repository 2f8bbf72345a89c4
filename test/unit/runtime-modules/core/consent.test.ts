import { describe, expect, it, vi } from "vitest";
import { CONSENT_EVENT, createConsentGate } from "../../../../runtime-modules/core/consent";
import { createLogger } from "../../../../runtime-modules/core/log";
import { bundleConfig } from "../helpers/config";
import { fakePage } from "../helpers/fake-page";

function setup(options: { activeGroups?: string; internal?: boolean; wrapper?: (...args: unknown[]) => unknown } = {}) {
  const page = fakePage({ activeGroups: options.activeGroups });
  if (options.wrapper) page.window.OptanonWrapper = options.wrapper;
  const config = bundleConfig({ site: { code: "scores", name: "Scores", appId: "8", spa: false, internal: !!options.internal } });
  const log = createLogger({ emit() {} }, false);
  return { page, log, gate: createConsentGate(config, page.window as never, log) };
}

describe("createConsentGate", () => {
  it("allows() reads the banner's current active groups", () => {
    const { page, gate } = setup({ activeGroups: ",C0001,C0002," });
    expect(gate.allows("performance")).toBe(true);
    expect(gate.allows("functional")).toBe(false);
    page.window.OnetrustActiveGroups = ",C0001,C0003,";
    expect(gate.allows("functional")).toBe(true);
  });
  it('"full consent on internal sites": everything allowed, callbacks run at once', () => {
    const { gate, page } = setup({ internal: true });
    const fn = vi.fn();
    gate.whenAllowed("marketing", fn);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(page.window.OptanonWrapper).toBeUndefined();
  });
  it("whenAllowed calls back at once when consent is already given, without hooking the banner", () => {
    const { gate, page } = setup({ activeGroups: ",C0001,C0003," });
    const fn = vi.fn();
    gate.whenAllowed("functional", fn);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(page.windowListeners[CONSENT_EVENT]).toBeUndefined();
  });
  it("waits for the banner's consent.onetrust window event, then calls back once", () => {
    const { gate, page } = setup({ activeGroups: ",C0001," });
    const fn = vi.fn();
    gate.whenAllowed("functional", fn);
    expect(fn).not.toHaveBeenCalled();
    page.fireWindow(CONSENT_EVENT);
    expect(fn).not.toHaveBeenCalled();
    page.window.OnetrustActiveGroups = ",C0001,C0003,";
    page.fireWindow(CONSENT_EVENT);
    page.fireWindow(CONSENT_EVENT);
    expect(fn).toHaveBeenCalledTimes(1);
  });
  it("re-checks from OptanonWrapper and keeps calling a wrapper the page set before", () => {
    const pageWrapper = vi.fn(() => "page result");
    const { gate, page } = setup({ wrapper: pageWrapper });
    const perf = vi.fn();
    const marketing = vi.fn();
    gate.whenAllowed("performance", perf);
    gate.whenAllowed("marketing", marketing);
    page.window.OnetrustActiveGroups = ",C0001,C0002,";
    expect(page.window.OptanonWrapper("arg")).toBe("page result");
    expect(pageWrapper).toHaveBeenCalledWith("arg");
    expect(perf).toHaveBeenCalledTimes(1);
    expect(marketing).not.toHaveBeenCalled();
    page.window.OnetrustActiveGroups = ",C0001,C0002,C0004,";
    page.window.OptanonWrapper();
    expect(marketing).toHaveBeenCalledTimes(1);
    expect(pageWrapper).toHaveBeenCalledTimes(2);
  });
  it("hooks the banner only once however many callbacks wait", () => {
    const { gate, page } = setup();
    gate.whenAllowed("performance", () => {});
    gate.whenAllowed("functional", () => {});
    expect(page.windowListeners[CONSENT_EVENT]).toHaveLength(1);
  });
  it("still re-checks when the page's own wrapper throws", () => {
    const { gate, page } = setup({
      wrapper: () => {
        throw new Error("page bug");
      },
    });
    const fn = vi.fn();
    gate.whenAllowed("performance", fn);
    page.window.OnetrustActiveGroups = ",C0001,C0002,";
    expect(() => page.window.OptanonWrapper()).toThrow("page bug");
    expect(fn).toHaveBeenCalledTimes(1);
  });
  it("a throwing callback is logged and does not stop the others", () => {
    const { gate, page, log } = setup();
    const after = vi.fn();
    gate.whenAllowed("performance", () => {
      throw new Error("module bug");
    });
    gate.whenAllowed("performance", after);
    page.window.OnetrustActiveGroups = ",C0001,C0002,";
    expect(() => page.fireWindow(CONSENT_EVENT)).not.toThrow();
    expect(after).toHaveBeenCalledTimes(1);
    expect(log.entries.some((e) => e.level === "error")).toBe(true);
  });
});

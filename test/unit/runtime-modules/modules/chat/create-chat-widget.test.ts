import { afterEach, describe, expect, it, vi } from "vitest";
import type { BundleConfig } from "../../../../../generator/config/bundle-config.js";
import { createCookies } from "../../../../../runtime-modules/core/cookies";
import { createLoadScript } from "../../../../../runtime-modules/core/load-script";
import { createLogger } from "../../../../../runtime-modules/core/log";
import { createMonitor } from "../../../../../runtime-modules/core/monitor";
import { readPage } from "../../../../../runtime-modules/core/page";
import { CHAT_SCRIPT_ID, createChatWidget } from "../../../../../runtime-modules/modules/chat/create-chat-widget";
import { registry } from "../../../../../runtime-modules/registry";
import { bundleConfig, chatConfig, inertServices, consentFor } from "../../helpers/config";
import { fakePage, flush, type FakePageOptions } from "../../helpers/fake-page";

/** raw: set after schema parsing, for values the generator would reject but the runtime still guards against. */
function setup(
  pageOptions: FakePageOptions,
  chat: Record<string, unknown> = {},
  raw: Record<string, unknown> = {},
  timing: Partial<BundleConfig["timing"]> = {},
) {
  const page = fakePage({ activeGroups: ",C0001,C0003,", ...pageOptions });
  const defaults = bundleConfig();
  const bundle = bundleConfig({ timing: { ...defaults.timing, ...timing } });
  const monitor = createMonitor(page.window);
  const log = createLogger(monitor, false);
  const config = { ...chatConfig({ pages: ["/register-for-an-exam", "/scores", "/sat/registration", "/contact-us"], ...chat }), ...raw };
  const instance = createChatWidget({
    sampling: { rate: 100, sampledIn: () => true },
    tagFamilies: {},
    config,
    bundle,
    log,
    monitor,
    consent: consentFor(bundle, page.window as never, log),
    cookies: createCookies(page.document, { hostname: "scores.kiwi.example", protocol: "https:", apexDomain: "kiwi.example" }),
    page: readPage(page.window.location, page.document),
    loadScript: createLoadScript(page.document as never),
    win: page.window as never,
    ...inertServices(),
  });
  return { page, log, config, commands: instance.commands! };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("createChatWidget", () => {
  it("its script id is the marker in the module's manifest (module.ts)", () => {
    expect(CHAT_SCRIPT_ID).toBe("sitetags-chat-widget");
    expect(registry.chat.markers).toContain(CHAT_SCRIPT_ID);
  });
  it('"Chat widget pages are listed by path": loads config.scriptSrc on a listed page and below it', () => {
    for (const path of ["/scores", "/scores/details", "/contact-us/", "/sat/registration/step"]) {
      const { page, config } = setup({ url: "https://scores.kiwi.example" + path });
      expect(page.scripts().map((s) => [s.id, s.src])).toEqual([["sitetags-chat-widget", config.scriptSrc]]);
      vi.unstubAllGlobals();
    }
  });
  it("does not load on other paths", () => {
    const { page, log } = setup({ url: "https://scores.kiwi.example/scoresheet" });
    expect(page.scripts()).toHaveLength(0);
    expect(log.entries[0]).toMatchObject({ message: "current path does not match the route pattern", data: { tag: "chat", path: "/scoresheet" } });
  });
  it("loads on paths matching a configured page pattern", () => {
    const { page } = setup({ url: "https://scores.kiwi.example/help/42" }, { pagePatterns: ["^/help/\\d+$"] });
    expect(page.scripts()).toHaveLength(1);
  });
  it('"A query parameter cb-disable-{tagcode} disables that tag": ?cb-disable-chat', () => {
    const { page, log, commands } = setup({ url: "https://scores.kiwi.example/scores?cb-disable-chat=1" });
    expect(page.scripts()).toHaveLength(0);
    expect(log.entries[0].message).toBe("tag disabled by query parameter");
    expect(commands.isLoaded()).toBe(false);
  });
  it('"Messaging tag needs functional consent": the chat waits for its consent category (functional by default)', () => {
    const { page } = setup({ url: "https://scores.kiwi.example/scores", activeGroups: ",C0001,C0002," });
    expect(page.scripts()).toHaveLength(0);
    page.window.OnetrustActiveGroups = ",C0001,C0002,C0003,";
    page.fireWindow("consent.onetrust");
    expect(page.scripts()).toHaveLength(1);
  });
  it("a configured consent category replaces functional", () => {
    const { page } = setup({ url: "https://scores.kiwi.example/scores", activeGroups: ",C0001,C0003," }, { consent: "marketing" });
    expect(page.scripts()).toHaveLength(0);
  });
  it("passes deploymentId to the script as data-deployment-id", () => {
    const { page } = setup({ url: "https://scores.kiwi.example/scores" }, { deploymentId: "dep-7" });
    expect(page.scripts()[0].getAttribute("data-deployment-id")).toBe("dep-7");
  });
  it("isLoaded() turns true once the script has loaded", async () => {
    const { page, commands } = setup({ url: "https://scores.kiwi.example/scores" });
    expect(commands.isLoaded()).toBe(false);
    page.scripts()[0].onload!();
    await flush();
    expect(commands.isLoaded()).toBe(true);
  });
  it('"script embedding failed" is logged when the script does not load', async () => {
    const { page, log, commands } = setup({ url: "https://scores.kiwi.example/scores" });
    page.scripts()[0].onerror!();
    await flush();
    expect(log.entries.at(-1)).toMatchObject({ level: "error", message: "script embedding failed" });
    expect(commands.isLoaded()).toBe(false);
  });
  it("open() clicks the launcher element once the widget has loaded", async () => {
    const { page, commands, log } = setup({ url: "https://scores.kiwi.example/scores" }, { launcherSelector: "#chat-launcher" }, {}, { widgetLink: 0 });
    expect(commands.open()).toBe(false);
    expect(log.entries.at(-1)!.message).toBe("widget not loaded");
    page.scripts()[0].onload!();
    await flush();
    expect(commands.open()).toBe(false);
    expect(log.entries.at(-1)!.message).toBe("no trigger element");
    const launcher = page.register("#chat-launcher");
    expect(commands.open()).toBe(true);
    expect(launcher.clicks).toBe(1);
  });
  it('issue #19, spec section 9 "widget link 1200": a chat link followed before the widget is there is kept timing.widgetLink ms, looked for every timing.retryInterval ms', async () => {
    vi.useFakeTimers();
    try {
      const { page, commands, log } = setup(
        { url: "https://scores.kiwi.example/scores" },
        { launcherSelector: "#chat-launcher" },
        {},
        { widgetLink: 1200, retryInterval: 100 },
      );
      page.window.setTimeout = (fn: () => void, ms: number) => setTimeout(fn, ms);
      // The widget and its launcher come 1100 ms after the link: clicked then.
      expect(commands.open()).toBe(false);
      await vi.advanceTimersByTimeAsync(1000);
      page.scripts()[0].onload!();
      const launcher = page.register("#chat-launcher");
      expect(launcher.clicks).toBe(0);
      await vi.advanceTimersByTimeAsync(100);
      expect(launcher.clicks).toBe(1);
      await vi.advanceTimersByTimeAsync(5000);
      expect(launcher.clicks).toBe(1);

      // A launcher that never comes: given up at 1200 ms, logged, not before.
      const other = setup(
        { url: "https://scores.kiwi.example/scores" },
        { launcherSelector: "#chat-launcher-2" },
        {},
        { widgetLink: 1200, retryInterval: 100 },
      );
      other.page.window.setTimeout = (fn: () => void, ms: number) => setTimeout(fn, ms);
      expect(other.commands.open()).toBe(false);
      await vi.advanceTimersByTimeAsync(1199);
      expect(other.log.entries.filter((e) => e.message === "widget not loaded")).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(other.log.entries.at(-1)).toMatchObject({ level: "warn", message: "widget not loaded", data: { tag: "chat" } });
      expect(log.entries.filter((e) => e.message === "widget not loaded")).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
  it('"A CSS or DOM selector is checked for validity before use": an invalid launcher selector is logged as "selector not valid" and never used', async () => {
    const { page, commands, log } = setup({ url: "https://scores.kiwi.example/scores" }, {}, { launcherSelector: "##bad" }, { widgetLink: 0 });
    expect(log.entries[0]).toMatchObject({ level: "warn", message: "selector not valid", data: { selector: "##bad" } });
    expect(page.scripts()).toHaveLength(1);
    page.scripts()[0].onload!();
    await flush();
    expect(() => commands.open()).not.toThrow();
    expect(commands.open()).toBe(false);
  });
});

import { afterEach, describe, expect, it, vi } from "vitest";
import { boot as bootWith, type Factories } from "../../../../runtime-modules/boot/boot";
import type { BundleConfig } from "../../../../generator/config/bundle-config.js";
import { allRuleFeatures } from "../../../../runtime-modules/rules/features";

/** boot as a bundle calls it, with every rule feature. */
const boot = (config: BundleConfig, factories: Factories) => bootWith(config, factories, { rules: allRuleFeatures() });
import type { ModuleServices } from "../../../../runtime-modules/core/types";
import { createChatWidget } from "../../../../runtime-modules/modules/chat/create-chat-widget";
import { createSurvey } from "../../../../runtime-modules/modules/survey/create-survey";
import { bundleConfig, chatConfig, surveyConfig } from "../helpers/config";
import { fakePage, type FakePageOptions } from "../helpers/fake-page";

function load(options: FakePageOptions) {
  const page = fakePage(options);
  vi.stubGlobal("window", page.window);
  vi.stubGlobal("document", page.document);
  return page;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("boot", () => {
  it('"elsewhere it logs `not authorized for this domain` (code dynamic_host_not_allowed) and does nothing else"', () => {
    const page = load({ url: "https://evil.example/scores", activeGroups: ",C0001,C0003," });
    const factory = vi.fn(createChatWidget);
    boot(bundleConfig({ modules: { chat: chatConfig() } }), { chat: factory });
    expect(factory).not.toHaveBeenCalled();
    expect(page.window.sitetags).toBeUndefined();
    expect(page.scripts()).toHaveLength(0);
    expect(page.monitorEvents).toHaveLength(1);
    expect(page.monitorEvents[0]).toMatchObject({
      type: "log",
      level: "error",
      message: "not authorized for this domain",
      code: "dynamic_host_not_allowed",
    });
  });
  it("a bundle does not run on another environment's host", () => {
    const page = load({ url: "https://scores-qa.kiwi.example/" });
    boot(bundleConfig({ env: "prod" }), {});
    expect(page.window.sitetags).toBeUndefined();
  });
  it('"dev bundles also run on localhost and 127.0.0.1"', () => {
    for (const url of ["http://localhost:8080/", "http://127.0.0.1:5173/"]) {
      const page = load({ url });
      boot(bundleConfig({ env: "dev" }), {});
      expect(page.window.sitetags).toBeDefined();
      vi.unstubAllGlobals();
    }
    const prod = load({ url: "http://localhost:8080/" });
    boot(bundleConfig({ env: "prod" }), {});
    expect(prod.window.sitetags).toBeUndefined();
  });
  it("exposes a small read-only window.sitetags: version, site, env, modules, log, commands", () => {
    const page = load({ url: "https://scores.kiwi.example/scores", activeGroups: ",C0001,C0003," });
    boot(bundleConfig({ modules: { chat: chatConfig() } }), { chat: createChatWidget });
    const api = page.window.sitetags;
    expect(api.version).toBe("0.1.0");
    expect(api.site).toBe("scores");
    expect(api.env).toBe("prod");
    expect(api.modules).toEqual(["chat"]);
    expect(Array.isArray(api.log)).toBe(true);
    expect(Object.keys(api.commands.chat).sort()).toEqual(["isLoaded", "open"]);
    expect(api.commands.chat.isLoaded()).toBe(false);
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.isFrozen(api.commands)).toBe(true);
    expect(() => {
      "use strict";
      api.site = "other";
    }).toThrow();
    api.modules.push("x");
    expect(api.modules).toEqual(["chat"]);
  });
  it("env is the environment detected from the hostname table", () => {
    const page = load({ url: "https://a.scores.kiwi.example/" });
    boot(bundleConfig({ hosts: { prod: ["*.scores.kiwi.example"], qa: ["a.scores.kiwi.example"] }, env: "prod" }), {});
    expect(page.window.sitetags.env).toBe("qa");
  });
  it("a second copy of the bundle on the same page logs and returns", () => {
    const page = load({ url: "https://scores.kiwi.example/scores", activeGroups: ",C0001,C0003," });
    const config = bundleConfig({ modules: { chat: chatConfig() } });
    boot(config, { chat: createChatWidget });
    const first = page.window.sitetags;
    const second = vi.fn(createChatWidget);
    boot(config, { chat: second });
    expect(second).not.toHaveBeenCalled();
    expect(page.window.sitetags).toBe(first);
    expect(page.scripts()).toHaveLength(1);
    expect(page.monitorEvents.some((e) => e.type === "log" && e.message === "already loaded on this page")).toBe(true);
  });
  it("calls each factory with the services and its own config; a throwing factory is logged, the others still run", () => {
    const page = load({ url: "https://scores.kiwi.example/done/", activeGroups: ",C0001,C0002," });
    const config = bundleConfig({ modules: { chat: chatConfig(), survey: surveyConfig() } });
    let received: ModuleServices<unknown> | undefined;
    boot(config, {
      chat: () => {
        throw new Error("chat bug");
      },
      survey: (services) => {
        received = services;
        return createSurvey(services);
      },
    });
    expect(received!.config).toBe(config.modules.survey);
    expect(received!.bundle).toBe(config);
    for (const key of ["log", "monitor", "consent", "cookies", "page", "loadScript"]) expect(received).toHaveProperty(key);
    expect(page.window.sitetags.modules).toEqual(["survey"]);
    expect(page.window.sitetags.log.some((e: { message: string; data: { module: string } }) => e.message === "module failed" && e.data.module === "chat")).toBe(
      true,
    );
    expect(
      page
        .scripts()
        .map((s) => s.id)
        .filter((id) => id !== "sitetags-fpid"),
    ).toEqual(["sitetags-survey"]);
  });
  it('an element with id="sitetags" (named access on window) is not taken for a first copy', () => {
    const page = load({ url: "https://scores.kiwi.example/" });
    Object.setPrototypeOf(page.window, { sitetags: { tagName: "DIV" } });
    boot(bundleConfig(), {});
    expect(Object.getOwnPropertyDescriptor(page.window, "sitetags")?.value.site).toBe("scores");
  });
  it("a module whose configuration says enabled: false is not started", () => {
    const page = load({ url: "https://scores.kiwi.example/scores" });
    const factory = vi.fn(createChatWidget);
    boot(bundleConfig({ modules: { chat: chatConfig({ enabled: false }) } }), { chat: factory });
    expect(factory).not.toHaveBeenCalled();
    expect(page.window.sitetags.modules).toEqual([]);
  });
  it("a factory without configuration is skipped with a warning", () => {
    const page = load({ url: "https://scores.kiwi.example/" });
    const factory = vi.fn(createChatWidget);
    boot(bundleConfig(), { chat: factory });
    expect(factory).not.toHaveBeenCalled();
    expect(page.window.sitetags.modules).toEqual([]);
    expect(page.window.sitetags.log).toContainEqual(expect.objectContaining({ level: "warn", message: "module has no configuration" }));
  });
  it("a throwing command is logged, not thrown into the page", () => {
    const page = load({ url: "https://scores.kiwi.example/" });
    boot(bundleConfig({ modules: { chat: chatConfig() } }), {
      chat: () => ({
        commands: {
          bad: () => {
            throw new Error("command bug");
          },
          add: (a, b) => (a as number) + (b as number),
        },
      }),
    });
    expect(page.window.sitetags.commands.chat.add(2, 3)).toBe(5);
    expect(() => page.window.sitetags.commands.chat.bad()).not.toThrow();
    expect(page.window.sitetags.log.at(-1)).toMatchObject({ message: "command failed", data: { module: "chat", command: "bad" } });
  });
  it("a rule's command that throws is the action's failure: a waitBeforeNext rule stops there (the page's commands stay guarded)", async () => {
    const page = load({ url: "https://scores.kiwi.example/" });
    const rule = (id: string, actions: unknown[]) => ({ id, name: id, order: 50, enabled: true, events: [{ type: "libraryLoaded" }], conditions: [], actions });
    const config = bundleConfig({
      modules: { chat: chatConfig() },
      rules: [
        rule("r", [
          { type: "command", module: "chat", name: "bad", args: [], waitBeforeNext: true },
          { type: "pushDataLayer", data: { after: "failed wait" } },
        ]),
      ],
    } as never);
    boot(config, {
      chat: () => ({
        commands: {
          bad: () => {
            throw new Error("command bug");
          },
        },
      }),
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(JSON.stringify(page.window.kiwiDataLayer ?? [])).not.toContain("failed wait");
    expect(page.window.sitetags.log.map((e: { message: string }) => e.message)).not.toContain("command failed");
  });
  it("a data-layer slice compares the page's address once for all its rules' conditions (issue #21); a push after the address changed sees the new page", async () => {
    const page = load({ url: "https://scores.kiwi.example/scores" });
    const rule = (id: string, event: string, path: string) => ({
      id,
      name: id,
      order: 50,
      enabled: true,
      events: [{ type: "dataLayerPush", event }],
      conditions: [{ type: "path", startsWith: path }],
      actions: [{ type: "log", level: "warn", message: "vouchers order ID missing" }],
    });
    page.window.performance = { now: () => 0 };
    boot(bundleConfig({ rules: [rule("a", "e", "/scores"), rule("b", "e", "/scores"), rule("c", "e", "/scores"), rule("d", "f", "/other")] } as never), {});
    await new Promise((resolve) => setTimeout(resolve, 20));
    const loc = page.window.location;
    let href = loc.href as string;
    let reads = 0;
    Object.defineProperty(loc, "href", { get: () => (reads++, href) });
    const fired = () =>
      page.window.sitetags.log
        .filter((e: { message: string }) => e.message === "vouchers order ID missing")
        .map((e: { data: { rule: string } }) => e.data.rule);
    page.window.kiwiDataLayer.push({ event: "e" });
    expect(fired()).toEqual(["a", "b", "c"]);
    expect(reads).toBe(1);
    // The page's own code changes the address between slices: the next push's rules see it.
    href = "https://scores.kiwi.example/other";
    loc.pathname = "/other";
    page.window.kiwiDataLayer.push({ event: "f" });
    page.window.kiwiDataLayer.push({ event: "e" });
    expect(fired()).toEqual(["a", "b", "c", "d"]);
  });
  it('"A bundle never throws into the page": not even with a broken config or no window', () => {
    load({ url: "https://scores.kiwi.example/" });
    expect(() => boot({} as never, {})).not.toThrow();
    vi.unstubAllGlobals();
    expect(() => boot(bundleConfig(), {})).not.toThrow();
  });
  it("in debug mode (?sitetags-debug=1) logs print to the console with the [sitetags] prefix", () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    load({ url: "https://evil.example/?sitetags-debug=1" });
    boot(bundleConfig(), {});
    expect(spy).toHaveBeenCalledWith("[sitetags]", "not authorized for this domain", "(dynamic_host_not_allowed)", expect.anything());
    spy.mockRestore();
  });
  it("without debug mode nothing reaches the console", () => {
    const spies = (["debug", "info", "warn", "error", "log"] as const).map((level) => vi.spyOn(console, level).mockImplementation(() => {}));
    load({ url: "https://evil.example/" });
    boot(bundleConfig(), {});
    for (const spy of spies) {
      expect(spy).not.toHaveBeenCalled();
      spy.mockRestore();
    }
  });
  it("passes the bundle's CSP nonce on to the scripts it injects", () => {
    const page = load({ url: "https://scores.kiwi.example/scores", activeGroups: ",C0001,C0003,", currentScript: { nonce: "abc" } });
    boot(bundleConfig({ modules: { chat: chatConfig() } }), { chat: createChatWidget });
    expect(page.scripts()[0].getAttribute("nonce")).toBe("abc");
  });
});

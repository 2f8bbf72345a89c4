import { afterEach, describe, expect, it, vi } from "vitest";
import { createCookies } from "../../../../../runtime-modules/core/cookies";
import { createLoadScript } from "../../../../../runtime-modules/core/load-script";
import { createLogger } from "../../../../../runtime-modules/core/log";
import { createMonitor } from "../../../../../runtime-modules/core/monitor";
import { readPage } from "../../../../../runtime-modules/core/page";
import { createSurvey, SURVEY_SCRIPT_ID } from "../../../../../runtime-modules/modules/survey/create-survey";
import { registry } from "../../../../../runtime-modules/registry";
import { bundleConfig, inertServices, surveyConfig, consentFor } from "../../helpers/config";
import { fakePage, flush, type FakePageOptions } from "../../helpers/fake-page";

/** raw: set after schema parsing, for values the generator would reject but the runtime still guards against. */
function setup(pageOptions: FakePageOptions, survey: Record<string, unknown> = {}, internal = false, raw: Record<string, unknown> = {}) {
  const page = fakePage({ activeGroups: ",C0001,C0002,", ...pageOptions });
  const bundle = bundleConfig({ site: { code: "bigfuture", name: "BigFuture", appId: "1", spa: false, internal } });
  const monitor = createMonitor(page.window);
  const log = createLogger(monitor, false);
  const config = { ...surveyConfig(survey), ...raw };
  const instance = createSurvey({
    sampling: { rate: 100, sampledIn: () => true },
    tagFamilies: {},
    config,
    bundle,
    log,
    monitor,
    consent: consentFor(bundle, page.window as never, log),
    cookies: createCookies(page.document, { hostname: "bigfuture.kiwi.example", protocol: "https:", apexDomain: "kiwi.example" }),
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

describe("createSurvey", () => {
  it("its script id is the marker in the module's manifest (module.ts)", () => {
    expect(SURVEY_SCRIPT_ID).toBe("sitetags-survey");
    expect(registry.survey.markers).toContain(SURVEY_SCRIPT_ID);
  });
  it('"survey needs performance consent, a script source and passing path check": all three given, it loads', async () => {
    const { page, config, commands } = setup({ url: "https://bigfuture.kiwi.example/help/" });
    expect(page.scripts().map((s) => [s.id, s.src])).toEqual([["sitetags-survey", config.scriptSrc]]);
    page.scripts()[0].onload!();
    await flush();
    expect(commands.isLoaded()).toBe(true);
  });
  it("without performance consent it waits", () => {
    const { page } = setup({ url: "https://bigfuture.kiwi.example/help/", activeGroups: ",C0001,C0003," });
    expect(page.scripts()).toHaveLength(0);
    page.window.OnetrustActiveGroups = ",C0001,C0002,";
    page.window.OptanonWrapper();
    expect(page.scripts()).toHaveLength(1);
  });
  it('"Internal sites always allow"', () => {
    const { page } = setup({ url: "https://bigfuture.kiwi.example/help/", activeGroups: undefined }, {}, true);
    expect(page.scripts()).toHaveLength(1);
  });
  it("without a script source it is skipped with a warning", () => {
    const { page, log } = setup({ url: "https://bigfuture.kiwi.example/help/" }, {}, false, { scriptSrc: "" });
    expect(page.scripts()).toHaveLength(0);
    expect(log.entries[0]).toMatchObject({ level: "warn", message: "required data missing", data: { field: "scriptSrc" } });
  });
  it('"loads only on ... trailing-slash paths"', () => {
    const { page, log } = setup({ url: "https://bigfuture.kiwi.example/help" });
    expect(page.scripts()).toHaveLength(0);
    expect(log.entries[0].message).toBe("current path does not match the route pattern");
  });
  it("configured path patterns must match too", () => {
    expect(setup({ url: "https://bigfuture.kiwi.example/help/" }, { paths: ["^/faq/"] }).page.scripts()).toHaveLength(0);
    vi.unstubAllGlobals();
    expect(setup({ url: "https://bigfuture.kiwi.example/faq/1/" }, { paths: ["^/faq/"] }).page.scripts()).toHaveLength(1);
  });
  it('"cb-disable-survey" disables it', () => {
    const { page, log } = setup({ url: "https://bigfuture.kiwi.example/help/?cb-disable-survey" });
    expect(page.scripts()).toHaveLength(0);
    expect(log.entries[0].message).toBe("tag disabled by query parameter");
  });
  it("a valid mountSelector is passed on as data-mount-selector; an invalid one is logged and left out", () => {
    expect(setup({ url: "https://bigfuture.kiwi.example/x/" }, { mountSelector: "#survey" }).page.scripts()[0].getAttribute("data-mount-selector")).toBe(
      "#survey",
    );
    vi.unstubAllGlobals();
    const bad = setup({ url: "https://bigfuture.kiwi.example/x/" }, {}, false, { mountSelector: "##" });
    expect(bad.log.entries[0]).toMatchObject({ level: "warn", message: "selector not valid", data: { selector: "##" } });
    expect(bad.page.scripts()).toHaveLength(1);
    expect(bad.page.scripts()[0].getAttribute("data-mount-selector")).toBeNull();
  });
});

import { afterEach, describe, expect, it, vi } from "vitest";
import { embedTag, skipTag } from "../../../../runtime-modules/core/embed-tag";
import { createLoadScript } from "../../../../runtime-modules/core/load-script";
import { createLogger } from "../../../../runtime-modules/core/log";
import { createMonitor } from "../../../../runtime-modules/core/monitor";
import { bundleConfig, consentFor } from "../helpers/config";
import { fakePage, flush, type FakePageOptions } from "../helpers/fake-page";

function setup(options: FakePageOptions = {}) {
  const page = fakePage(options);
  const monitor = createMonitor(page.window);
  const log = createLogger(monitor, false);
  const services = {
    log,
    monitor,
    consent: consentFor(bundleConfig(), page.window as never, log),
    loadScript: createLoadScript(page.document as never),
    win: page.window as never,
  };
  return { page, log, services };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("embedTag", () => {
  it("loads the script at once when consent is given and the DOM is ready, and reports each step", async () => {
    const { page, services, log } = setup({ activeGroups: ",C0001,C0003," });
    const onLoaded = vi.fn();
    embedTag(services, "chat", "functional", "https://c.example/w.js", { id: "sitetags-chat-widget" }, onLoaded);
    expect(page.scripts()).toHaveLength(1);
    page.scripts()[0].onload!();
    await flush();
    expect(onLoaded).toHaveBeenCalledTimes(1);
    expect(page.monitorEvents.filter((e) => e.type === "tag").map((e) => e.state)).toEqual(["loading", "loaded"]);
    expect(log.entries.map((e) => e.message)).toEqual(["tag loaded"]);
  });
  it('"tags embed skipped when consent not given": waits for consent, then loads', () => {
    const { page, services, log } = setup({ activeGroups: ",C0001," });
    embedTag(services, "chat", "functional", "https://c.example/w.js", {}, () => {});
    expect(page.scripts()).toHaveLength(0);
    expect(log.entries[0]).toMatchObject({ message: "tags embed skipped when consent not given", data: { tag: "chat", consent: "functional" } });
    page.window.OnetrustActiveGroups = ",C0001,C0003,";
    page.fireWindow("consent.onetrust");
    expect(page.scripts()).toHaveLength(1);
  });
  it("waits for DOM ready after consent", () => {
    const { page, services } = setup({ activeGroups: ",C0001,C0003,", readyState: "loading" });
    embedTag(services, "chat", "functional", "https://c.example/w.js", {}, () => {});
    expect(page.scripts()).toHaveLength(0);
    page.fireDocument("DOMContentLoaded");
    expect(page.scripts()).toHaveLength(1);
  });
  it('a failing script is logged as "script embedding failed", never thrown', async () => {
    const { page, services, log } = setup({ activeGroups: ",C0001,C0003," });
    const onLoaded = vi.fn();
    embedTag(services, "chat", "functional", "https://c.example/w.js", {}, onLoaded);
    page.scripts()[0].onerror!();
    await flush();
    expect(onLoaded).not.toHaveBeenCalled();
    expect(log.entries.at(-1)).toMatchObject({ level: "error", message: "script embedding failed", data: { tag: "chat", src: "https://c.example/w.js" } });
    expect(page.monitorEvents.at(-1)).toMatchObject({ type: "tag", tag: "chat", state: "failed" });
  });
});

describe("skipTag", () => {
  it("logs the reason and reports the tag as skipped", () => {
    const { page, services, log } = setup();
    skipTag(services, "survey", "tag disabled by query parameter", { path: "/x/" });
    expect(log.entries[0]).toMatchObject({ level: "info", message: "tag disabled by query parameter", data: { tag: "survey", path: "/x/" } });
    expect(page.monitorEvents.at(-1)).toMatchObject({ type: "tag", tag: "survey", state: "skipped", reason: "tag disabled by query parameter" });
  });
});

import { describe, expect, it, vi } from "vitest";
import { createLogger, errorText, LOG_LIMIT, LOG_PREFIX } from "../../../../runtime-modules/core/log";

function setup(enabled: boolean) {
  const events: Array<[string, Record<string, unknown> | undefined]> = [];
  const monitor = { emit: (type: string, detail?: Record<string, unknown>) => void events.push([type, detail]) };
  const out = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  return { log: createLogger(monitor, enabled, out), events, out };
}

describe("createLogger", () => {
  it('"logs print to the console only in debug mode"', () => {
    const { log, out } = setup(false);
    log.error("script embedding failed", { src: "x" });
    log.info("hello");
    expect(out.error).not.toHaveBeenCalled();
    expect(out.info).not.toHaveBeenCalled();
    expect(log.enabled).toBe(false);
  });
  it("in debug mode prints with the [sitetags] prefix, at the entry's level", () => {
    const { log, out } = setup(true);
    log.error("not authorized for this domain", { host: "h" }, "dynamic_host_not_allowed");
    log.debug("d");
    expect(LOG_PREFIX).toBe("[sitetags]");
    expect(out.error).toHaveBeenCalledWith("[sitetags]", "not authorized for this domain", "(dynamic_host_not_allowed)", { host: "h" });
    expect(out.debug).toHaveBeenCalledWith("[sitetags]", "d");
  });
  it("always keeps entries and emits monitor events, debug mode or not", () => {
    const { log, events } = setup(false);
    log.warn("selector not valid", { selector: "##" }, "code1");
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]).toMatchObject({ level: "warn", message: "selector not valid", code: "code1", data: { selector: "##" } });
    expect(typeof log.entries[0].t).toBe("number");
    expect(events).toEqual([["log", { level: "warn", message: "selector not valid", code: "code1", data: { selector: "##" } }]]);
  });
  it("the ring buffer keeps the last 200 entries", () => {
    const { log } = setup(false);
    for (let i = 0; i < 250; i++) log.info("m" + i);
    expect(LOG_LIMIT).toBe(200);
    expect(log.entries).toHaveLength(200);
    expect(log.entries[0].message).toBe("m50");
    expect(log.entries[199].message).toBe("m249");
  });
  it("a failing console or monitor never reaches the caller", () => {
    const monitor = {
      emit() {
        throw new Error("boom");
      },
    };
    const log = createLogger(monitor, true, { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() });
    expect(() => log.error("x")).not.toThrow();
  });
});

describe("errorText", () => {
  it("names errors and stringifies anything else", () => {
    expect(errorText(new TypeError("bad"))).toBe("TypeError: bad");
    expect(errorText("plain")).toBe("plain");
  });
});

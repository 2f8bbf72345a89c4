import { describe, expect, it, vi } from "vitest";
import { createLogger } from "../../../../runtime-modules/core/log";
import { MODULE_FAILED } from "../../../../runtime-modules/core/messages";
import { moduleEventListener } from "../../../../runtime-modules/core/module-events";

describe("moduleEventListener", () => {
  it("hands each push to its event's handler and ignores other events (and data-only pushes)", () => {
    const log = createLogger({ emit: () => undefined }, false);
    const a = vi.fn();
    const listen = moduleEventListener(log, "lab", { a });
    listen({ event: "a", x: 1 }, "a");
    listen({ event: "b" }, "b");
    listen({ x: 2 }, undefined);
    listen({ event: "toString" }, "toString"); // not a handler: only the object's own keys count
    expect(a.mock.calls).toEqual([[{ event: "a", x: 1 }]]);
    expect(log.entries).toEqual([]);
  });

  it('"The runtime never throws into the page": a handler that throws is logged as module failed, with the module and the event', () => {
    const log = createLogger({ emit: () => undefined }, false);
    const listen = moduleEventListener(log, "lab", {
      boom: () => {
        throw new Error("bad push");
      },
    });
    expect(() => listen({ event: "boom" }, "boom")).not.toThrow();
    expect(log.entries).toEqual([
      expect.objectContaining({ level: "error", message: MODULE_FAILED, data: { module: "lab", event: "boom", error: expect.stringContaining("bad push") } }),
    ]);
  });
});

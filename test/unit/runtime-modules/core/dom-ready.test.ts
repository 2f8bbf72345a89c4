import { describe, expect, it, vi } from "vitest";
import { onDomReady } from "../../../../runtime-modules/core/dom-ready";
import { fakePage } from "../helpers/fake-page";

describe("onDomReady", () => {
  it("calls back at once when the DOM is ready", () => {
    for (const readyState of ["interactive", "complete"] as const) {
      const fn = vi.fn();
      onDomReady(fakePage({ readyState }).document as never, fn);
      expect(fn).toHaveBeenCalledTimes(1);
    }
  });
  it("waits for DOMContentLoaded while the document is loading", () => {
    const page = fakePage({ readyState: "loading" });
    const fn = vi.fn();
    onDomReady(page.document as never, fn);
    expect(fn).not.toHaveBeenCalled();
    page.fireDocument("DOMContentLoaded");
    expect(fn).toHaveBeenCalledTimes(1);
  });
});

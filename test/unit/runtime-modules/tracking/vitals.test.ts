import { describe, expect, it, vi } from "vitest";
import { createVitalsBatch, startVitals, vitalsEvent, vitalsText } from "../../../../runtime-modules/tracking/vitals";
import { ORG_VARIABLES } from "../helpers/variables";

const m = (name: string, delta: number, rating = "good") => ({ name, value: delta, delta, rating, navigationType: "navigate" });

describe("web vitals batch", () => {
  it('"CLS delta times 1000 rounded; others rounded"; name, rating, navigationType, delta; one event per batch', () => {
    const send = vi.fn();
    const batch = createVitalsBatch(send, ORG_VARIABLES.vitals);
    batch.add([m("LCP", 1830.4), m("CLS", 0.0234, "needs-improvement"), m("FID", 3)]);
    batch.add([m("INP", 199.5), m("TTFB", 80.2), m("FCP", 900.6)]);
    batch.flush();
    batch.flush();
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0][0]).toEqual({
      name: "web vitals",
      eventType: "kiwi.webVitals",
      linkType: "other",
      variables: { eVar94: "LCP:good:navigate:1830|CLS:needs-improvement:navigate:23|INP:good:navigate:200|TTFB:good:navigate:80|FCP:good:navigate:901" },
    });
  });
  it("vitalsText / vitalsEvent", () => {
    expect(vitalsText([])).toBe("");
    expect(vitalsEvent([{ name: "CLS", rating: "good", navigationType: "reload", delta: 5 }], ORG_VARIABLES.vitals).variables).toEqual({
      eVar94: "CLS:good:reload:5",
    });
  });
  it("startVitals: subscribes, and flushes when the document turns hidden and on pagehide", () => {
    const doc = {
      visibilityState: "visible",
      listeners: {} as Record<string, () => void>,
      addEventListener(t: string, fn: () => void) {
        this.listeners[t] = fn;
      },
    };
    const winListeners: Record<string, () => void> = {};
    const win = { document: doc, addEventListener: (t: string, fn: () => void) => (winListeners[t] = fn) } as unknown as Window;
    const send = vi.fn();
    const batch = createVitalsBatch(send, ORG_VARIABLES.vitals);
    let report: (metric: ReturnType<typeof m>) => void = () => undefined;
    startVitals(win, (r) => (report = r), batch);
    report(m("LCP", 1000));
    doc.listeners.visibilitychange();
    expect(send).not.toHaveBeenCalled();
    doc.visibilityState = "hidden";
    doc.listeners.visibilitychange();
    expect(send).toHaveBeenCalledTimes(1);
    report(m("CLS", 0.1));
    winListeners.pagehide();
    expect(send).toHaveBeenCalledTimes(2);
  });
});

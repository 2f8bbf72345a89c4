import type { Analytics } from "../core/types";
import { vitalsBatch, type VitalMetric, type VitalRecord } from "../analytics/web-vitals";
import { VITALS_EVENT_TYPE } from "./variables";

/** How the metrics arrive: subscribe(report) calls report for each metric (vitals-source.ts wraps web-vitals). */
export type VitalsSubscribe = (report: (metric: VitalMetric) => void) => void;

/** The batch as one variable: name:rating:navigationType:delta, joined by |. */
export function vitalsText(records: readonly VitalRecord[]): string {
  return records.map((r) => [r.name, r.rating || "", r.navigationType || "", r.delta].join(":")).join("|");
}

/** The event of a batch; `variable` is the catalogue's (analyticsVariables.vitals). */
export function vitalsEvent(records: readonly VitalRecord[], variable: string): Parameters<Analytics["event"]>[0] {
  return { name: "web vitals", eventType: VITALS_EVENT_TYPE, linkType: "other", variables: { [variable]: vitalsText(records) } };
}

/**
 * Collects web-vitals metrics (and `web-vitals` pushes) into a batch and sends
 * it as one event when the page is hidden; nothing when the batch is empty.
 */
export function createVitalsBatch(send: (event: Parameters<Analytics["event"]>[0]) => void, variable: string) {
  let batch: VitalRecord[] = [];
  return {
    add(metrics: readonly VitalMetric[]): void {
      batch = batch.concat(vitalsBatch(metrics));
    },
    flush(): void {
      if (!batch.length) return;
      const records = batch;
      batch = [];
      send(vitalsEvent(records, variable));
    },
  };
}

/**
 * Starts the metrics and flushes the batch whenever the document turns
 * hidden (and on pagehide). The flush listener is on the document, so it runs
 * after web-vitals' own capture listeners on window, which report the last
 * CLS, INP and LCP values.
 */
export function startVitals(win: Window, subscribe: VitalsSubscribe, batch: ReturnType<typeof createVitalsBatch>): void {
  const doc = win.document;
  subscribe((metric) => batch.add([metric]));
  doc.addEventListener("visibilitychange", () => {
    if (doc.visibilityState === "hidden") batch.flush();
  });
  win.addEventListener("pagehide", () => batch.flush());
}

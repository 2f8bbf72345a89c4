/** A metric as the web-vitals library reports it. */
export interface VitalMetric {
  name: string;
  value: number;
  delta: number;
  rating: string;
  navigationType: string;
}

/** "Web vitals batch: name, rating, navigationType, delta." */
export interface VitalRecord {
  name: string;
  rating: string;
  navigationType: string;
  delta: number;
}

/** The metrics tracked: LCP, CLS, FCP, INP, TTFB. */
export const VITALS = ["LCP", "CLS", "FCP", "INP", "TTFB"];

/** "CLS delta times 1000 rounded; others rounded" (not a finite number: 0). */
export function vitalDelta(name: string, delta: number): number {
  const d = Math.round(name === "CLS" ? delta * 1000 : delta);
  return isFinite(d) ? d || 0 : 0;
}

/** The batch record of one metric. */
export function vitalRecord(m: VitalMetric): VitalRecord {
  return { name: m.name, rating: m.rating, navigationType: m.navigationType, delta: vitalDelta(m.name, m.delta) };
}

/** The batch: one record per metric, in order, metrics other than the five left out. */
export function vitalsBatch(metrics: readonly VitalMetric[]): VitalRecord[] {
  return metrics.filter((m) => VITALS.indexOf(m.name) >= 0).map(vitalRecord);
}

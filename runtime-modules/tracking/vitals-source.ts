import { onCLS, onFCP, onINP, onLCP, onTTFB } from "web-vitals";
import type { VitalMetric } from "../analytics/web-vitals";

/**
 * The web-vitals package (the only browser package the runtime bundles; the
 * generator's stage B resolves it from node_modules). Each metric's callback
 * reports its delta since the last report.
 */
export function subscribeWebVitals(report: (metric: VitalMetric) => void): void {
  onLCP(report);
  onCLS(report);
  onFCP(report);
  onINP(report);
  onTTFB(report);
}

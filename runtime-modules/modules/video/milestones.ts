import type { VideoMilestone } from "../../../generator/config/bundle-config.js";

/** A milestone's label: "30s", or "25%" ("videoMilestone (ends in s or %)"). */
export function milestoneLabel(amount: number, unit: VideoMilestone["unit"]): string {
  return amount + (unit === "percent" ? "%" : "s");
}

/**
 * Every milestone label at or before this position, in configuration order:
 * a fixed milestone once its amount is reached, an every-milestone at each
 * multiple of its amount. Percent milestones need a known duration and are
 * "ignored for live video".
 */
export function milestonesAt(milestones: readonly VideoMilestone[], currentTime: number, duration: number | undefined, live: boolean): string[] {
  const labels: string[] = [];
  for (const m of milestones) {
    let position = currentTime;
    if (m.unit === "percent") {
      if (live || !duration || !(duration > 0)) continue;
      position = (currentTime / duration) * 100;
    }
    if (m.type === "fixed") {
      if (position >= m.amount) labels.push(milestoneLabel(m.amount, m.unit));
    } else {
      for (let at = m.amount; at <= position; at += m.amount) labels.push(milestoneLabel(at, m.unit));
    }
  }
  return labels;
}

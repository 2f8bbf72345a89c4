/** "Tag status on a page: enabled or disabled, reason query-parameter, synthetics, legal or configuration." */
export type DisableReason = "query-parameter" | "synthetics" | "legal" | "configuration";

export type TagStatus = { status: "enabled" } | { status: "disabled"; reason: DisableReason };

export function enabled(): TagStatus {
  return { status: "enabled" };
}

export function disabled(reason: DisableReason): TagStatus {
  return { status: "disabled", reason };
}

/**
 * "A stored status is reused unless a fresh evaluation is forced." The fresh
 * status is computed only when needed (no stored one, or force).
 */
export function resolveTagStatus(stored: TagStatus | undefined, force: boolean, fresh: () => TagStatus): TagStatus {
  return stored && !force ? stored : fresh();
}

/** Whether a tag-settings push holds a usable status ("status defaults to enabled"); anything else is undefined. */
export function readTagStatus(value: unknown): TagStatus | undefined {
  if (!value || typeof value !== "object") return undefined;
  const v = value as { status?: unknown; reason?: unknown };
  if (v.status === undefined || v.status === "enabled") return enabled();
  const reasons: DisableReason[] = ["query-parameter", "synthetics", "legal", "configuration"];
  if (v.status === "disabled") return disabled(reasons.indexOf(v.reason as DisableReason) >= 0 ? (v.reason as DisableReason) : "configuration");
  return undefined;
}

/** The cookie values of a sampling decision. */
export type SampleDecision = "in" | "out";

/**
 * Real-user monitoring's sampling: "monitoring default 1 with sampled-in/out
 * cookie per host". A decision stored on this host stands; otherwise the
 * visitor is sampled in with probability rate/100 (rate a percentage, 0–100;
 * `random` in [0, 1)) and the decision is to be written. Pure: the rate may
 * come from config or from a sampling decision service.
 */
export function rumSampling(stored: string | undefined, rate: number, random: () => number): { sampledIn: boolean; write?: SampleDecision } {
  if (stored === "in" || stored === "out") return { sampledIn: stored === "in" };
  const sampledIn = rate >= 100 || (rate > 0 && random() * 100 < rate);
  return { sampledIn, write: sampledIn ? "in" : "out" };
}

/** Milliseconds since navigation start, whole. */
export function now(): number {
  return Math.round(performance.now());
}

import type { VideoModuleConfig } from "../../../generator/config/bundle-config.js";

/**
 * The spec's video player events (section 5, "Video player element setup"):
 * what a player reports, how a play is named, and which repeats are
 * suppressed.
 */

export type VideoEventName =
  | "api-changed"
  | "autoplay-blocked"
  | "quality-changed"
  | "rate-changed"
  | "error"
  | "ready"
  | "removed"
  | "buffering"
  | "cued"
  | "ended"
  | "milestone"
  | "paused"
  | "playing"
  | "replayed"
  | "resumed"
  | "started"
  | "unstarted";

/** The iframe API's player states (YT.PlayerState) and the events they report. */
export const PLAYER_STATE_EVENTS: Readonly<Record<string, VideoEventName>> = {
  "-1": "unstarted",
  "0": "ended",
  "1": "playing",
  "2": "paused",
  "3": "buffering",
  "5": "cued",
};

/** "Consecutive identical buffering, cued, ended, paused, playing, replayed, resumed, started or unstarted events are suppressed." */
const SUPPRESSED_REPEATS: readonly VideoEventName[] = ["buffering", "cued", "ended", "paused", "playing", "replayed", "resumed", "started", "unstarted"];

/** Whether next repeats previous and is one of the events whose repeats are suppressed. */
export function isSuppressedRepeat(previous: VideoEventName | undefined, next: VideoEventName): boolean {
  return previous === next && SUPPRESSED_REPEATS.indexOf(next) >= 0;
}

/** Which of the three play events are tracked ("started, resumed, replayed tracking on"). */
export type PlayTracking = VideoModuleConfig["track"];

/**
 * "Playing becomes started on first play, replayed after an end, resumed
 * after a pause." `since` is the last end or pause before this play (a seek
 * while paused buffers first, and is still a resume). An event whose
 * tracking is off stays playing.
 */
export function playEventName(firstPlay: boolean, since: "ended" | "paused" | undefined, track: PlayTracking): VideoEventName {
  if (firstPlay) return track.started ? "started" : "playing";
  if (since === "ended") return track.replayed ? "replayed" : "playing";
  if (since === "paused") return track.resumed ? "resumed" : "playing";
  return "playing";
}

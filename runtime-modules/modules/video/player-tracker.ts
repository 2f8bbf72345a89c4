import type { VideoModuleConfig } from "../../../generator/config/bundle-config.js";
import { milestonesAt } from "./milestones";
import { isSuppressedRepeat, PLAYER_STATE_EVENTS, playEventName, type VideoEventName } from "./player-events";
import { videoErrorMessage } from "./video-errors";
import type { PlayerSnapshot, VideoEventExtras } from "./video-fields";

/** One event a player reports, with the values only it carries. */
export interface PlayerEvent {
  event: VideoEventName;
  snapshot: PlayerSnapshot;
  extras: VideoEventExtras;
}

export type PlayerTrackerSettings = Pick<VideoModuleConfig, "milestones" | "track">;

export interface PlayerTracker {
  /** A player state change (YT.PlayerState: -1, 0, 1, 2, 3, 5). */
  state(code: number, s: PlayerSnapshot): PlayerEvent[];
  /** The 500 ms progress sample while playing: played time and milestones. */
  sample(s: PlayerSnapshot): PlayerEvent[];
  /** The player's frame left the page: "on removal played time is added to the total". */
  removed(s: PlayerSnapshot): PlayerEvent[];
  error(code: number, s: PlayerSnapshot): PlayerEvent[];
  /** ready, quality-changed, rate-changed, api-changed, autoplay-blocked. */
  report(event: VideoEventName, s: PlayerSnapshot): PlayerEvent[];
  playing(): boolean;
  last(): VideoEventName | undefined;
}

/**
 * The tracking state of one player (pure: the module feeds it what the
 * player reports and pushes what it returns). It names plays (started,
 * resumed, replayed), suppresses consecutive repeats, counts the time
 * actually played (progress between samples; a jump further than the
 * elapsed time allows is a seek, not play), reports each milestone once per
 * play-through (again after a replay) and keeps the played total.
 */
export function createPlayerTracker(settings: PlayerTrackerSettings): PlayerTracker {
  let firstPlay = true;
  let since: "ended" | "paused" | undefined;
  let last: VideoEventName | undefined;
  let isPlaying = false;
  let segment = 0;
  let total = 0;
  let lastTime: number | undefined;
  let lastAt = 0;
  let reached: Record<string, true> = {};

  function emit(out: PlayerEvent[], event: VideoEventName, snapshot: PlayerSnapshot, extras: VideoEventExtras = {}): PlayerEvent[] {
    if (isSuppressedRepeat(last, event)) return out;
    last = event;
    out.push({ event, snapshot, extras });
    return out;
  }

  function accrue(s: PlayerSnapshot): void {
    const t = s.currentTime;
    if (typeof t !== "number" || t !== t) return;
    if (isPlaying && lastTime !== undefined) {
      const delta = t - lastTime;
      const rate = typeof s.rate === "number" && s.rate > 1 ? s.rate : 1;
      if (delta > 0 && delta <= ((s.at - lastAt) / 1000) * rate + 1) segment += delta;
    }
    lastTime = t;
    lastAt = s.at;
  }

  /** Ends the current played segment: its seconds, and the total with them. */
  function closeSegment(): VideoEventExtras {
    const played = Math.round(segment);
    total += segment;
    segment = 0;
    isPlaying = false;
    return { playedSegmentTime: played, playedTotalTime: Math.round(total) };
  }

  function milestones(out: PlayerEvent[], s: PlayerSnapshot): PlayerEvent[] {
    if (typeof s.currentTime !== "number") return out;
    for (const label of milestonesAt(settings.milestones, s.currentTime, s.duration, !!s.live)) {
      if (reached[label]) continue;
      reached[label] = true;
      emit(out, "milestone", s, { milestone: label });
    }
    return out;
  }

  return {
    state(code, s) {
      const out: PlayerEvent[] = [];
      const base = PLAYER_STATE_EVENTS[String(code)];
      if (!base) return out;
      accrue(s);
      if (base === "playing") {
        if (isPlaying) return out;
        const name = playEventName(firstPlay, since, settings.track);
        if (since === "ended") reached = {};
        firstPlay = false;
        since = undefined;
        isPlaying = true;
        emit(out, name, s);
        return milestones(out, s);
      }
      const extras = base === "unstarted" ? {} : isPlaying ? closeSegment() : { playedSegmentTime: 0, playedTotalTime: Math.round(total) };
      if (base === "ended" || (base === "paused" && since !== "ended")) since = base;
      return emit(out, base, s, extras);
    },
    sample(s) {
      if (!isPlaying) return [];
      accrue(s);
      return milestones([], s);
    },
    removed(s) {
      accrue(s);
      const extras = isPlaying ? closeSegment() : { playedSegmentTime: 0, playedTotalTime: Math.round(total) };
      return emit([], "removed", s, extras);
    },
    error(code, s) {
      accrue(s);
      return emit([], "error", s, { errorCode: code, errorMessage: videoErrorMessage(code) });
    },
    report(event, s) {
      return emit([], event, s);
    },
    playing: () => isPlaying,
    last: () => last,
  };
}

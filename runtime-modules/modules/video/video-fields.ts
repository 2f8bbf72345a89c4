import type { VideoEventName } from "./player-events";

/** What a player tells about itself at one moment (the iframe API's getters; undefined when a getter is missing or throws). */
export interface PlayerSnapshot {
  videoId?: string;
  title?: string;
  url?: string;
  duration?: number;
  currentTime?: number;
  live?: boolean;
  volume?: number;
  muted?: boolean;
  rate?: number;
  quality?: string;
  loadedFraction?: number;
  /** When it was read, ms. */
  at: number;
}

/** Values only some events carry. */
export interface VideoEventExtras {
  milestone?: string;
  playedSegmentTime?: number;
  playedTotalTime?: number;
  errorCode?: number;
  errorMessage?: string;
}

/** "videoId (letters, digits, underscore, hyphen)". */
export const VIDEO_ID = /^[\w-]+$/;

/** "Times floor to half second." */
export function floorHalf(seconds: number): number {
  return Math.floor(seconds * 2) / 2;
}

/** The rules a value may have to meet (section 5, "Video data requests"). */
type Rule = "id" | "text" | "atLeastZero" | "integerAtLeastZero" | "volume" | "boolean" | "milestone" | "errorCode";

function isNumber(v: unknown): v is number {
  return typeof v === "number" && isFinite(v);
}

function meets(rule: Rule, v: unknown): boolean {
  switch (rule) {
    case "id":
      return typeof v === "string" && VIDEO_ID.test(v);
    case "text":
      return typeof v === "string" && v.trim() !== "";
    case "atLeastZero":
      return isNumber(v) && v >= 0;
    case "integerAtLeastZero":
      return isNumber(v) && v >= 0 && Math.floor(v) === v;
    case "volume":
      return isNumber(v) && v >= 0 && v <= 100 && Math.floor(v) === v;
    case "boolean":
      return typeof v === "boolean";
    case "milestone":
      return typeof v === "string" && /^\d+(\.\d+)?(s|%)$/.test(v);
    case "errorCode":
      return isNumber(v) && v > 0 && Math.floor(v) === v;
  }
}

/** Player values: push field, snapshot key, rule. */
const PLAYER_FIELDS: ReadonlyArray<[string, keyof PlayerSnapshot, Rule]> = [
  ["videoId", "videoId", "id"],
  ["videoTitle", "title", "text"],
  ["videoUrl", "url", "text"],
  ["videoDuration", "duration", "atLeastZero"],
  ["videoCurrentTime", "currentTime", "atLeastZero"],
  ["videoLoadedFraction", "loadedFraction", "atLeastZero"],
  ["videoVolume", "volume", "volume"],
  ["videoMuted", "muted", "boolean"],
  ["videoPlaybackRate", "rate", "atLeastZero"],
  ["videoPlaybackQuality", "quality", "text"],
];

/** Values only some events carry: push field, extras key, rule, the events that may carry it ("played times need removed, buffering, cued, ended or paused"). */
const EVENT_FIELDS: ReadonlyArray<[string, keyof VideoEventExtras, Rule, readonly VideoEventName[]]> = [
  ["videoMilestone", "milestone", "milestone", ["milestone"]],
  ["videoPlayedSegmentTime", "playedSegmentTime", "integerAtLeastZero", ["removed", "buffering", "cued", "ended", "paused"]],
  ["videoPlayedTotalTime", "playedTotalTime", "integerAtLeastZero", ["removed", "buffering", "cued", "ended", "paused"]],
  ["errorCode", "errorCode", "errorCode", ["error"]],
  ["errorMessage", "errorMessage", "text", ["error"]],
];

/** playerState: "player error, video started, video ended". */
const PLAYER_STATES: Readonly<Partial<Record<VideoEventName, string>>> = { error: "player error", started: "video started", ended: "video ended" };

/**
 * The fields of one `video` push (docs/events.md), by the spec's rules for
 * video data (section 5): the error code and message only with an error
 * event, the milestone only with a milestone event, the played times only
 * with removed, buffering, cued, ended or paused; volume an integer 0-100,
 * the error code an integer above 0, played times integers at least 0,
 * other times (floored to the half second), the loaded fraction and the rate
 * numbers at least 0, strings not blank, the milestone ending in s or %. A
 * value that breaks its rule is left out and named in `invalid` ("invalid
 * data requests are logged and return nothing"); one the player does not
 * report is simply left out.
 */
export function videoFields(event: VideoEventName, s: PlayerSnapshot, extras: VideoEventExtras = {}): { fields: Record<string, unknown>; invalid: string[] } {
  const fields: Record<string, unknown> = { videoEvent: event };
  const invalid: string[] = [];
  const put = (name: string, value: unknown, rule: Rule) => {
    if (value === undefined || value === null || value === "") return;
    if (!meets(rule, value)) invalid.push(name);
    else fields[name] = name === "videoDuration" || name === "videoCurrentTime" ? floorHalf(value as number) : value;
  };
  for (const [name, key, check] of PLAYER_FIELDS) put(name, s[key], check);
  if (s.live !== undefined) fields.videoType = s.live ? "live" : "video-on-demand";
  for (const [name, key, check, events] of EVENT_FIELDS) if (events.indexOf(event) >= 0) put(name, extras[key], check);
  const state = PLAYER_STATES[event];
  if (state) fields.playerState = state;
  return { fields, invalid };
}

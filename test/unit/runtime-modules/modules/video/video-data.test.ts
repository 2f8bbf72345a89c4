import { describe, expect, it, vi } from "vitest";
import { VideoModuleSchema } from "../../../../../generator/config/schema.js";
import { API_READY_CHECKS, whenApiReady } from "../../../../../runtime-modules/modules/video/api-ready";
import { embedVideoId, isPlayerFrame, withJsApi } from "../../../../../runtime-modules/modules/video/frames";
import { milestonesAt } from "../../../../../runtime-modules/modules/video/milestones";
import { videoErrorMessage, videoErrorName } from "../../../../../runtime-modules/modules/video/video-errors";
import { floorHalf, videoFields } from "../../../../../runtime-modules/modules/video/video-fields";
import { videoRecord } from "../../../../../runtime-modules/modules/video/video-record";
import { ORG_VARIABLES } from "../../helpers/variables";

const snapshot = {
  videoId: "a1B2_c3-D4",
  title: "How to register",
  url: "https://www.youtube.com/watch?v=a1B2_c3-D4",
  duration: 184.7,
  currentTime: 60.26,
  live: false,
  volume: 80,
  muted: false,
  rate: 1,
  quality: "hd720",
  loadedFraction: 0.5,
  at: 0,
};

describe("video data (spec section 5, 'Video data requests')", () => {
  it("'Times floor to half second'", () => {
    expect([floorHalf(60.26), floorHalf(60.5), floorHalf(60.99), floorHalf(0)]).toEqual([60, 60.5, 60.5, 0]);
  });

  it("a push carries the player's values; videoType live or video-on-demand; playerState 'player error, video started, video ended'", () => {
    expect(videoFields("started", snapshot)).toEqual({
      fields: {
        videoEvent: "started",
        videoId: "a1B2_c3-D4",
        videoTitle: "How to register",
        videoUrl: "https://www.youtube.com/watch?v=a1B2_c3-D4",
        videoDuration: 184.5,
        videoCurrentTime: 60,
        videoLoadedFraction: 0.5,
        videoVolume: 80,
        videoMuted: false,
        videoPlaybackRate: 1,
        videoPlaybackQuality: "hd720",
        videoType: "video-on-demand",
        playerState: "video started",
      },
      invalid: [],
    });
    expect(videoFields("ended", { ...snapshot, live: true }).fields).toMatchObject({ videoType: "live", playerState: "video ended" });
    expect(videoFields("error", snapshot, { errorCode: 2, errorMessage: "m" }).fields.playerState).toBe("player error");
    expect(videoFields("paused", snapshot).fields).not.toHaveProperty("playerState");
  });

  it("'Error code and message need an error event; milestone needs milestone event; played times need removed, buffering, cued, ended or paused'", () => {
    const extras = { milestone: "30s", playedSegmentTime: 4, playedTotalTime: 9, errorCode: 100, errorMessage: "Requested video was not found (error 100)" };
    const keys = (event: Parameters<typeof videoFields>[0]) =>
      Object.keys(videoFields(event, { at: 0 }, extras).fields).filter((k) => k !== "videoEvent" && k !== "playerState");
    expect(keys("error")).toEqual(["errorCode", "errorMessage"]);
    expect(keys("milestone")).toEqual(["videoMilestone"]);
    for (const e of ["removed", "buffering", "cued", "ended", "paused"] as const)
      expect(keys(e), e).toEqual(["videoPlayedSegmentTime", "videoPlayedTotalTime"]);
    for (const e of [
      "started",
      "playing",
      "resumed",
      "replayed",
      "unstarted",
      "ready",
      "quality-changed",
      "rate-changed",
      "api-changed",
      "autoplay-blocked",
    ] as const)
      expect(keys(e), e).toEqual([]);
  });

  it("'Volume integer 0-100; error code integer above 0; times integers at least 0; fraction and rate numbers at least 0; strings not blank': a value that breaks its rule is left out and named", () => {
    const bad = {
      videoId: "bad id!",
      title: "   ",
      duration: -1,
      currentTime: Number.NaN,
      volume: 100.5,
      muted: "no" as unknown as boolean,
      rate: -2,
      loadedFraction: -0.1,
      quality: " ",
      at: 0,
    };
    expect(videoFields("started", bad)).toEqual({
      fields: { videoEvent: "started", playerState: "video started" },
      invalid: [
        "videoId",
        "videoTitle",
        "videoDuration",
        "videoCurrentTime",
        "videoLoadedFraction",
        "videoVolume",
        "videoMuted",
        "videoPlaybackRate",
        "videoPlaybackQuality",
      ],
    });
    expect(videoFields("error", { at: 0 }, { errorCode: 0, errorMessage: "" }).invalid).toEqual(["errorCode"]);
    expect(videoFields("error", { at: 0 }, { errorCode: 2.5 }).invalid).toEqual(["errorCode"]);
    expect(videoFields("paused", { at: 0 }, { playedSegmentTime: -1, playedTotalTime: 1.5 }).invalid).toEqual([
      "videoPlayedSegmentTime",
      "videoPlayedTotalTime",
    ]);
    expect(videoFields("milestone", { at: 0 }, { milestone: "30 seconds" }).invalid).toEqual(["videoMilestone"]);
    expect(videoFields("started", { ...snapshot, volume: 0 }).fields.videoVolume).toBe(0);
    expect(videoFields("started", { ...snapshot, volume: 100 }).fields.videoVolume).toBe(100);
  });
});

describe("milestones (spec: 'Milestone configuration: amount, type (fixed or every), unit (percent or seconds)')", () => {
  const defaults = VideoModuleSchema.parse({}).milestones;

  it("'Milestones 30, 60, 90, 120 s' by default", () => {
    expect(milestonesAt(defaults, 29.5, 200, false)).toEqual([]);
    expect(milestonesAt(defaults, 30, 200, false)).toEqual(["30s"]);
    expect(milestonesAt(defaults, 125, 200, false)).toEqual(["30s", "60s", "90s", "120s"]);
  });

  it("every-milestones fire at each multiple; percent milestones need a duration and are 'ignored for live video'", () => {
    const every = [
      { amount: 25, type: "every" as const, unit: "percent" as const },
      { amount: 45, type: "every" as const, unit: "seconds" as const },
    ];
    expect(milestonesAt(every, 100, 200, false)).toEqual(["25%", "50%", "45s", "90s"]);
    expect(milestonesAt(every, 200, 200, false)).toEqual(["25%", "50%", "75%", "100%", "45s", "90s", "135s", "180s"]);
    expect(milestonesAt(every, 100, 200, true)).toEqual(["45s", "90s"]);
    expect(milestonesAt(every, 100, 0, false)).toEqual(["45s", "90s"]);
    expect(milestonesAt([{ amount: 50, type: "fixed", unit: "percent" }], 100, 200, false)).toEqual(["50%"]);
  });

  it("'milestone amounts integers; unit percent or seconds': the schema refuses others", () => {
    const parse = (m: unknown) => VideoModuleSchema.safeParse({ milestones: [m] }).success;
    expect(parse({ amount: 30 })).toBe(true);
    expect(parse({ amount: 30.5 })).toBe(false);
    expect(parse({ amount: 0 })).toBe(false);
    expect(parse({ amount: 10, unit: "minutes" })).toBe(false);
    expect(parse({ amount: 10, type: "sometimes" })).toBe(false);
    expect(parse({ amount: 101, unit: "percent" })).toBe(false);
  });
});

describe("frames and errors", () => {
  it("'A player frame is tracked only if its source contains the video platform name'", () => {
    expect(isPlayerFrame("https://www.youtube.com/embed/x", "youtube")).toBe(true);
    expect(isPlayerFrame("https://www.YouTube-nocookie.com/embed/x", "youtube")).toBe(true);
    expect(isPlayerFrame("https://player.vimeo.com/video/1", "youtube")).toBe(false);
    expect(isPlayerFrame("", "youtube")).toBe(false);
    expect(isPlayerFrame(null, "youtube")).toBe(false);
  });

  it("the frame gets enablejsapi=1 and the page's origin, once", () => {
    const origin = "https://apclassroom.kiwi.example";
    expect(withJsApi("https://www.youtube.com/embed/a1?rel=0", origin)).toBe(
      "https://www.youtube.com/embed/a1?rel=0&enablejsapi=1&origin=https%3A%2F%2Fapclassroom.kiwi.example",
    );
    expect(withJsApi("https://www.youtube.com/embed/a1?enablejsapi=1", origin)).toBeUndefined();
    expect(withJsApi("https://www.youtube.com/embed/a1?origin=https://x.example", origin)).toBe(
      "https://www.youtube.com/embed/a1?origin=https%3A%2F%2Fx.example&enablejsapi=1",
    );
    expect(embedVideoId("https://www.youtube.com/embed/a1B2_c3-D4?enablejsapi=1")).toBe("a1B2_c3-D4");
    expect(embedVideoId("https://www.youtube.com/watch?v=a1")).toBeUndefined();
  });

  it("'Video error codes: 2 ..., 5 ..., 100 ..., 101 and 150 ...'; 'Recorded as player:code:message'", () => {
    expect([2, 5, 100, 101, 150].map(videoErrorMessage)).toEqual([
      "Request contains an invalid parameter value (error 2)",
      "Requested content cannot be played in an HTML5 player (error 5)",
      "Requested video was not found (error 100)",
      "Owner of the requested video does not allow it to be played in embedded players",
      "Owner of the requested video does not allow it to be played in embedded players",
    ]);
    expect(videoErrorMessage(153)).toBe("error 153");
    expect(videoErrorName(100, videoErrorMessage(100))).toBe("player:100:Requested video was not found (error 100)");
  });
});

describe("videoRecord ('Video: error, started, milestones 30/60/90/120 s, resumed, ended, replayed')", () => {
  it("records exactly those six events", () => {
    const rec = (videoEvent: string, extra: Record<string, unknown> = {}) =>
      videoRecord({ event: "video", videoEvent, videoId: "v1", ...extra }, ORG_VARIABLES.video);
    expect(rec("started")).toEqual({ name: "video:started:v1", variables: { events: "event71", eVar106: "v1" } });
    expect(rec("milestone", { videoMilestone: "60s", videoTitle: "T" })).toEqual({
      name: "video:milestone:v1:60s",
      variables: { events: "event72", eVar106: "v1", eVar107: "T", eVar108: "60s" },
    });
    expect(rec("resumed")!.variables.events).toBe("event73");
    expect(rec("ended")!.variables.events).toBe("event74");
    expect(rec("replayed")!.variables.events).toBe("event75");
    expect(rec("error", { errorCode: 5, errorMessage: "Requested content cannot be played in an HTML5 player (error 5)" })).toEqual({
      name: "player:5:Requested content cannot be played in an HTML5 player (error 5)",
      variables: {
        events: "event76,event50",
        eVar106: "v1",
        eVar97: "Requested content cannot be played in an HTML5 player (error 5)",
        eVar98: "Video Player",
      },
    });
    for (const e of [
      "playing",
      "paused",
      "buffering",
      "cued",
      "unstarted",
      "ready",
      "removed",
      "quality-changed",
      "rate-changed",
      "api-changed",
      "autoplay-blocked",
      "constructor",
      "__proto__",
    ])
      expect(rec(e), e).toBeUndefined();
  });

  it("needs a valid video id, a milestone with milestone events and a code with errors", () => {
    expect(videoRecord({ videoEvent: "started" }, ORG_VARIABLES.video)).toBeUndefined();
    expect(videoRecord({ videoEvent: "started", videoId: "has space" }, ORG_VARIABLES.video)).toBeUndefined();
    expect(videoRecord({ videoEvent: "milestone", videoId: "v1" }, ORG_VARIABLES.video)).toBeUndefined();
    expect(videoRecord({ videoEvent: "error", videoId: "v1" }, ORG_VARIABLES.video)).toBeUndefined();
  });
});

describe("whenApiReady ('video API retries up to 5 with exponential backoff from 1000 ms'; 'after 5 failed readiness checks, not-initialised is logged')", () => {
  it("checks at 1, 2, 4, 8 and 16 s after the first, then gives up once", () => {
    const delays: number[] = [];
    const queue: Array<() => void> = [];
    const ready = vi.fn();
    const giveUp = vi.fn();
    whenApiReady(
      () => false,
      (cb, ms) => (delays.push(ms), queue.push(cb)),
      ready,
      giveUp,
    );
    while (queue.length) queue.shift()!();
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(API_READY_CHECKS).toBe(5);
    expect(giveUp).toHaveBeenCalledTimes(1);
    expect(ready).not.toHaveBeenCalled();
  });

  it("ready at once, at a later check, or when nudged by the API's own callback; never twice", () => {
    const ready = vi.fn();
    whenApiReady(
      () => true,
      () => undefined,
      ready,
      () => undefined,
    );
    expect(ready).toHaveBeenCalledTimes(1);

    let isReady = false;
    const queue: Array<() => void> = [];
    const later = vi.fn();
    const giveUp = vi.fn();
    const waiter = whenApiReady(
      () => isReady,
      (cb) => queue.push(cb),
      later,
      giveUp,
    );
    queue.shift()!();
    isReady = true;
    waiter.nudge();
    waiter.nudge();
    while (queue.length) queue.shift()!();
    expect(later).toHaveBeenCalledTimes(1);
    expect(giveUp).not.toHaveBeenCalled();
  });
});

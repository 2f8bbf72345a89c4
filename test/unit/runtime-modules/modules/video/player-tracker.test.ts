import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { VideoModuleSchema } from "../../../../../generator/config/schema.js";
import { createPlayerTracker, type PlayerEvent } from "../../../../../runtime-modules/modules/video/player-tracker";
import { isSuppressedRepeat, playEventName, PLAYER_STATE_EVENTS } from "../../../../../runtime-modules/modules/video/player-events";
import type { PlayerSnapshot } from "../../../../../runtime-modules/modules/video/video-fields";

const defaults = VideoModuleSchema.parse({});
const ALL_ON = { started: true, resumed: true, replayed: true };
const PLAYING = 1,
  PAUSED = 2,
  ENDED = 0,
  BUFFERING = 3,
  CUED = 5,
  UNSTARTED = -1;

/** A player whose clock the test moves: `at(t, ms)` is a snapshot at video time t, wall time ms. */
const at = (currentTime: number, ms: number, extra: Partial<PlayerSnapshot> = {}): PlayerSnapshot => ({
  videoId: "v1",
  duration: 200,
  currentTime,
  at: ms,
  ...extra,
});
const names = (events: PlayerEvent[]) => events.map((e) => e.event + (e.extras.milestone ? ":" + e.extras.milestone : ""));

describe("player events (spec section 5, 'Video player element setup')", () => {
  it("the iframe API's states report unstarted, ended, playing, paused, buffering, cued", () => {
    expect(PLAYER_STATE_EVENTS).toEqual({ "-1": "unstarted", "0": "ended", "1": "playing", "2": "paused", "3": "buffering", "5": "cued" });
  });

  it("'Playing becomes started on first play, replayed after an end, resumed after a pause'", () => {
    expect(playEventName(true, undefined, ALL_ON)).toBe("started");
    expect(playEventName(false, "ended", ALL_ON)).toBe("replayed");
    expect(playEventName(false, "paused", ALL_ON)).toBe("resumed");
    expect(playEventName(false, undefined, ALL_ON)).toBe("playing");
  });

  it("'started, resumed, replayed tracking on' by default; a play whose tracking is off stays playing", () => {
    expect(defaults.track).toEqual(ALL_ON);
    const off = { started: false, resumed: false, replayed: false };
    expect([playEventName(true, undefined, off), playEventName(false, "ended", off), playEventName(false, "paused", off)]).toEqual([
      "playing",
      "playing",
      "playing",
    ]);
  });

  it("'Consecutive identical buffering, cued, ended, paused, playing, replayed, resumed, started or unstarted events are suppressed'; other repeats are not", () => {
    for (const e of ["buffering", "cued", "ended", "paused", "playing", "replayed", "resumed", "started", "unstarted"] as const)
      expect(isSuppressedRepeat(e, e), e).toBe(true);
    for (const e of ["api-changed", "autoplay-blocked", "quality-changed", "rate-changed", "error", "ready", "removed", "milestone"] as const)
      expect(isSuppressedRepeat(e, e), e).toBe(false);
    expect(isSuppressedRepeat("paused", "buffering")).toBe(false);
    expect(isSuppressedRepeat(undefined, "paused")).toBe(false);
  });
});

describe("createPlayerTracker", () => {
  it("names each play, suppresses repeats, and reports the played segment and total with paused, ended, buffering and cued", () => {
    const t = createPlayerTracker(defaults);
    const out: PlayerEvent[] = [];
    out.push(...t.state(UNSTARTED, at(0, 0)));
    out.push(...t.state(CUED, at(0, 10)));
    out.push(...t.state(CUED, at(0, 20)));
    out.push(...t.state(PLAYING, at(0, 100)));
    out.push(...t.sample(at(10, 10_100)));
    out.push(...t.state(PAUSED, at(12, 12_100)));
    out.push(...t.state(PAUSED, at(12, 12_200)));
    out.push(...t.state(PLAYING, at(12, 20_000)));
    out.push(...t.state(BUFFERING, at(15, 23_000)));
    out.push(...t.state(PLAYING, at(15, 23_500)));
    out.push(...t.state(ENDED, at(200, 30_000)));
    expect(names(out)).toEqual(["unstarted", "cued", "started", "paused", "resumed", "buffering", "playing", "ended"]);
    const byName = (n: string) => out.filter((e) => e.event === n).map((e) => e.extras);
    expect(byName("paused")).toEqual([{ playedSegmentTime: 12, playedTotalTime: 12 }]);
    expect(byName("buffering")).toEqual([{ playedSegmentTime: 3, playedTotalTime: 15 }]);
    // 15 → 200 in 6.5 s is a seek, not play: "the time actually played".
    expect(byName("ended")).toEqual([{ playedSegmentTime: 0, playedTotalTime: 15 }]);
    expect(byName("cued")).toEqual([{ playedSegmentTime: 0, playedTotalTime: 0 }]);
    expect(t.playing()).toBe(false);
    expect(t.last()).toBe("ended");
  });

  it("'Milestones 30, 60, 90, 120 s': each once per play-through, in order, also when a sample jumps past several; again after a replay", () => {
    const t = createPlayerTracker(defaults);
    const out: PlayerEvent[] = [];
    out.push(...t.state(PLAYING, at(0, 0)));
    out.push(...t.sample(at(29.5, 29_500)));
    out.push(...t.sample(at(30, 30_000)));
    out.push(...t.sample(at(30.5, 30_500)));
    out.push(...t.sample(at(95, 95_000)));
    out.push(...t.state(ENDED, at(200, 200_000)));
    out.push(...t.state(PLAYING, at(0, 201_000)));
    out.push(...t.sample(at(31, 232_000)));
    expect(names(out)).toEqual(["started", "milestone:30s", "milestone:60s", "milestone:90s", "ended", "replayed", "milestone:30s"]);
  });

  it("a pause after the end still makes the next play a replay; a seek while paused (buffering first) is still a resume", () => {
    const t = createPlayerTracker(defaults);
    const out: PlayerEvent[] = [];
    out.push(...t.state(PLAYING, at(0, 0)), ...t.state(ENDED, at(200, 200_000)), ...t.state(PAUSED, at(200, 201_000)), ...t.state(PLAYING, at(0, 202_000)));
    out.push(...t.state(PAUSED, at(5, 207_000)), ...t.state(BUFFERING, at(50, 208_000)), ...t.state(PLAYING, at(50, 208_500)));
    // Resuming at 50 s, after the replay reset the milestones, passes 30 s.
    expect(names(out)).toEqual(["started", "ended", "paused", "replayed", "paused", "buffering", "resumed", "milestone:30s"]);
  });

  it("'on removal played time is added to the total'", () => {
    const t = createPlayerTracker(defaults);
    t.state(PLAYING, at(0, 0));
    t.state(PAUSED, at(20, 20_000));
    t.state(PLAYING, at(20, 30_000));
    t.sample(at(25, 35_000));
    expect(t.removed(at(25, 35_400))).toEqual([{ event: "removed", snapshot: at(25, 35_400), extras: { playedSegmentTime: 5, playedTotalTime: 25 } }]);
    expect(t.playing()).toBe(false);
  });

  it("a faster playback rate plays more video per second without counting as a seek", () => {
    const t = createPlayerTracker(defaults);
    t.state(PLAYING, at(0, 0, { rate: 2 }));
    t.sample(at(1, 500, { rate: 2 }));
    t.sample(at(2, 1000, { rate: 2 }));
    expect(t.state(PAUSED, at(2, 1000, { rate: 2 }))[0].extras).toEqual({ playedSegmentTime: 2, playedTotalTime: 2 });
  });

  it("errors carry the catalogue's message; other reports pass through", () => {
    const t = createPlayerTracker(defaults);
    expect(t.error(150, at(0, 0))[0].extras).toEqual({
      errorCode: 150,
      errorMessage: "Owner of the requested video does not allow it to be played in embedded players",
    });
    expect(names(t.report("quality-changed", at(0, 1)))).toEqual(["quality-changed"]);
    expect(t.state(4, at(0, 2))).toEqual([]);
  });

  it("property: whatever the player reports, no two consecutive events are a suppressed repeat, each milestone comes once per play-through, and played times never go down", () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant("state" as const), code: fc.constantFrom(-1, 0, 1, 2, 3, 5) }),
      fc.record({ kind: fc.constant("sample" as const), advance: fc.double({ min: 0, max: 80, noNaN: true }) }),
      fc.record({ kind: fc.constant("seek" as const), to: fc.double({ min: 0, max: 200, noNaN: true }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const t = createPlayerTracker(defaults);
        let time = 0;
        let ms = 0;
        const out: PlayerEvent[] = [];
        for (const s of steps) {
          ms += 500;
          if (s.kind === "seek") time = s.to;
          else if (s.kind === "sample") {
            time = Math.min(200, time + s.advance);
            out.push(...t.sample(at(time, ms)));
          } else out.push(...t.state(s.code, at(time, ms)));
        }
        out.push(...t.removed(at(time, ms + 1)));
        let total = 0;
        let seen = new Set<string>();
        for (let i = 0; i < out.length; i++) {
          if (i > 0) expect(isSuppressedRepeat(out[i - 1].event, out[i].event)).toBe(false);
          if (out[i].event === "replayed") seen = new Set();
          if (out[i].event === "milestone") {
            expect(seen.has(out[i].extras.milestone!)).toBe(false);
            seen.add(out[i].extras.milestone!);
          }
          const played = out[i].extras.playedTotalTime;
          if (played !== undefined) {
            expect(played).toBeGreaterThanOrEqual(total);
            expect(out[i].extras.playedSegmentTime).toBeGreaterThanOrEqual(0);
            total = played;
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});

import type { VideoModuleConfig } from "../../../generator/config/bundle-config.js";
import type { ModuleInstance, ModuleServices } from "../../core/types";
import { onDomReady } from "../../core/dom-ready";
import { reportTag, skipTag } from "../../core/embed-tag";
import { errorText } from "../../core/log";
import { MODULE_FAILED, TAG_DISABLED, VIDEO_API_NOT_LOADED, VIDEO_DATA_INVALID, VIDEO_NOT_INITIALISED } from "../../core/messages";
import { moduleEventListener } from "../../core/module-events";
import { now } from "../../core/now";
import { tagDisabled } from "../../core/query-flags";
import { whenApiReady } from "./api-ready";
import { embedVideoId, isPlayerFrame, withJsApi } from "./frames";
import type { VideoEventName } from "./player-events";
import { createPlayerTracker, type PlayerEvent, type PlayerTracker } from "./player-tracker";
import { videoFields, type PlayerSnapshot } from "./video-fields";
import { videoRecord } from "./video-record";

/** The interaction type of a video record (video-record.ts); also the module's marker in registry.ts. */
export const VIDEO_EVENT_TYPE = "kiwi.video";

const MODULE = "video";
/** Tag code: `?cb-disable-video` turns the tracking off. */
const TAG = "video";
/** Section 9: "progress sampling 500 ms". */
const SAMPLE_MS = 500;

/** The iframe API's player, as far as this module uses it: getters called by name. */
type YTPlayer = Record<string, unknown>;
type YTEvents = Record<string, (event: { data?: unknown }) => void>;
interface YTNamespace {
  Player: new (frame: HTMLIFrameElement, options: { events: YTEvents }) => YTPlayer;
}
type VideoWindow = Window & { YT?: YTNamespace; onYouTubeIframeAPIReady?: () => void };

interface TrackedPlayer {
  frame: HTMLIFrameElement;
  /** From the embed address until the player reports its own. */
  id: string | undefined;
  tracker: PlayerTracker;
  player?: YTPlayer;
  /** The last snapshot read: what a removed frame's player can no longer say. */
  last: PlayerSnapshot;
}

/** The player's events this module listens to, other than state changes and errors. */
const REPORTED: ReadonlyArray<[string, VideoEventName]> = [
  ["onPlaybackQualityChange", "quality-changed"],
  ["onPlaybackRateChange", "rate-changed"],
  ["onApiChange", "api-changed"],
  ["onAutoplayBlocked", "autoplay-blocked"],
];

/**
 * Video player tracking (spec sections 5, 7, 8 and 9). Frames whose source
 * names the video platform are set up once the tag's consent category
 * (performance) allows: the frame's source gets enablejsapi=1 (the frame
 * reloads), the platform's iframe API script is loaded (ready checks 1, 2,
 * 4, 8, 16 s apart, then 'not-initialised'; a failed load logs 'YouTube
 * IFrame API could not be loaded') and each frame gets a player. Each player
 * event becomes a `video` push (docs/events.md) with the values the spec
 * allows for it; progress is sampled every 500 ms while a video plays
 * (played time, milestones); a frame leaving the page reports removed with
 * its played total. Setup steps (started, modified, updating, completed,
 * ready, removed) go to the monitor as `video` events.
 *
 * Every `video` push, this module's or a page's own player's, is recorded
 * when the spec tracks it (started, milestone, resumed, ended, replayed,
 * error): a `kiwi.video` interaction (video-record.ts).
 *
 * Command: `players()`, each tracked frame's video id and last event.
 */
export function createVideo(services: ModuleServices<VideoModuleConfig>): ModuleInstance {
  const { config, log, monitor, dataLayer, analytics, consent, loadScript, page } = services;
  const win = services.win as VideoWindow;
  // The variable numbers (analyticsVariables.video in sites/_org.yaml; kept while the module is enabled).
  const names = services.bundle.analyticsVariables.video!;
  const doc = win.document;
  const tracked: TrackedPlayer[] = [];
  let api: YTNamespace | undefined;
  let apiRequested = false;
  let gated = false;
  let allowed = false;
  let sampler: ReturnType<typeof setInterval> | undefined;

  function guard(step: string, run: () => void): void {
    try {
      run();
    } catch (e) {
      log.error(MODULE_FAILED, { module: MODULE, step, error: errorText(e) });
    }
  }

  dataLayer.on(
    moduleEventListener(log, MODULE, {
      video(push) {
        const record = videoRecord(push, names);
        if (record) void analytics.event({ name: record.name, eventType: VIDEO_EVENT_TYPE, linkType: "other", variables: record.variables });
      },
    }),
  );

  function setupStep(t: TrackedPlayer, step: string): void {
    monitor.emit("video", { setup: step, videoId: t.id });
  }

  function snapshot(t: TrackedPlayer): PlayerSnapshot {
    const p = t.player;
    const get = (name: string): unknown => {
      try {
        const getter = p && p[name];
        return typeof getter === "function" ? (getter as () => unknown).call(p) : undefined;
      } catch (e) {
        return undefined;
      }
    };
    const data = (get("getVideoData") || {}) as { video_id?: unknown; title?: unknown; isLive?: unknown };
    if (typeof data.video_id === "string" && data.video_id) t.id = data.video_id;
    return (t.last = {
      videoId: t.id,
      title: data.title as string | undefined,
      url: get("getVideoUrl") as string | undefined,
      duration: get("getDuration") as number | undefined,
      currentTime: get("getCurrentTime") as number | undefined,
      live: data.isLive === undefined ? undefined : !!data.isLive,
      volume: get("getVolume") as number | undefined,
      muted: get("isMuted") as boolean | undefined,
      rate: get("getPlaybackRate") as number | undefined,
      quality: get("getPlaybackQuality") as string | undefined,
      loadedFraction: get("getVideoLoadedFraction") as number | undefined,
      at: now(),
    });
  }

  function publish(t: TrackedPlayer, events: PlayerEvent[]): void {
    for (const e of events) {
      const { fields, invalid } = videoFields(e.event, e.snapshot, e.extras);
      if (invalid.length) log.warn(VIDEO_DATA_INVALID, { videoId: t.id, videoEvent: e.event, fields: invalid });
      if (fields.videoId) dataLayer.push({ event: "video", ...fields });
    }
    const playing = tracked.some((p) => p.tracker.playing());
    if (playing && !sampler) sampler = setInterval(() => guard("sample", sample), SAMPLE_MS);
    else if (!playing && sampler) {
      clearInterval(sampler);
      sampler = undefined;
    }
  }

  function sample(): void {
    for (const t of tracked) if (t.tracker.playing()) publish(t, t.tracker.sample(snapshot(t)));
  }

  function attach(t: TrackedPlayer): void {
    if (!api || t.player) return;
    const on = (run: (data: unknown) => PlayerEvent[]) => (event: { data?: unknown }) => guard("player event", () => publish(t, run(event && event.data)));
    const events: YTEvents = {
      onReady: on(() => {
        setupStep(t, "ready");
        return t.tracker.report("ready", snapshot(t));
      }),
      onStateChange: on((data) => t.tracker.state(Number(data), snapshot(t))),
      onError: on((data) => t.tracker.error(Number(data), snapshot(t))),
    };
    for (const [name, event] of REPORTED) events[name] = on(() => t.tracker.report(event, snapshot(t)));
    t.player = new api.Player(t.frame, { events });
    setupStep(t, "completed");
  }

  function apiReady(yt: YTNamespace): void {
    api = yt;
    reportTag(services, TAG, "loaded");
    for (const t of tracked) guard("player", () => attach(t));
  }

  function loadApi(): void {
    if (apiRequested) return;
    apiRequested = true;
    const isReady = () => !!win.YT && typeof win.YT.Player === "function";
    if (isReady()) return apiReady(win.YT!);
    let waiter: { nudge(): void } | undefined;
    // The API calls window.onYouTubeIframeAPIReady once ready: the page's own handler still runs.
    const previous = win.onYouTubeIframeAPIReady;
    win.onYouTubeIframeAPIReady = () => {
      if (waiter) guard("api ready", waiter.nudge);
      if (typeof previous === "function") previous();
    };
    reportTag(services, TAG, "loading", { src: config.apiSrc });
    loadScript(config.apiSrc).then(
      () =>
        guard("api ready", () => {
          waiter = whenApiReady(
            isReady,
            (callback, ms) => setTimeout(() => guard("api ready", callback), ms),
            () => apiReady(win.YT!),
            () => {
              log.warn(VIDEO_NOT_INITIALISED, { tag: TAG, src: config.apiSrc });
              reportTag(services, TAG, "failed", { reason: VIDEO_NOT_INITIALISED });
            },
          );
        }),
      (e) => {
        log.error(VIDEO_API_NOT_LOADED, { tag: TAG, src: config.apiSrc, error: errorText(e) });
        reportTag(services, TAG, "failed", { reason: VIDEO_API_NOT_LOADED });
      },
    );
  }

  function track(frame: HTMLIFrameElement): void {
    for (const t of tracked) if (t.frame === frame) return;
    const t: TrackedPlayer = { frame, id: embedVideoId(frame.src), tracker: createPlayerTracker(config), last: { at: now() } };
    tracked.push(t);
    setupStep(t, "started");
    const src = withJsApi(frame.src, win.location.origin);
    if (src) {
      frame.src = src;
      setupStep(t, "modified");
      setupStep(t, "updating");
    }
    attach(t);
  }

  function playerFrames(): HTMLIFrameElement[] {
    const frames: HTMLIFrameElement[] = [];
    const found = doc.querySelectorAll(config.frameSelector);
    for (let i = 0; i < found.length; i++) {
      const frame = found[i] as HTMLIFrameElement;
      if (frame.tagName === "IFRAME" && isPlayerFrame(frame.src, config.platform)) frames.push(frame);
    }
    return frames;
  }

  /** Whether a mutation added a frame (itself or inside an added element): only then is the page scanned again. */
  function addsFrame(m: MutationRecord): boolean {
    for (let i = 0; i < m.addedNodes.length; i++) {
      const node = m.addedNodes[i] as Element;
      if (node.nodeType === 1 && (node.tagName === "IFRAME" || node.getElementsByTagName("iframe").length)) return true;
    }
    return false;
  }

  /** Frames on the page: the first one asks the consent gate; once allowed, each is set up. */
  function scan(): void {
    const frames = playerFrames();
    if (!frames.length) return;
    if (!gated) {
      gated = true;
      consent.whenTagAllowed(TAG, config.consent, () =>
        guard("start", () => {
          allowed = true;
          loadApi();
          scan();
        }),
      );
    } else if (allowed) for (const frame of frames) guard("player", () => track(frame));
  }

  function sweep(): void {
    for (let i = tracked.length - 1; i >= 0; i--) {
      const t = tracked[i];
      if (t.frame.isConnected) continue;
      tracked.splice(i, 1);
      setupStep(t, "removed");
      publish(t, t.tracker.removed({ ...t.last, at: now() }));
    }
  }

  if (tagDisabled(page.query, TAG)) skipTag(services, TAG, TAG_DISABLED);
  else
    onDomReady(doc, () =>
      guard("start", () => {
        scan();
        if (typeof MutationObserver !== "function") return;
        new MutationObserver((mutations) =>
          guard("observe", () => {
            if (tracked.length) sweep();
            if (mutations.some(addsFrame)) scan();
          }),
        ).observe(doc.documentElement, { childList: true, subtree: true });
      }),
    );

  return {
    commands: {
      players: () => tracked.map((t) => ({ videoId: t.id, event: t.tracker.last() })),
    },
  };
}

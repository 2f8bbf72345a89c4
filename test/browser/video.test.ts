/**
 * Video player tracking (runtime-modules/modules/video/) in real Chromium:
 * the catalogue's production bundle of a site that enables it (apclassroom),
 * a page embedding a player frame from www.youtube.com, the platform's
 * iframe API served locally (harness/youtube.ts, a mock of YT.Player driven
 * from the test), and what reaches the data layer and the mock edge.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { buildBundles, CONSENT, settle, useBrowserHarness, YOUTUBE_API_URL, type Bundle, type RecordedRequest, type TestPage } from "./harness/index.js";

const h = useBrowserHarness();

const VIDEO_ID = "a1B2_c3-D4";
const FRAME = `<iframe id="player" title="AP Daily: Unit 1" data-duration="184" width="560" height="315" src="https://www.youtube.com/embed/${VIDEO_ID}"></iframe>
<iframe id="other" title="map" src="https://maps.vendor.example/embed?q=kiwi"></iframe>`;

type Beacon = { events: Array<{ xdm: Record<string, any>; data?: { __adobe: { analytics: Record<string, string> } } }> };
const videoBeacons = () =>
  h.web
    .find((r: RecordedRequest) => r.host === "edge.kiwi.example" && r.method === "POST" && /\/v1\/(interact|collect)$/.test(r.path))
    .map((r: RecordedRequest) => r.json as Beacon)
    .filter((b) => b && Array.isArray(b.events) && b.events[0]?.xdm.eventType === "kiwi.video")
    .map((b) => ({ name: b.events[0].xdm.web.webInteraction.name as string, vars: b.events[0].data?.__adobe.analytics ?? {} }));
const videoPushes = (tab: TestPage): Promise<Array<Record<string, any>>> =>
  tab.page.evaluate(() => (window as any).kiwiDataLayer.filter((p: any) => p && p.event === "video"));
const setupSteps = (tab: TestPage): Promise<string[]> =>
  tab.page.evaluate(() => (window as any).__sitetagsEvents.filter((e: any) => e.type === "video").map((e: any) => e.setup));
const logOf = (tab: TestPage): Promise<Array<[string, string]>> => tab.page.evaluate(() => (window as any).sitetags.log.map((e: any) => [e.level, e.message]));
const player = (tab: TestPage, call: string, ...args: unknown[]) =>
  tab.page.evaluate(([id, name, rest]) => (window as any).__yt.get(id)[name as string](...(rest as unknown[])), [VIDEO_ID, call, args] as const);
async function until(check: () => Promise<boolean> | boolean, timeoutMs = 6000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check()) && Date.now() < end) await settle(25);
}
const events = async (tab: TestPage) => (await videoPushes(tab)).map((p) => p.videoEvent + (p.videoMilestone ? ":" + p.videoMilestone : ""));

let b: Record<"apclassroom" | "apclassroomQa" | "go", Bundle>;
beforeAll(async () => {
  b = await buildBundles({ apclassroom: ["apclassroom", "prod"], apclassroomQa: ["apclassroom", "qa"], go: ["go", "prod"] });
}, 240_000);

async function openVideoPage(options: { consent?: string; bundle?: Bundle; body?: string; path?: string } = {}): Promise<TestPage> {
  const url = h.web.page(`https://apclassroom.kiwi.example${options.path ?? "/videos/unit-1"}`, {
    bundle: options.bundle ?? b.apclassroom,
    body: options.body ?? FRAME,
  });
  return h.browser.openPage(url, { consentGroups: options.consent ?? CONSENT.performance });
}

describe("video player tracking (apclassroom)", () => {
  it("'A player frame is tracked only if its source contains the video platform name': the frame gets the iframe API (enablejsapi, origin), the other frame is left alone; setup started, modified, updating, completed, ready", async () => {
    const tab = await openVideoPage();
    await h.web.waitForRequest({ host: "www.youtube.com", path: "/iframe_api" });
    await until(async () => (await setupSteps(tab)).includes("ready"));
    expect(await setupSteps(tab)).toEqual(["started", "modified", "updating", "completed", "ready"]);
    const src = await tab.page.evaluate(() => [
      (document.getElementById("player") as HTMLIFrameElement).src,
      (document.getElementById("other") as HTMLIFrameElement).src,
    ]);
    const url = new URL(src[0]);
    expect(url.pathname).toBe(`/embed/${VIDEO_ID}`);
    expect(url.searchParams.get("enablejsapi")).toBe("1");
    expect(url.searchParams.get("origin")).toBe("https://apclassroom.kiwi.example");
    expect(src[1]).toBe("https://maps.vendor.example/embed?q=kiwi");
    expect(h.web.find({ host: "www.youtube.com", path: "/iframe_api" })).toHaveLength(1);
    expect(await tab.page.evaluate(() => (window as any).__yt.players.length)).toBe(1);
    expect(await events(tab)).toEqual(["ready"]);
    expect(tab.pageErrors).toEqual([]);
  });

  it("'Playing becomes started on first play, replayed after an end, resumed after a pause'; 'Milestones 30, 60, 90, 120 s'; played times with paused and ended; each recorded as the spec tracks it", async () => {
    const tab = await openVideoPage();
    await until(async () => (await events(tab)).includes("ready"));
    await player(tab, "setPlaybackRate", 40);
    await player(tab, "playVideo");
    await until(async () => (await events(tab)).includes("milestone:120s"), 8000);
    await player(tab, "pauseVideo");
    await player(tab, "playVideo");
    await player(tab, "end");
    await player(tab, "playVideo");
    await player(tab, "pauseVideo");
    expect(await events(tab)).toEqual([
      "ready",
      "rate-changed",
      "started",
      "milestone:30s",
      "milestone:60s",
      "milestone:90s",
      "milestone:120s",
      "paused",
      "resumed",
      "ended",
      "replayed",
      "paused",
    ]);
    const pushes = await videoPushes(tab);
    const started = pushes.find((p) => p.videoEvent === "started")!;
    expect(started).toMatchObject({
      videoId: VIDEO_ID,
      videoTitle: "AP Daily: Unit 1",
      videoUrl: `https://www.youtube.com/watch?v=${VIDEO_ID}`,
      videoType: "video-on-demand",
      videoDuration: 184,
      videoVolume: 80,
      videoMuted: false,
      videoPlaybackRate: 40,
      videoPlaybackQuality: "hd720",
      videoLoadedFraction: 0.25,
      playerState: "video started",
    });
    expect(started).not.toHaveProperty("videoPlayedSegmentTime");
    // "Times floor to half second."
    for (const p of pushes) if (p.videoCurrentTime !== undefined) expect(p.videoCurrentTime * 2).toBe(Math.floor(p.videoCurrentTime * 2));
    const paused = pushes.find((p) => p.videoEvent === "paused")!;
    expect(paused.videoPlayedSegmentTime).toBeGreaterThanOrEqual(120);
    expect(paused.videoPlayedTotalTime).toBe(paused.videoPlayedSegmentTime);
    const ended = pushes.find((p) => p.videoEvent === "ended")!;
    expect(ended).toMatchObject({ playerState: "video ended", videoCurrentTime: 184 });
    // Milestone only with the milestone event.
    for (const p of pushes) expect(p.videoEvent === "milestone" || p.videoMilestone === undefined).toBe(true);

    await until(() => videoBeacons().length >= 8);
    const beacons = videoBeacons();
    expect(beacons.map((x) => x.name)).toEqual([
      `video:started:${VIDEO_ID}`,
      `video:milestone:${VIDEO_ID}:30s`,
      `video:milestone:${VIDEO_ID}:60s`,
      `video:milestone:${VIDEO_ID}:90s`,
      `video:milestone:${VIDEO_ID}:120s`,
      `video:resumed:${VIDEO_ID}`,
      `video:ended:${VIDEO_ID}`,
      `video:replayed:${VIDEO_ID}`,
    ]);
    expect(beacons[0].vars).toMatchObject({ events: "event71", eVar106: VIDEO_ID, eVar107: "AP Daily: Unit 1" });
    expect(beacons[1].vars).toMatchObject({ events: "event72", eVar108: "30s" });
    expect(beacons.slice(5).map((x) => x.vars.events)).toEqual(["event73", "event74", "event75"]);
    expect(tab.pageErrors).toEqual([]);
  });

  it("'Consecutive identical ... events are suppressed'; a player error is 'Recorded as player:code:message, type Video Player'", async () => {
    const tab = await openVideoPage();
    await until(async () => (await events(tab)).includes("ready"));
    await player(tab, "setTo", 3);
    await player(tab, "setTo", 3);
    await player(tab, "setTo", 5);
    await player(tab, "setTo", 5);
    await player(tab, "error", 100);
    await until(() => videoBeacons().length >= 1);
    expect(await events(tab)).toEqual(["ready", "buffering", "cued", "error"]);
    const error = (await videoPushes(tab)).find((p) => p.videoEvent === "error")!;
    expect(error).toMatchObject({ errorCode: 100, errorMessage: "Requested video was not found (error 100)", playerState: "player error" });
    expect(videoBeacons()).toEqual([
      {
        name: "player:100:Requested video was not found (error 100)",
        vars: expect.objectContaining({
          events: "event76,event50",
          eVar97: "Requested video was not found (error 100)",
          eVar98: "Video Player",
          eVar106: VIDEO_ID,
        }),
      },
    ]);
  });

  it("'on removal played time is added to the total'; a frame added later is tracked too", async () => {
    const tab = await openVideoPage();
    await until(async () => (await events(tab)).includes("ready"));
    await player(tab, "setPlaybackRate", 20);
    await player(tab, "playVideo");
    await until(async () => (await events(tab)).includes("milestone:30s"), 8000);
    await tab.page.evaluate(() => document.getElementById("player")!.remove());
    await until(async () => (await events(tab)).includes("removed"));
    const removed = (await videoPushes(tab)).find((p) => p.videoEvent === "removed")!;
    expect(removed.videoPlayedTotalTime).toBeGreaterThanOrEqual(30);
    expect(removed.videoPlayedSegmentTime).toBe(removed.videoPlayedTotalTime);
    expect(await setupSteps(tab)).toContain("removed");

    await tab.page.evaluate(() => {
      const frame = document.createElement("iframe");
      frame.src = "https://www.youtube.com/embed/second_video";
      document.body.appendChild(frame);
    });
    await until(async () => (await tab.page.evaluate(() => (window as any).sitetags.commands.video.players())).length === 1);
    await until(async () => (await videoPushes(tab)).some((p) => p.videoId === "second_video" && p.videoEvent === "ready"));
    expect(await tab.page.evaluate(() => (window as any).sitetags.commands.video.players())).toEqual([{ videoId: "second_video", event: "ready" }]);
    expect(h.web.find({ host: "www.youtube.com", path: "/iframe_api" })).toHaveLength(1);
  });

  it("'survey ... needs performance consent' holds for video too: without performance consent nothing loads, no frame changes, nothing is pushed", async () => {
    const tab = await openVideoPage({ consent: CONSENT.necessary });
    await settle(600);
    expect(h.web.find({ host: "www.youtube.com", path: "/iframe_api" })).toEqual([]);
    expect(await tab.page.evaluate(() => (document.getElementById("player") as HTMLIFrameElement).src)).toBe(`https://www.youtube.com/embed/${VIDEO_ID}`);
    expect(await videoPushes(tab)).toEqual([]);
  });

  it("'YouTube IFrame API could not be loaded' is logged when the script fails; the page carries on", async () => {
    h.web.script(YOUTUBE_API_URL, { status: 404 });
    const tab = await openVideoPage();
    await until(async () => (await logOf(tab)).some(([, m]) => m === "YouTube IFrame API could not be loaded"));
    expect(await logOf(tab)).toContainEqual(["error", "YouTube IFrame API could not be loaded"]);
    expect(await events(tab)).toEqual([]);
    expect(tab.pageErrors).toEqual([]);
  });

  it("a page's own video pushes (its own player) are recorded the same way", async () => {
    const tab = await openVideoPage({ body: "<p>no frame</p>" });
    await tab.page.evaluate(() => (window as any).kiwiDataLayer.push({ event: "video", videoEvent: "started", videoId: "own_player_1", videoTitle: "Own" }));
    await until(() => videoBeacons().length >= 1);
    expect(videoBeacons()[0]).toMatchObject({ name: "video:started:own_player_1", vars: expect.objectContaining({ events: "event71", eVar107: "Own" }) });
    expect(h.web.find({ host: "www.youtube.com" })).toEqual([]);
  });

  it("every push the module makes has the documented shape of the video push: the non-production data-layer checks find nothing to report", async () => {
    const url = h.web.page("https://apclassroom-qa.kiwi.example/videos/unit-1", { bundle: b.apclassroomQa, body: FRAME });
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.performance });
    expect(b.apclassroomQa.report.moduleBytes.devChecks).toBeGreaterThan(0);
    await until(async () => (await events(tab)).includes("ready"));
    await player(tab, "setPlaybackRate", 40);
    await player(tab, "playVideo");
    await until(async () => (await events(tab)).includes("milestone:30s"), 8000);
    await player(tab, "pauseVideo");
    await player(tab, "playVideo");
    await player(tab, "end");
    await player(tab, "error", 5);
    await tab.page.evaluate(() => document.getElementById("player")!.remove());
    await until(async () => (await events(tab)).includes("removed"));
    expect(await events(tab)).toEqual(["ready", "rate-changed", "started", "milestone:30s", "paused", "resumed", "ended", "error", "removed"]);
    const problems = (await logOf(tab)).filter(([, m]) => m.startsWith('data layer push "video"') || m.includes("unknown event"));
    expect(problems).toEqual([]);
    // The checks do run in this bundle: a bad push is reported.
    await tab.page.evaluate(() => (window as any).kiwiDataLayer.push({ event: "video", videoEvent: "started", videoId: "v1", videoVolume: "loud" }));
    await until(async () => (await logOf(tab)).some(([, m]) => m.startsWith('data layer push "video"')));
    expect((await logOf(tab)).filter(([, m]) => m.startsWith('data layer push "video"'))).toHaveLength(1);
  });

  it("a site without the module (go) neither loads the API nor touches the frame, and its bundle has no video code", async () => {
    expect(b.go.modules).not.toContain("video");
    expect(b.apclassroom.modules).toContain("video");
    expect(b.go.code).not.toContain("kiwi.video");
    expect(b.go.code).not.toContain("enablejsapi");
    expect(b.apclassroom.code).toContain("enablejsapi");
    const url = h.web.page("https://go.kiwi.example/videos/unit-1", { bundle: b.go, body: FRAME });
    const tab = await h.browser.openPage(url, { consentGroups: CONSENT.performance });
    await settle(400);
    expect(h.web.find({ host: "www.youtube.com", path: "/iframe_api" })).toEqual([]);
    expect(await tab.page.evaluate(() => (document.getElementById("player") as HTMLIFrameElement).src)).toBe(`https://www.youtube.com/embed/${VIDEO_ID}`);
  });
});

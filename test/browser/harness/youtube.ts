/**
 * The video platform, served locally (servers.ts answers every
 * *.youtube.com request; browser.ts maps the names): its iframe API script
 * at https://www.youtube.com/iframe_api and embed pages at /embed/ID.
 *
 * The mock API implements the part of YT.Player the video module uses: a
 * player over an existing iframe, its getters (current time, duration, video
 * data, URL, volume, muted, rate, quality, loaded fraction, state) and its
 * events (onReady, onStateChange, onError, onPlaybackRateChange, ...). Time
 * runs while playing, at the playback rate. Tests drive the players from the
 * page: `__yt.get(videoId)` is the player, with playVideo(), pauseVideo(),
 * seekTo(seconds), setPlaybackRate(rate), end() and error(code). Frame
 * attributes set up a video: title, data-duration (seconds, default 184),
 * data-live.
 */
export const YOUTUBE_HOST = "www.youtube.com";
export const YOUTUBE_API_URL = `https://${YOUTUBE_HOST}/iframe_api`;

export const YOUTUBE_API_MOCK = `(function () {
  var S = { UNSTARTED: -1, ENDED: 0, PLAYING: 1, PAUSED: 2, BUFFERING: 3, CUED: 5 };
  var players = [];
  function Player(el, options) {
    var frame = typeof el === "string" ? document.getElementById(el) : el;
    var m = /\\/embed\\/([\\w-]+)/.exec(frame.src);
    this.frame = frame;
    this.events = (options && options.events) || {};
    this.id = m ? m[1] : "";
    this.state = S.UNSTARTED;
    this.t = 0;
    this.since = null;
    this.rate = 1;
    this.duration = Number(frame.getAttribute("data-duration") || 184);
    this.live = frame.hasAttribute("data-live");
    this.title = frame.getAttribute("title") || "";
    players.push(this);
    var self = this;
    setTimeout(function () { self.fire("onReady"); }, 0);
  }
  var P = Player.prototype;
  P.fire = function (name, data) { var f = this.events[name]; if (typeof f === "function") f({ target: this, data: data }); };
  P.getCurrentTime = function () {
    var t = this.t + (this.since === null ? 0 : ((performance.now() - this.since) / 1000) * this.rate);
    return this.live ? t : Math.min(t, this.duration);
  };
  P.setTo = function (state) {
    this.t = this.getCurrentTime();
    this.since = state === S.PLAYING ? performance.now() : null;
    this.state = state;
    this.fire("onStateChange", state);
  };
  P.playVideo = function () { if (this.state === S.ENDED) this.t = 0; this.setTo(S.PLAYING); };
  P.pauseVideo = function () { this.setTo(S.PAUSED); };
  P.end = function () { this.t = this.duration; this.setTo(S.ENDED); };
  P.seekTo = function (seconds) { this.t = seconds; if (this.since !== null) this.since = performance.now(); };
  P.setPlaybackRate = function (rate) { this.t = this.getCurrentTime(); if (this.since !== null) this.since = performance.now(); this.rate = rate; this.fire("onPlaybackRateChange", rate); };
  P.error = function (code) { this.fire("onError", code); };
  P.getDuration = function () { return this.duration; };
  P.getVideoData = function () { return { video_id: this.id, title: this.title, isLive: this.live }; };
  P.getVideoUrl = function () { return "https://www.youtube.com/watch?v=" + this.id; };
  P.getVolume = function () { return 80; };
  P.isMuted = function () { return false; };
  P.getPlaybackRate = function () { return this.rate; };
  P.getPlaybackQuality = function () { return "hd720"; };
  P.getVideoLoadedFraction = function () { return 0.25; };
  P.getPlayerState = function () { return this.state; };
  P.getIframe = function () { return this.frame; };
  window.YT = { Player: Player, PlayerState: S, loaded: 1 };
  window.__yt = { players: players, get: function (id) { for (var i = 0; i < players.length; i++) if (players[i].id === id) return players[i]; } };
  setTimeout(function () { if (typeof window.onYouTubeIframeAPIReady === "function") window.onYouTubeIframeAPIReady(); }, 0);
})();
`;

/** An embed page: what the frame shows (the mock player lives in the parent page's API). */
export function youtubeEmbedPage(path: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>embed</title></head><body>video ${path.replace(/[<>&"]/g, "")}</body></html>`;
}

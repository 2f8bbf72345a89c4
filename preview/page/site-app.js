/*
 * The mock site's own application code (the last script of every mock
 * page, with the page's nonce): what a real application on the site does,
 * so the bundle has something to observe. Its pushes are the documented
 * examples of the runtime's event table (docs/events.md), which the server
 * passes in PAGE.pushes (mock-page.ts MOCK_PUSHES); this script only sets
 * the values of the moment.
 *
 * `PAGE` (dataLayerName, pushes) is prepended by the server.
 */
/* global PAGE */
(function () {
  "use strict";
  var page = typeof PAGE === "object" && PAGE ? PAGE : {};
  var name = page.dataLayerName || "kiwiDataLayer";
  function push(item) {
    (window[name] = window[name] || []).push(item);
  }
  var shapes = page.pushes || {};
  /** A documented push with this moment's values. */
  function documented(kind, values) {
    var out = {};
    var k;
    var base = shapes[kind] || {};
    for (k in base) out[k] = base[k];
    for (k in values || {}) {
      if (values[k] === undefined) delete out[k];
      else out[k] = values[k];
    }
    return out;
  }
  function $(sel) {
    return document.querySelector(sel);
  }

  // Modal: shown and hidden.
  var dialog = $("#mock-modal");
  $("[data-preview='modal-open']").addEventListener("click", function () {
    dialog.hidden = false;
    push(documented("modal", { modalState: "shown" }));
  });
  $("[data-preview='modal-close']").addEventListener("click", function () {
    if (dialog.hidden) return;
    dialog.hidden = true;
    push(documented("modal", { modalState: "hidden" }));
  });

  // Newsletter form: a successful submit.
  $("[data-preview='form-submit']").addEventListener("submit", function (e) {
    e.preventDefault();
    $("#form-result").textContent = "Thanks, you are signed up.";
    push(documented("formSubmit"));
  });

  // Site search: results on the page, and the search push.
  $("[data-preview='search']").addEventListener("submit", function (e) {
    e.preventDefault();
    var term = String($("#search-term").value || "").trim();
    var list = $("#search-results");
    list.textContent = "";
    var count = term ? 3 : 0;
    for (var i = 1; i <= count; i++) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = "/search/result-" + i + "?q=" + encodeURIComponent(term);
      a.textContent = term + " — result " + i;
      a.setAttribute("data-search-result", String(i));
      if (i === 1) a.setAttribute("data-preview", "link-search-result");
      li.appendChild(a);
      list.appendChild(li);
    }
    push(documented("search", { term: term, count: count }));
  });

  // Video: a stand-in player that reports playback.
  var playing = false;
  var position = 0;
  var timer = 0;
  var duration = (shapes.video && shapes.video.videoDuration) || 184;
  var started = false;
  function videoPush(kind, extra) {
    var values = { videoEvent: kind, videoCurrentTime: position, videoMilestone: undefined };
    for (var x in extra || {}) values[x] = extra[x];
    push(documented("video", values));
  }
  $("[data-preview='video-play']").addEventListener("click", function () {
    playing = !playing;
    $("[data-preview='video-play']").textContent = playing ? "❚❚ Pause" : "▶ Play";
    if (playing) {
      videoPush(started ? "resumed" : "started");
      started = true;
      timer = setInterval(function () {
        position += 10;
        $("#video-time").textContent = position + " s";
        if (position === 30 || position === 60) videoPush("milestone", { videoMilestone: position + "s" });
        if (position >= duration) {
          clearInterval(timer);
          playing = false;
          videoPush("ended");
        }
      }, 1000);
    } else {
      clearInterval(timer);
      videoPush("paused");
    }
  });

  // Chat launcher: does nothing until a chat widget takes it over.
  $("[data-preview='chat-launcher']").addEventListener("click", function () {
    $("#chat-state").textContent = window.sitetags && window.sitetags.commands.chat ? "chat launcher clicked" : "no chat widget on this page";
  });
})();

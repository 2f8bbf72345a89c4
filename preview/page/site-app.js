/*
 * The mock site's own application code (the last script of every mock
 * page, with the page's nonce): what a real application on the site does,
 * so the bundle has something to observe. It pushes to the data layer as
 * docs/rules.md documents (the shapes the catalogue's rules read) and
 * docs/events.md where no rule exists yet (form-submit, video).
 *
 * `PAGE` (dataLayerName) is prepended by the server.
 */
/* global PAGE */
(function () {
  "use strict";
  var page = typeof PAGE === "object" && PAGE ? PAGE : {};
  var name = page.dataLayerName || "kiwiDataLayer";
  function push(item) {
    (window[name] = window[name] || []).push(item);
  }
  function $(sel) {
    return document.querySelector(sel);
  }

  // Modal: shown and hidden.
  var dialog = $("#mock-modal");
  $("[data-preview='modal-open']").addEventListener("click", function () {
    dialog.hidden = false;
    push({ event: "modal", modal: { name: "Checklist", state: "shown" } });
  });
  $("[data-preview='modal-close']").addEventListener("click", function () {
    if (dialog.hidden) return;
    dialog.hidden = true;
    push({ event: "modal", modal: { name: "Checklist", state: "hidden" } });
  });

  // Newsletter form: a successful submit.
  $("[data-preview='form-submit']").addEventListener("submit", function (e) {
    e.preventDefault();
    $("#form-result").textContent = "Thanks, you are signed up.";
    push({ event: "form-submit", formName: "newsletter-signup" });
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
    push({ event: "search", search: { term: term, type: "site", count: count } });
  });

  // Video: a stand-in player that reports playback.
  var playing = false;
  var position = 0;
  var timer = 0;
  var video = { videoId: "a1B2_c3-D4", videoTitle: "How to register", videoType: "video-on-demand", videoDuration: 184 };
  function videoPush(kind, extra) {
    var item = { event: "video", videoEvent: kind, videoCurrentTime: position };
    for (var k in video) item[k] = video[k];
    for (var x in extra || {}) item[x] = extra[x];
    push(item);
  }
  $("[data-preview='video-play']").addEventListener("click", function () {
    playing = !playing;
    $("[data-preview='video-play']").textContent = playing ? "❚❚ Pause" : "▶ Play";
    if (playing) {
      videoPush(position === 0 ? "start" : "play");
      timer = setInterval(function () {
        position += 10;
        $("#video-time").textContent = position + " s";
        if (position === 30 || position === 60) videoPush("milestone", { videoMilestone: position + "s" });
        if (position >= video.videoDuration) {
          clearInterval(timer);
          playing = false;
          videoPush("complete");
        }
      }, 1000);
    } else {
      clearInterval(timer);
      videoPush("pause");
    }
  });

  // Chat launcher: does nothing until a chat widget takes it over.
  $("[data-preview='chat-launcher']").addEventListener("click", function () {
    $("#chat-state").textContent = window.sitetags && window.sitetags.commands.chat ? "chat launcher clicked" : "no chat widget on this page";
  });
})();

/*
 * The preview's bridge: the first script of every mock site page, inlined
 * with the page's CSP nonce, before the bundle's tag. Plain ES2020, no
 * eval: it runs under the same strict policy as the bundle.
 *
 * It reads the frame's window.name (JSON, a PageSetup: see
 * preview/src/lib/protocol.ts), which the preview app sets on the iframe,
 * so the page's URL, cookies and referrer stay exactly as in production:
 *  - on the frame's first document: clears cookies and storage for a first
 *    visit, writes the visitor's cookies and storage, makes the template's
 *    data-layer pushes;
 *  - on every document: the consent banner's globals
 *    (window.OnetrustActiveGroups), the GPC signal, and a runtime monitor
 *    (window.__sitetagsMonitors) that forwards every event to the app by
 *    postMessage, with cookie writes, CSP violations and uncaught errors.
 * The app drives the page back through messages: kit actions, data-layer
 * pushes, banner consent changes, sitetags.track calls, snapshots.
 *
 * `PAGE` (site, env, csp) is prepended by the server.
 */
/* global PAGE */
(function () {
  "use strict";
  var SOURCE = "sitetags-preview-bridge";
  var APP = "sitetags-preview-app";
  var CONSENT_EVENT = "consent.onetrust";
  var page = typeof PAGE === "object" && PAGE ? PAGE : {};
  var setup = null;
  try {
    var parsed = JSON.parse(window.name || "null");
    if (parsed && parsed.v === 1) setup = parsed;
  } catch (e) {
    setup = null;
  }
  var standalone = !setup || window.parent === window;
  // Without the app (the page opened on its own) events stay in the page.
  var local = (window.__sitetagsPreviewEvents = []);

  function clone(value) {
    try {
      return JSON.parse(JSON.stringify(value));
    } catch (e) {
      return { unserializable: String(value) };
    }
  }

  function post(msg) {
    local.push(msg);
    if (standalone) return;
    try {
      window.parent.postMessage({ source: SOURCE, frame: setup.frame, msg: msg }, setup.parentOrigin);
    } catch (e) {
      // The app went away; nothing to do.
    }
  }

  function saveSetup() {
    try {
      window.name = JSON.stringify(setup);
    } catch (e) {
      // window.name is always writable; ignore the impossible.
    }
  }

  // This document's load, for the requests it sends while it unloads: the app never hears of those (what a
  // document posts during pagehide is lost), so at pagehide the bridge sets a short-lived cookie naming this load;
  // the edge requests sent then carry it to the server, which records it (NetworkRecord.unloadOf).
  var UNLOAD_COOKIE = "__sitetags_preview_unload";
  var loadId = Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
  var apexPart = page.apex ? "; domain=" + page.apex : "";

  post({
    kind: "hello",
    at: Date.now(),
    href: location.href,
    title: document.title,
    timeOrigin: performance.timeOrigin,
    nonce: true,
    csp: String(page.csp || ""),
    load: loadId,
  });

  // Cookie writes, with their attributes, as they happen.
  var writer = "setup";
  var cookieProperty = Object.getOwnPropertyDescriptor(Document.prototype, "cookie");
  if (cookieProperty && cookieProperty.get && cookieProperty.set) {
    Object.defineProperty(document, "cookie", {
      configurable: true,
      get: function () {
        return cookieProperty.get.call(document);
      },
      set: function (value) {
        cookieProperty.set.call(document, value);
        post({ kind: "cookie", at: Date.now(), text: String(value), by: writer });
      },
    });
  }

  if (setup && !setup.applied) {
    if (setup.fresh) {
      var apex = String(page.apex || "");
      document.cookie.split(";").forEach(function (part) {
        var name = part.split("=")[0].trim();
        if (!name) return;
        cookieProperty.set.call(document, name + "=; path=/; max-age=0");
        if (apex) cookieProperty.set.call(document, name + "=; path=/; domain=" + apex + "; max-age=0");
      });
      try {
        localStorage.clear();
        sessionStorage.clear();
      } catch (e) {
        // Storage may be blocked; the bundle copes, so do we.
      }
    }
    (setup.cookies || []).forEach(function (text) {
      document.cookie = text;
    });
    // The documented debug switch's stored form (docs/runtime.md, "Debug mode").
    document.cookie = setup.debug ? "sitetags-debug=1; path=/" : "sitetags-debug=; path=/; max-age=0";
    try {
      Object.keys(setup.localStorage || {}).forEach(function (key) {
        localStorage.setItem(key, setup.localStorage[key]);
      });
    } catch (e) {
      // As above.
    }
    var pushes = setup.dataLayer || [];
    if (pushes.length) {
      var name = setup.dataLayerName || "kiwiDataLayer";
      var layer = (window[name] = window[name] || []);
      pushes.forEach(function (item) {
        layer.push(item);
      });
    }
    setup.applied = true;
    saveSetup();
  }
  writer = "page";
  // The previous document's unload cookie has done its work (its beacons left before this document started).
  if (cookieProperty) cookieProperty.set.call(document, UNLOAD_COOKIE + "=; path=/; max-age=0" + apexPart);

  // The banner's globals, as a OneTrust-style banner leaves them on every page once a choice is recorded.
  if (setup && typeof setup.consentGroups === "string") window.OnetrustActiveGroups = setup.consentGroups;
  if (setup && setup.gpc) {
    try {
      Object.defineProperty(Navigator.prototype, "globalPrivacyControl", {
        configurable: true,
        get: function () {
          return true;
        },
      });
    } catch (e) {
      // Read-only in some browser; the panel shows what the page sees.
    }
  }
  post({ kind: "consent", at: Date.now(), groups: typeof window.OnetrustActiveGroups === "string" ? window.OnetrustActiveGroups : null, via: "setup" });

  // The runtime monitor (docs/runtime.md "Monitors").
  var monitors = (window.__sitetagsMonitors = window.__sitetagsMonitors || []);
  monitors.push(function (event) {
    post({ kind: "monitor", at: Date.now(), event: clone(event) });
  });

  // The page's lifecycle, before the bundle's own listeners (this script runs first): a beacon the runtime
  // reports after "unload" was sent while the page unloaded.
  document.addEventListener("visibilitychange", function () {
    post({ kind: "lifecycle", at: Date.now(), state: document.visibilityState === "hidden" ? "hidden" : "visible" });
  });
  window.addEventListener("pagehide", function () {
    if (cookieProperty) cookieProperty.set.call(document, UNLOAD_COOKIE + "=" + loadId + "; path=/; max-age=10; secure; samesite=none" + apexPart);
    post({ kind: "lifecycle", at: Date.now(), state: "unload" });
  });

  // Every request this document made (resource timing), so the app keeps only the server records of its own page.
  if (typeof PerformanceObserver === "function") {
    try {
      new PerformanceObserver(function (list) {
        var urls = list.getEntries().map(function (e) {
          return e.name;
        });
        if (urls.length) post({ kind: "resources", at: Date.now(), urls: urls });
      }).observe({ type: "resource", buffered: true });
    } catch (e) {
      // No resource timing: the app falls back to the page's host.
    }
  }

  document.addEventListener("securitypolicyviolation", function (e) {
    post({ kind: "csp", at: Date.now(), directive: e.violatedDirective, blockedURI: e.blockedURI, sourceFile: e.sourceFile, sample: e.sample });
  });
  window.addEventListener("error", function (e) {
    post({ kind: "error", at: Date.now(), message: String(e.message || e.error), source: e.filename ? e.filename + ":" + e.lineno : undefined });
  });
  window.addEventListener("unhandledrejection", function (e) {
    post({ kind: "error", at: Date.now(), message: "unhandled rejection: " + String(e.reason && e.reason.message ? e.reason.message : e.reason) });
  });

  function snapshot() {
    var st = window.sitetags;
    var storage = {};
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var key = localStorage.key(i);
        if (key && (key.indexOf("sitetags") === 0 || key.indexOf("kiwi") === 0)) storage[key] = String(localStorage.getItem(key));
      }
    } catch (e) {
      // No storage.
    }
    var commands = {};
    if (st && st.commands)
      Object.keys(st.commands).forEach(function (m) {
        commands[m] = Object.keys(st.commands[m]);
      });
    var layerName = (setup && setup.dataLayerName) || "kiwiDataLayer";
    post({
      kind: "snapshot",
      at: Date.now(),
      snapshot: {
        href: location.href,
        cookies: cookieProperty.get.call(document),
        consentGroups: typeof window.OnetrustActiveGroups === "string" ? window.OnetrustActiveGroups : null,
        gpc: navigator.globalPrivacyControl === true,
        sitetags: st
          ? { version: st.version, site: st.site, env: st.env, modules: clone(st.modules), commands: commands, logSize: st.log ? st.log.length : 0 }
          : undefined,
        dataLayerLength: Array.isArray(window[layerName]) ? window[layerName].length : 0,
        storage: storage,
        thirdParty: clone(window.__thirdParty || []),
      },
    });
  }
  function snapshotSoon(ms) {
    setTimeout(snapshot, ms);
  }
  document.addEventListener("DOMContentLoaded", function () {
    snapshotSoon(0);
  });
  window.addEventListener("load", function () {
    snapshotSoon(0);
    snapshotSoon(1500);
  });

  function find(action) {
    return document.querySelector('[data-preview="' + action.replace(/"/g, "") + '"]');
  }

  function run(msg) {
    switch (msg.kind) {
      case "action": {
        var el = find(msg.action);
        if (!el) throw new Error("no element for action " + msg.action + " on this page");
        if (msg.value !== undefined && "value" in el) el.value = msg.value;
        if (el.tagName === "FORM") {
          if (msg.value !== undefined) {
            var input = el.querySelector("input");
            if (input) input.value = msg.value;
          }
          el.requestSubmit();
        } else el.click();
        return;
      }
      case "push": {
        var n = (setup && setup.dataLayerName) || "kiwiDataLayer";
        (window[n] = window[n] || []).push(msg.data);
        return;
      }
      case "consent": {
        writer = "setup";
        if (msg.groups === null) delete window.OnetrustActiveGroups;
        else window.OnetrustActiveGroups = msg.groups;
        if (typeof msg.groups === "string") {
          var groups = msg.groups.split(",").filter(Boolean);
          document.cookie =
            "OptanonAlertBoxClosed=" +
            encodeURIComponent(new Date().toISOString()) +
            "; path=/" +
            (page.apex ? "; domain=" + page.apex : "") +
            "; max-age=31536000; secure; samesite=lax";
          document.cookie =
            "OptanonConsent=" +
            encodeURIComponent(
              "groups=" +
                groups
                  .map(function (g) {
                    return g + ":1";
                  })
                  .join(","),
            ) +
            "; path=/" +
            (page.apex ? "; domain=" + page.apex : "") +
            "; max-age=31536000; secure; samesite=lax";
        }
        writer = "page";
        if (setup) {
          setup.consentGroups = msg.groups;
          saveSetup();
        }
        post({ kind: "consent", at: Date.now(), groups: msg.groups, via: msg.via });
        if (msg.via === "OptanonWrapper") {
          if (typeof window.OptanonWrapper === "function") window.OptanonWrapper();
        } else window.dispatchEvent(new CustomEvent(CONSENT_EVENT, { detail: typeof msg.groups === "string" ? msg.groups.split(",").filter(Boolean) : [] }));
        return;
      }
      case "track":
        if (!window.sitetags) throw new Error("window.sitetags is not there (the bundle did not start)");
        window.sitetags.track(msg.name, msg.detail);
        return;
      case "snapshot":
        return;
      default:
        throw new Error("unknown message " + msg.kind);
    }
  }

  window.addEventListener("message", function (e) {
    if (standalone || e.origin !== setup.parentOrigin || !e.data || e.data.source !== APP || !e.data.msg) return;
    var msg = e.data.msg;
    var ok = true;
    var error;
    try {
      run(msg);
    } catch (err) {
      ok = false;
      error = String(err && err.message ? err.message : err);
    }
    post({ kind: "ack", at: Date.now(), id: msg.id, ok: ok, error: error });
    snapshotSoon(msg.kind === "snapshot" ? 0 : 300);
  });
})();

/**
 * The preview's answers to what a page loads besides its bundle and the
 * edge: scripts and images of the site's own host (the first-party id
 * script among them), and third parties (stand-in scripts, the consent
 * banner's stand-in, images, frames, styles, the referrer hop page).
 */
import type { ServerResponse } from "node:http";
import type { NetworkRecord } from "../src/lib/protocol";
import { HOP_PARAM } from "../src/lib/state";
import type { DistSet } from "./dists";
import { PIXEL_GIF, recordSelfScript, send } from "./fictional-web";
import { renderHopPage, renderThirdPartyPage } from "./mock-page";
import { TYPES } from "./static-files";

/** The consent banner SDK's stand-in: no UI; on load it calls OptanonWrapper when a choice is on record, as the real SDK does. */
const BANNER_STUB = `(function () {
  if (typeof window.OnetrustActiveGroups === "string" && typeof window.OptanonWrapper === "function") {
    try { window.OptanonWrapper(); } catch (e) { /* the page's business */ }
  }
})();
`;

/**
 * A script or image of the site's own host: the first-party id script (the bundle's identity.fpid.src), which
 * writes its cookie as the real one would, or a script that records itself; images are 1x1.
 */
export function answerAsset(res: ServerResponse, host: string, record: NetworkRecord, dists: DistSet, apex: string): void {
  if (record.dest === "image") return send(res, 200, { "content-type": "image/gif" }, PIXEL_GIF);
  if (record.dest !== "script") return send(res, 204, { "access-control-allow-origin": "*" });
  const recordSelf = recordSelfScript(record.url);
  const bundle = dists.forHost(host);
  const fpid = (bundle?.config?.raw.identity as { fpid?: { src?: unknown; cookie?: unknown } } | undefined)?.fpid;
  const fpidPath = typeof fpid?.src === "string" ? fpid.src : "/fpid.js";
  if (record.path !== fpidPath) return send(res, 200, { "content-type": TYPES[".js"] }, recordSelf);
  const cookie = typeof fpid?.cookie === "string" ? fpid.cookie : "kiwi_fpid";
  const script = `${recordSelf}(function () {
  var name = ${JSON.stringify(cookie)};
  if (document.cookie.split("; ").some(function (c) { return c.indexOf(name + "=") === 0; })) return;
  var id = "fp-" + Math.random().toString(16).slice(2, 10) + Math.random().toString(16).slice(2, 10);
  document.cookie = name + "=" + id + "; path=/; domain=${apex}; max-age=34128000; secure; samesite=lax";
})();
`;
  return send(res, 200, { "content-type": TYPES[".js"] }, script);
}

export function answerThirdParty(res: ServerResponse, record: NetworkRecord, dists: DistSet): void {
  const cors = { "access-control-allow-origin": "*" };
  const dest = record.dest ?? "";
  const hop = record.query[HOP_PARAM];
  if (hop && /^https:\/\//.test(hop)) return send(res, 200, { "content-type": TYPES[".html"], "cache-control": "no-store" }, renderHopPage(hop));
  if (dest === "image" || /\.(gif|png|jpe?g)$/i.test(record.path)) return send(res, 200, { ...cors, "content-type": "image/gif" }, PIXEL_GIF);
  if (dest === "iframe" || dest === "document" || dest === "frame") return send(res, 200, { "content-type": TYPES[".html"] }, renderThirdPartyPage(record.url));
  if (dest === "style") return send(res, 200, { ...cors, "content-type": TYPES[".css"] }, "/* third-party stub */\n");
  if (dest === "script" || /\.js$/i.test(record.path)) {
    const recordSelf = recordSelfScript(record.url);
    return send(
      res,
      200,
      { ...cors, "content-type": TYPES[".js"] },
      bannerScripts(dists).has(record.url.replace(/\?.*/, "")) ? recordSelf + BANNER_STUB : recordSelf,
    );
  }
  return send(res, 204, cors);
}

/** The consent banner script of every bundle (its stand-in calls OptanonWrapper like the real SDK; the preview's Banner buttons play the visitor). */
function bannerScripts(dists: DistSet): Set<string> {
  const out = new Set<string>();
  for (const b of dists.all()) {
    const banner = (b.config?.raw.consent as { banner?: { scriptSrc?: unknown } } | undefined)?.banner;
    if (typeof banner?.scriptSrc === "string") out.add(banner.scriptSrc.replace(/\?.*/, ""));
  }
  return out;
}

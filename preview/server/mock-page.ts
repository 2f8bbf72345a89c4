/**
 * The mock site page: a real page on the site's real-looking host, under a
 * strict Content-Security-Policy, with three scripts, all carrying the
 * response's nonce: the preview's bridge (first, before anything else), the
 * bundle's tag exactly as the embed code writes it (plus the manifest's SRI
 * integrity), and the mock application's code (last).
 *
 * The body is one kit for every page: links of each type the spec tracks,
 * a modal, a form, a site search, a video, a chat launcher and a survey
 * mount, each marked data-preview="…" for the app's action buttons.
 */
import { readFileSync } from "node:fs";
import { EVENT_DOCS } from "../../runtime-modules/data-layer-events/event-docs";
import { fileURLToPath } from "node:url";

export const PAGE_DIR = fileURLToPath(new URL("../page/", import.meta.url));

/** The policies the app can choose; `{nonce}` is replaced per response. */
export const CSP_POLICIES = {
  strict: "script-src 'nonce-{nonce}' 'strict-dynamic'; object-src 'none'; base-uri 'none'",
  "nonce-only": "script-src 'nonce-{nonce}' https:; object-src 'none'; base-uri 'none'",
  off: "",
} as const;
export type CspMode = keyof typeof CSP_POLICIES;

export interface MockPageInput {
  host: string;
  path: string;
  nonce: string;
  csp: CspMode;
  /** The bundle's script URL, integrity and names; absent: a page without a bundle. */
  bundle?: { src: string; integrity?: string; site: string; env: string; siteName?: string; dataLayerName: string; apex?: string };
  /** Why there is no bundle (shown on the page). */
  missing?: string;
}

export function cspHeader(mode: CspMode, nonce: string): string | undefined {
  const policy = CSP_POLICIES[mode] ?? CSP_POLICIES.strict;
  return policy ? policy.replace(/\{nonce\}/g, nonce) : undefined;
}

function pageScript(file: string): string {
  return readFileSync(`${PAGE_DIR}${file}`, "utf8");
}

const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const inlineSafe = (code: string) => code.replace(/<\/script/gi, "<\\/script").replace(/<!--/g, "<\\!--");

/**
 * The mock application's pushes, from the runtime's event table (the documented example of each event the page's
 * controls push), so they are what the bundle's rules and data-layer checks expect: site-app.js only sets the
 * values of the moment (modal state, search term and count, video event and time).
 */
export const MOCK_PUSHES = {
  modal: { event: "modal", ...EVENT_DOCS.modal.example },
  formSubmit: { event: "form-submit", ...EVENT_DOCS["form-submit"].example },
  search: { event: "search", ...EVENT_DOCS.search.example, type: "site" },
  video: { event: "video", ...EVENT_DOCS.video.example },
};

/**
 * What replaces a real page's production embed in proxy mode (proxy.ts): the bridge, inlined with the page's own
 * nonce, then the chosen bundle with that nonce and its integrity. The page keeps its own CSP and pushes.
 */
export function embedTags(input: { nonce?: string; csp: string; bundle: NonNullable<MockPageInput["bundle"]> }): string {
  const b = input.bundle;
  const n = input.nonce ? ` nonce="${esc(input.nonce)}"` : "";
  const pageConfig = JSON.stringify({
    site: b.site,
    env: b.env,
    apex: b.apex,
    dataLayerName: b.dataLayerName,
    csp: input.csp,
    pushes: MOCK_PUSHES,
    proxied: true,
  }).replace(/</g, "\\u003c");
  return `<script${n}>var PAGE = ${pageConfig};\n${inlineSafe(pageScript("bridge.js"))}</script>\n<script src="${esc(b.src)}"${n}${b.integrity ? ` integrity="${esc(b.integrity)}" crossorigin="anonymous"` : ""}></script>`;
}

export function renderMockPage(input: MockPageInput): string {
  const n = esc(input.nonce);
  const b = input.bundle;
  const pageConfig = JSON.stringify({
    site: b?.site,
    env: b?.env,
    apex: b?.apex,
    dataLayerName: b?.dataLayerName ?? "kiwiDataLayer",
    csp: cspHeader(input.csp, "…") ?? "",
    pushes: MOCK_PUSHES,
  }).replace(/</g, "\\u003c");
  const inline = (code: string) => `<script nonce="${n}">var PAGE = ${pageConfig};\n${inlineSafe(code)}</script>`;
  const title = `${b?.siteName ?? input.host} – ${input.path}`;
  const bundleTag = b
    ? `<script src="${esc(b.src)}" nonce="${n}"${b.integrity ? ` integrity="${esc(b.integrity)}" crossorigin="anonymous"` : ""}></script>`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<link rel="icon" href="data:,">
<style>
  body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1d2330; background: #fbfaf7; }
  header { background: #0f3b5f; color: #fff; padding: 10px 18px; display: flex; gap: 18px; align-items: center; flex-wrap: wrap; }
  header a { color: #fff; }
  header strong { font-size: 17px; margin-right: 12px; }
  main { padding: 14px 18px 40px; display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 12px; }
  main > h1 { grid-column: 1 / -1; margin: 4px 0; font-size: 20px; }
  main > p.meta { grid-column: 1 / -1; margin: 0; color: #5b6372; font-size: 13px; }
  section { background: #fff; border: 1px solid #dcd8cf; border-radius: 8px; padding: 10px 12px; }
  section h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: #6d5d3c; margin: 0 0 6px; }
  ul { margin: 0; padding-left: 18px; }
  button { font: inherit; padding: 4px 10px; border-radius: 6px; border: 1px solid #8a96a8; background: #eef2f7; cursor: pointer; }
  input { font: inherit; padding: 3px 6px; }
  #mock-modal { position: fixed; inset: 20% 25% auto; background: #fff; border: 2px solid #0f3b5f; padding: 14px; border-radius: 10px; box-shadow: 0 10px 40px #0004; }
  .player { background: #111; color: #eee; border-radius: 6px; padding: 18px 10px; text-align: center; }
  .warn { color: #a33; }
</style>
${inline(pageScript("bridge.js"))}
${bundleTag}
</head>
<body>
<header>
  <strong>${esc(b?.siteName ?? input.host)}</strong>
  <a href="/" data-preview="link-nav">Home</a>
  <a href="/sat/practice/" data-preview="link-nav-2">Practice</a>
  <a href="/register">Register</a>
  <a href="/dashboard">Dashboard</a>
</header>
<main>
  <h1>${esc(input.path)}</h1>
  <p class="meta">Mock page on <b>${esc(input.host)}</b>${b ? ` · bundle ${esc(b.env)}/${esc(b.site)}` : ""} · CSP ${esc(input.csp)}${input.missing ? ` · <span class="warn">${esc(input.missing)}</span>` : ""}</p>
  <section>
    <h2>Links</h2>
    <ul>
      <li><a href="/about" data-preview="link-internal">About this site</a> (internal)</li>
      <li><a href="https://www.partnersite.example/scholarships" data-preview="link-external">Partner scholarships</a> (external)</li>
      <li><a href="/files/sat-practice-test-1.pdf" download data-preview="link-download">SAT practice test 1 (PDF)</a> (download)</li>
      <li><a href="mailto:help@kiwi.example" data-preview="link-mailto">help@kiwi.example</a> (mailto)</li>
      <li><a href="tel:+18005550100" data-preview="link-tel">1-800-555-0100</a> (tel)</li>
      <li><a href="/sat/register?promo=spring" data-promo="tnt:spring-sat-reminder" data-preview="link-promo">Register for spring SAT</a> (promo)</li>
      <li><a href="#share" data-share="page" data-preview="link-share">Share this page</a> (share: a site's click rule, bigfuture)</li>
      <li><button type="button" data-preview="feature-button" data-feature="compare colleges">Compare colleges</button> (feature)</li>
    </ul>
  </section>
  <section>
    <h2>Site search</h2>
    <form data-preview="search" action="/search" role="search">
      <input id="search-term" name="q" value="sat dates" aria-label="Search">
      <button type="submit">Search</button>
    </form>
    <ol id="search-results"></ol>
  </section>
  <section>
    <h2>Modal</h2>
    <button type="button" data-preview="modal-open">Open checklist</button>
    <div id="mock-modal" role="dialog" aria-label="Checklist" hidden>
      <p>Checklist: 3 of 5 tasks done.</p>
      <button type="button" data-preview="modal-close">Close</button>
    </div>
  </section>
  <section>
    <h2>Form</h2>
    <form data-preview="form-submit">
      <input name="email" type="email" value="student@kiwi.example" aria-label="Email">
      <button type="submit">Sign up</button>
    </form>
    <p id="form-result"></p>
  </section>
  <section>
    <h2>Video</h2>
    <div class="player"><button type="button" data-preview="video-play">▶ Play</button> <span id="video-time">0 s</span></div>
  </section>
  <section>
    <h2>Chat and survey</h2>
    <button type="button" id="chat-launcher" class="chat-launcher" data-preview="chat-launcher">Chat with us</button>
    <p id="chat-state"></p>
    <div id="survey-mount" class="survey-mount"></div>
  </section>
</main>
${inline(pageScript("site-app.js"))}
</body>
</html>
`;
}

/** A page for hosts the preview has no bundle for, and for the app's help. */
export function renderInfoPage(title: string, html: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:760px;margin:40px auto;padding:0 16px}code,pre{background:#f2f0ea;padding:2px 5px;border-radius:4px}pre{padding:10px;overflow:auto}</style>
</head><body><h1>${esc(title)}</h1>${html}</body></html>`;
}

/** The third-party page a frame navigates to after an external link. */
export function renderThirdPartyPage(url: string): string {
  return renderInfoPage("External site (mock)", `<p>The preview's stand-in for <code>${esc(url)}</code>. Use the preview's Load button to go back.</p>`);
}

/** The referrer's stand-in: sends the frame on to the page, so that the page's referrer is this address (its origin, by default policy). */
export function renderHopPage(to: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Referrer (mock)</title></head><body><p>Leaving for ${esc(to)}…</p><script>location.replace(${JSON.stringify(to).replace(/</g, "\\u003c")});</script></body></html>`;
}

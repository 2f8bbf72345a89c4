/**
 * The test web's site pages (servers.ts): which registered page answers a
 * URL, and the one HTML template they are rendered from.
 */
import { escapeHtml } from "../../../preview/server/fictional-web";
import type { PageOptions, RecordedRequest } from "./web-types.js";

export interface PageRoute {
  host: string;
  path: string;
  prefix: boolean;
  options: PageOptions;
}

/** The page template: data layer, inline scripts and the bundle's tag, all carrying the nonce. */
export function renderPage(options: PageOptions, entry: RecordedRequest, nonce: string, bundleSrc: string | undefined): string {
  const n = escapeAttr(nonce);
  const inline = (code: string) => `<script nonce="${n}">${code.replace(/<\/script/gi, "<\\/script")}</script>`;
  const scripts: string[] = [];
  if (options.dataLayer?.length) {
    const name = JSON.stringify(options.dataLayerName ?? "kiwiDataLayer");
    const pushes = options.dataLayer.map((item) => `w.push(${JSON.stringify(item).replace(/</g, "\\u003c")});`).join("");
    scripts.push(inline(`var w = window[${name}] = window[${name}] || [];${pushes}`));
  }
  for (const code of options.before ?? []) scripts.push(inline(code));
  if (bundleSrc) scripts.push(`<script src="${escapeAttr(bundleSrc)}" nonce="${n}"${options.async ? " async" : ""}></script>`);
  for (const code of options.after ?? []) scripts.push(inline(code));
  const inHead = (options.bundleIn ?? "head") === "head";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(entry.host + entry.path)}</title>
${inHead ? scripts.join("\n") : ""}
${options.head ?? ""}
</head>
<body>
<h1>${escapeHtml(entry.path)}</h1>
${options.body ?? ""}
${inHead ? "" : scripts.join("\n")}
</body>
</html>
`;
}

export function findPage(pages: PageRoute[], host: string, path: string): PageRoute | undefined {
  const exact = pages.find((p) => !p.prefix && p.host === host && p.path === path);
  if (exact) return exact;
  return pages.filter((p) => p.prefix && p.host === host && path.startsWith(p.path)).sort((a, b) => b.path.length - a.path.length)[0];
}

function escapeAttr(text: string): string {
  return escapeHtml(text).replace(/"/g, "&quot;");
}

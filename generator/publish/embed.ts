/**
 * `sitetags embed SITE --env ENV [--pinned]`: the script tag for a site's
 * pages. By default the alias (sitetags.min.js: the pages follow every
 * release and rollback); pinned, the content-hashed file with its
 * Subresource Integrity and crossorigin (the page runs exactly these bytes
 * until its own HTML changes). The base URL is `publishing.baseUrl` of
 * sites/_org.yaml (per environment: `publishing.envs.ENV.baseUrl`).
 */
import { readManifest } from "../bundle/build.js";
import { baseUrlOf } from "../config/schemas/publishing.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { loadPublishing } from "./publish.js";
import { DIAGNOSTICS } from "../diagnostics/diagnostics.js";

export interface EmbedResult {
  ok: boolean;
  exitCode: 0 | 1 | 3;
  diagnostics: Diagnostic[];
  tag?: string;
  url?: string;
  integrity?: string;
}

const escapeAttr = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

export async function embedTag(options: { site: string; env: string; pinned?: boolean; sitesDir: string; outDir: string }): Promise<EmbedResult> {
  const loaded = await loadPublishing(options.sitesDir);
  if (!loaded.settings) return { ok: false, exitCode: 1, diagnostics: loaded.diagnostics };
  const bundle = loaded.catalogue.bundles.find((b) => b.site === options.site && b.env === options.env);
  if (!bundle) {
    const site = loaded.catalogue.sites.find((s) => s.code === options.site);
    return {
      ok: false,
      exitCode: 1,
      diagnostics: [site ? DIAGNOSTICS.siteHasNoEnv(options.site, options.env, site.envs) : DIAGNOSTICS.unknownSite(options.site)],
    };
  }
  const base = baseUrlOf(loaded.settings, loaded.apexDomain!, options.env);
  if (!options.pinned) {
    const url = `${base}${options.env}/${options.site}/sitetags.min.js`;
    return { ok: true, exitCode: 0, diagnostics: [], url, tag: `<script src="${escapeAttr(url)}" async></script>` };
  }
  const entry = (await readManifest(options.outDir)).bundles.find((b) => b.site === options.site && b.env === options.env);
  if (!entry) return { ok: false, exitCode: 3, diagnostics: [DIAGNOSTICS.notInManifest(options.outDir, `${options.env}/${options.site}`)] };
  const url = `${base}${entry.file}`;
  return {
    ok: true,
    exitCode: 0,
    diagnostics: [],
    url,
    integrity: entry.integrity,
    tag: `<script src="${escapeAttr(url)}" integrity="${entry.integrity}" crossorigin="anonymous" async></script>`,
  };
}

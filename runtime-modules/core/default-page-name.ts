import type { BundleConfig } from "../../generator/config/bundle-config.js";

/**
 * The page name when no rule or module names the page: site code, then the
 * path's segments, joined by the site's separator; the root is the root page
 * code ("home"). The analytics pipeline's page-name rules replace this.
 */
export function defaultPageName(config: Pick<BundleConfig, "site" | "pageNames">, path: string): string {
  const parts = path
    .split("/")
    .filter(Boolean)
    .map((p) => p.toLowerCase());
  return [config.site.code, ...(parts.length ? parts : [config.pageNames.rootPageCode])].join(config.pageNames.separator);
}

/**
 * Which of the bundle's two files the session's pages loaded (issue #21):
 * the first file (the page's tag: the alias or the hashed name) and the
 * deferred second file, which the first file asks for after the first page
 * view, beside its own src (generator/bundle/deferred.ts). Read from the
 * server's records of the CDN host that the pages claimed, so the Bundle tab
 * shows what the student's browser fetched, not only what the manifest names.
 */
import type { Entry } from "./protocol";
import type { BundleInfo } from "./session";

export interface BundleFileLoad {
  role: "first" | "deferred";
  /** The dist-relative file (the manifest's name). */
  file: string;
  /** Requests for it, over all pages of the session. */
  requests: number;
  /** The pages that asked for it (page numbers of the session), in order, each once. */
  pages: number[];
  /** The last answer's status (0: dropped), absent before any request. */
  status?: number;
}

/** The request paths of the CDN host end in the dist-relative name (a compared dist's under /LABEL/). */
const endsWithFile = (path: string, file: string) => path === `/${file}` || path.endsWith(`/${file}`);

export function bundleFileLoads(entries: readonly Entry[], bundle: Pick<BundleInfo, "file" | "alias" | "deferred">): BundleFileLoad[] {
  const files: Array<{ role: BundleFileLoad["role"]; file: string; names: string[] }> = [
    { role: "first", file: bundle.file, names: [bundle.file, bundle.alias] },
  ];
  if (bundle.deferred) files.push({ role: "deferred", file: bundle.deferred.file, names: [bundle.deferred.file] });
  return files.map(({ role, file, names }) => {
    const out: BundleFileLoad = { role, file, requests: 0, pages: [] };
    for (const e of entries) {
      if (e.kind !== "network" || e.request.kind !== "bundle" || !names.some((n) => endsWithFile(e.request.path, n))) continue;
      out.requests++;
      if (!out.pages.includes(e.page)) out.pages.push(e.page);
      out.status = e.request.status;
    }
    return out;
  });
}

/** The preview server's API, as the app sees it (preview/server/main.ts). */
import type { BundleInfo } from "./lib/session";

export interface CatalogueBundle extends BundleInfo {
  host: string;
  name?: string;
  internal: boolean;
  problem?: string;
}

export interface Catalogue {
  apex: string;
  previewHost: string;
  cdnHost: string;
  edgeMode: string;
  edgeModes: string[];
  cspModes: string[];
  dists: Array<{ label: string; dir: string }>;
  problems: string[];
  bundles: CatalogueBundle[];
}

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export const api = {
  catalogue: () => fetch("/api/catalogue", { cache: "no-store" }).then((r) => json<Catalogue>(r)),
  bundle: (key: string) =>
    fetch(`/api/bundle?key=${encodeURIComponent(key)}`, { cache: "no-store" }).then((r) =>
      json<{ info: BundleInfo; config: Record<string, unknown> | null; problem?: string }>(r),
    ),
  stage: (host: string, key: string | undefined, csp: string) =>
    fetch("/api/stage", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ host, key, csp }) }).then((r) =>
      json<{ ok: boolean }>(r),
    ),
  edgeMode: (mode: string) =>
    fetch("/api/edge-mode", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ mode }) }).then((r) =>
      json<{ mode: string }>(r),
    ),
};

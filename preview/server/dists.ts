/**
 * The bundles the preview serves: every entry of dist/manifest.json (and of
 * a second dist given with --compare-dist), each with the config read from
 * its own bytes. The manifest is re-read when it changes, so a rebuild
 * while the preview runs shows up on the next page load.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { extractConfig, pageHost, type PreviewConfig } from "../src/lib/bundle-config";
import type { BundleInfo } from "../src/lib/session";

export interface DistSource {
  /** "dist" for the main dist; another label for a compared one (its bundles live under /LABEL/ on the CDN host). */
  label: string;
  dir: string;
}

export interface LoadedBundle extends BundleInfo {
  /** The page host for the bundle's environment. */
  host: string;
  config?: PreviewConfig;
  /** Why the config could not be read. */
  problem?: string;
}

interface LoadedDist {
  source: DistSource;
  mtimeMs: number;
  bundles: LoadedBundle[];
  problem?: string;
}

export class DistSet {
  private loaded = new Map<string, LoadedDist>();

  constructor(readonly sources: DistSource[]) {
    for (const s of sources) s.dir = resolve(s.dir);
  }

  private load(source: DistSource): LoadedDist {
    const manifestFile = join(source.dir, "manifest.json");
    let mtimeMs = -1;
    try {
      mtimeMs = statSync(manifestFile).mtimeMs;
    } catch {
      // No manifest (yet): mtimeMs stays -1.
    }
    const cached = this.loaded.get(source.label);
    if (cached && cached.mtimeMs === mtimeMs) return cached;
    const out: LoadedDist = { source, mtimeMs, bundles: [] };
    if (mtimeMs < 0) out.problem = `no manifest at ${manifestFile} (run: npx sitetags build)`;
    else {
      try {
        const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as { bundles?: BundleInfo[] };
        for (const entry of manifest.bundles ?? []) {
          const key = `${source.label}:${entry.env}/${entry.site}`;
          const bundle: LoadedBundle = { ...entry, key, dist: source.label, host: "", modules: entry.modules ?? [] };
          try {
            const config = extractConfig(readFileSync(join(source.dir, entry.file), "utf8"));
            if (config) bundle.config = config;
            else bundle.problem = "no inlined config found in the bundle";
          } catch (e) {
            bundle.problem = `cannot read ${entry.file}: ${(e as Error).message}`;
          }
          bundle.host = bundle.config ? pageHost(bundle.config) : `${entry.site}${entry.env === "prod" ? "" : `-${entry.env}`}.kiwi.example`;
          out.bundles.push(bundle);
        }
      } catch (e) {
        out.problem = `cannot read ${manifestFile}: ${(e as Error).message}`;
      }
    }
    this.loaded.set(source.label, out);
    return out;
  }

  all(): LoadedBundle[] {
    return this.sources.flatMap((s) => this.load(s).bundles);
  }

  problems(): string[] {
    return this.sources.flatMap((s) => {
      const d = this.load(s);
      return [...(d.problem ? [d.problem] : []), ...d.bundles.filter((b) => b.problem).map((b) => `${b.key}: ${b.problem}`)];
    });
  }

  byKey(key: string): LoadedBundle | undefined {
    return this.all().find((b) => b.key === key);
  }

  /** The main dist's bundle that runs on this host (the host is one of its own environment's hosts). */
  forHost(host: string): LoadedBundle | undefined {
    const list = this.all();
    const own = (b: LoadedBundle) => !!b.config?.hosts[b.config.env]?.includes(host);
    return list.find((b) => b.dist === this.sources[0]?.label && own(b)) ?? list.find(own);
  }

  /** Every host some bundle knows, for routing. */
  knownHosts(): Set<string> {
    const out = new Set<string>();
    for (const b of this.all()) for (const list of Object.values(b.config?.hosts ?? {})) for (const h of list) out.add(h);
    return out;
  }

  /** The CDN path of a bundle: its alias, under /LABEL/ for a compared dist. */
  cdnPath(bundle: LoadedBundle): string {
    return bundle.dist === this.sources[0]?.label ? `/${bundle.alias}` : `/${bundle.dist}/${bundle.alias}`;
  }

  /** The bytes behind a CDN path (a manifest file, alias or deferred file only). */
  fileForCdnPath(path: string): string | undefined {
    const first = this.sources[0];
    for (const s of this.sources) {
      const prefix = s === first ? "/" : `/${s.label}/`;
      if (!path.startsWith(prefix)) continue;
      const rel = path.slice(prefix.length);
      const d = this.load(s);
      if (d.bundles.some((b) => b.file === rel || b.alias === rel || b.deferred?.file === rel)) {
        const file = join(s.dir, rel);
        if (existsSync(file)) return file;
      }
    }
    return undefined;
  }

  /** The organisation's apex domain, from the first bundle that says. */
  apex(): string {
    return this.all().find((b) => b.config?.apexDomain)?.config?.apexDomain ?? "kiwi.example";
  }

  /** The org id behind a datastream id (for the mock edge's identity answers). */
  orgIdFor(configId: string | undefined): string | undefined {
    const b = this.all().find((x) => x.config?.analytics.datastreamId === configId) ?? this.all().find((x) => x.config?.analytics.orgId);
    return b?.config?.analytics.orgId;
  }

  edgeHosts(): Set<string> {
    const out = new Set<string>();
    for (const b of this.all()) if (b.config?.analytics.edgeDomain) out.add(b.config.analytics.edgeDomain);
    return out;
  }
}

/**
 * The preview app's own files (preview/dist, built by Vite) and the guide
 * its first screen links to (docs/preview.md and its screenshots).
 * Assets have content-hashed names and are cached for a year; index.html
 * is never cached, so a rebuild shows at once. Text files are served
 * brotli-compressed (gzip for a browser without brotli), compressed once
 * per file version and kept in memory.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";
import { APP_DIST, REPO_DIR } from "./app-build";

export const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
  ".ico": "image/x-icon",
  ".md": "text/markdown; charset=utf-8",
};

export interface FileAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

/** Which of brotli and gzip an Accept-Encoding header takes (q=0 refuses). */
export function acceptedEncoding(acceptEncoding: string): "br" | "gzip" | undefined {
  const accepted = new Set(
    acceptEncoding
      .split(",")
      .map((part) => part.trim().split(";"))
      .filter(([, q]) => !q || Number(q.trim().replace(/^q=/, "")) > 0)
      .map(([name]) => name.trim().toLowerCase()),
  );
  return accepted.has("br") ? "br" : accepted.has("gzip") ? "gzip" : undefined;
}

export function createStaticFiles(dist = APP_DIST) {
  const cache = new Map<string, { br?: Buffer; gzip?: Buffer }>();

  function compressed(file: string, encoding: "br" | "gzip"): Buffer {
    const key = `${file}:${statSync(file).mtimeMs}`;
    const entry = cache.get(key) ?? {};
    cache.set(key, entry);
    if (!entry[encoding]) {
      const raw = readFileSync(file);
      entry[encoding] =
        encoding === "br"
          ? brotliCompressSync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length } })
          : gzipSync(raw, { level: 9 });
    }
    return entry[encoding]!;
  }

  return {
    /** A file of the app for a path (index.html for any other path); undefined when the app is not built. */
    app(path: string, acceptEncoding: string): FileAnswer | undefined {
      if (!existsSync(join(dist, "index.html"))) return undefined;
      const rel = normalize(decodeURIComponent(path)).replace(/^([/\\])+/, "");
      let file = join(dist, rel);
      if (!file.startsWith(dist) || !existsSync(file) || rel === "" || rel.endsWith("/")) file = join(dist, "index.html");
      const type = TYPES[extname(file)] ?? "application/octet-stream";
      const headers: Record<string, string> = {
        "content-type": type,
        "cache-control": rel.startsWith("assets/") ? "public, max-age=31536000, immutable" : "no-store",
        vary: "accept-encoding",
      };
      const encoding = /javascript|css|html|json|svg/.test(type) ? acceptedEncoding(acceptEncoding) : undefined;
      if (!encoding) return { status: 200, headers, body: readFileSync(file) };
      headers["content-encoding"] = encoding;
      return { status: 200, headers, body: compressed(file, encoding) };
    },
    /** /docs/NAME.md or .png of the repository; undefined for any other path. */
    doc(path: string): FileAnswer | undefined {
      const name = /^\/docs\/([\w.-]+\.(?:md|png))$/.exec(path)?.[1];
      if (!name) return undefined;
      const file = join(REPO_DIR, "docs", name);
      if (!existsSync(file)) return { status: 404, headers: { "content-type": "text/plain" }, body: `no docs/${name}\n` };
      return { status: 200, headers: { "content-type": TYPES[extname(name)], "cache-control": "no-store" }, body: readFileSync(file) };
    },
  };
}

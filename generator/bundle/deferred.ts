/**
 * The deferred file (issue #21, "the first page pays only for the first
 * page"): what the first page view does not need (web vitals, the link-click
 * handler: runtime-modules/tracking/deferred.ts) is compiled once per
 * runtime as the piece "deferred" and written beside each bundle as
 * dist/ENV/SITE/sitetags.defer.HASH.min.js. The first file names it, relative
 * to its own src, with its SRI integrity (the core's DEFERRED_TOKEN), and
 * loads it after the first page view; the file hands its parts to the first
 * file through window[Symbol.for(DEFERRED_HOOK)]. Budgets stay on the first
 * file's gzip; the manifest entry gains `deferred` (docs/publishing.md).
 */
import { COMPILE_HINT } from "./compile-hint.js";
import { sha256, sha384Integrity } from "./hash.js";
import type { PieceSet } from "./compile.js";

/** Replaced by `{file,integrity}` of the deferred file, or `void 0` for a bundle without one. */
export const DEFERRED_TOKEN = "__SITETAGS_DEFERRED__";

/** The piece's name in the piece set and its source: one export of the compiled runtime. */
export const DEFERRED_PIECE = { name: "deferred", from: "tracking/deferred", export: "deferredParts" } as const;

/** Must equal runtime-modules/tracking/start-tracking.ts's DEFERRED_HOOK (a test checks). */
export const DEFERRED_HOOK = "sitetags.deferred";

/** The manifest's record of a bundle's deferred file (dist-relative `file`, like the bundle's). */
export interface DeferredEntry {
  file: string;
  bytes: number;
  gzipBytes: number;
  brotliBytes: number;
  integrity: string;
}

/** Whether a bundle has a deferred file: every bundle wires link clicks and web vitals today (tracking/start-tracking.ts), so every bundle holds the piece. */
export function hasDeferred(set: Pick<PieceSet, "pieces">): boolean {
  return set.pieces.has(DEFERRED_PIECE.name);
}

/**
 * The deferred file's bytes: the piece called, its parts handed to the waiting first file (nothing happens without one).
 * It opens with V8's compile hint, as the first file does: its functions that run as soon as it arrives (web-vitals'
 * setup, the hand-over) are then compiled with the file instead of lazily, each again, on the main thread at its first
 * call. Returning visitor, prod/bigfuture, main-thread CPU of the page's script tasks: -1.4 ms
 * (docs/runtime.md, "A returning visitor's counted time").
 */
export function deferredCode(piece: string): string {
  return `${COMPILE_HINT}(function(h){h&&h((${piece})())})(window[Symbol.for(${JSON.stringify(DEFERRED_HOOK)})]);\n`;
}

const linked = new WeakMap<object, { code: string; name: string; integrity: string }>();

/** The deferred file of a piece set (the same bytes for every bundle of one runtime): its code, its name (sitetags.defer.HASH.min.js) and integrity. */
export function deferredFile(set: Pick<PieceSet, "pieces">): { code: string; name: string; integrity: string } | undefined {
  const piece = set.pieces.get(DEFERRED_PIECE.name);
  if (!piece) return undefined;
  let file = linked.get(piece);
  if (!file) {
    const code = deferredCode(piece.code);
    file = { code, name: `sitetags.defer.${sha256(code).slice(0, 10)}.min.js`, integrity: sha384Integrity(code) };
    linked.set(piece, file);
  }
  return file;
}

/** What replaces DEFERRED_TOKEN in the core: the file's name beside the first file and its integrity, or `void 0`. */
export function deferredTokenValue(set: Pick<PieceSet, "pieces">): string {
  const file = deferredFile(set);
  return file ? JSON.stringify({ file: file.name, integrity: file.integrity }) : "void 0";
}

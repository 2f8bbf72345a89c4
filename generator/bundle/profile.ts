/**
 * The size profile of a built bundle (issue #21, `node scripts/bench.js
 * size`): which source file each byte of the first file comes from. The
 * bundle's pieces are compiled again as the build compiles them (rollup and
 * terser, compile-piece.ts) but with source maps, linked as link.ts links
 * them, and the linked code is checked to be the very code the build links
 * (the bench also compares it with the file in dist/). Every character of the
 * first file is then attributed: a runtime source (runtime-modules/...), an
 * npm package, the inlined config, or the generated entry (the core entry's
 * own code, the factories object, the deferred file's name, the compile hint
 * and what the bundler adds without a mapping: its IIFE wrappers).
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { ResolvedBundle } from "../config/load.js";
import { compilePiece, type PieceJob, type PieceResult } from "./compile-piece.js";
import type { PieceSet } from "./compile.js";
import { DEFERRED_PIECE, DEFERRED_TOKEN, deferredTokenValue } from "./deferred.js";
import { CONFIG_TOKEN, DEV_CHECKS_PIECE, DEV_CHECKS_TOKEN, MODULES_TOKEN, coreEntry, pieceEntry } from "./entry.js";
import { featureSetOf } from "./features.js";
import { computeRuntimeHash } from "./hash.js";
import { COMPILE_HINT } from "./compile-hint.js";
import { inlineConfig, linkBundle } from "./link.js";
import { registryFile } from "./paths.js";
import { coreOf, hasDevChecks } from "./plan.js";
import type { RegistryEntry } from "./registry.js";
import { trimConfig } from "./trim-config.js";

/** What a character of a bundle is attributed to when no runtime source or package is. */
export const PROFILE_CONFIG = "(inlined config)";
export const PROFILE_ENTRY = "(generated entry)";

export interface BundleProfile {
  /** The linked first file, as the build links it. */
  code: string;
  /** The attributed sources: "runtime-modules/edge/protocol.ts", "node_modules/web-vitals/...", PROFILE_CONFIG, PROFILE_ENTRY. */
  sources: string[];
  /** For each UTF-16 unit of `code`, its index in `sources`. */
  owner: Uint16Array;
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** A version-3 source map's segments: per generated line, [column, source index or -1]. */
export function decodeMappings(mappings: string): Array<Array<[number, number]>> {
  const lines: Array<Array<[number, number]>> = [];
  let source = 0;
  for (const line of mappings.split(";")) {
    const segments: Array<[number, number]> = [];
    let column = 0;
    for (const segment of line ? line.split(",") : []) {
      const fields: number[] = [];
      let value = 0;
      let shift = 0;
      for (const ch of segment) {
        const digit = B64.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0];
      if (fields.length > 1) source += fields[1];
      segments.push([column, fields.length > 1 ? source : -1]);
    }
    lines.push(segments);
  }
  return lines;
}

/**
 * Attributes each character of a minified piece (code as linked, i.e. after
 * `mapOffset` characters were stripped) to a source through its map; a
 * character before any mapped segment of its line, or in a segment without a
 * source, goes to `fallback`.
 */
export function attributePiece(piece: PieceResult, sourceIndex: (source: string) => number, fallback: number): Uint16Array {
  const out = new Uint16Array(piece.code.length).fill(fallback);
  if (!piece.map) return out;
  const ids = piece.map.sources.map(sourceIndex);
  // Offsets in the minified text before its head was stripped: the map's columns count the head.
  const strip = piece.mapOffset ?? 0;
  const text = " ".repeat(strip) + piece.code;
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") lineStarts.push(i + 1);
  decodeMappings(piece.map.mappings).forEach((segments, line) => {
    if (line >= lineStarts.length) return;
    const lineEnd = line + 1 < lineStarts.length ? lineStarts[line + 1] : text.length;
    segments.forEach(([column, source], s) => {
      const from = Math.max(strip, lineStarts[line] + column);
      const to = Math.min(text.length, s + 1 < segments.length ? lineStarts[line] + segments[s + 1][0] : lineEnd);
      out.fill(source >= 0 ? ids[source] : fallback, from - strip, Math.max(from, to) - strip);
    });
  });
  return out;
}

/**
 * Compiles a bundle's pieces again with source maps (from the cache's
 * compiled runtime and registry of the current runtime: build first) and
 * links them. Throws if the linked code is not what the build links.
 */
export async function profileBundle(options: { root: string; cacheDir: string; bundle: ResolvedBundle }): Promise<BundleProfile> {
  const { root, cacheDir, bundle } = options;
  const runtimeHash = computeRuntimeHash(root);
  const compiledRuntime = join(cacheDir, "runtime", runtimeHash.slice(0, 16));
  const registry = JSON.parse(readFileSync(registryFile(cacheDir, runtimeHash), "utf8")) as RegistryEntry[];
  const job = (name: string, kind: PieceJob["kind"], entry: string): PieceJob => ({ key: name, name, kind, entry, packageRoot: root, sourceMap: true });
  const jobs: PieceJob[] = [job(coreOf(bundle), "core", coreEntry(compiledRuntime, featureSetOf(bundle.config)))];
  for (const m of registry) if (bundle.modules.includes(m.name)) jobs.push(job(m.name, "expression", pieceEntry(compiledRuntime, m.from, m.factory)));
  if (hasDevChecks(bundle)) jobs.push(job("devChecks", "expression", pieceEntry(compiledRuntime, DEV_CHECKS_PIECE.from, DEV_CHECKS_PIECE.export)));
  jobs.push(job(DEFERRED_PIECE.name, "expression", pieceEntry(compiledRuntime, DEFERRED_PIECE.from, DEFERRED_PIECE.export)));
  const set: PieceSet = { order: registry.map((r) => r.name), pieces: new Map() };
  for (const j of jobs) set.pieces.set(j.name, await compilePiece(j));

  const sources = [PROFILE_CONFIG, PROFILE_ENTRY];
  const index = new Map(sources.map((s, i) => [s, i]));
  const sourceIndex = (source: string) => {
    const rel = relative(compiledRuntime, source).split("\\").join("/");
    const name = source.includes("sitetags-entry")
      ? PROFILE_ENTRY
      : rel.startsWith("..")
        ? relative(root, source).split("\\").join("/")
        : `runtime-modules/${rel.replace(/\.js$/, ".ts")}`;
    let i = index.get(name);
    if (i === undefined) index.set(name, (i = sources.push(name) - 1));
    return i;
  };
  const entry = 1;
  // Linked as linkBundle links: the core's placeholders replaced, each piece's characters with their own owners.
  const core = set.pieces.get(coreOf(bundle))!;
  const coreOwner = attributePiece(core, sourceIndex, entry);
  const modules = set.order.filter((m) => bundle.modules.includes(m));
  const parts: Array<[string, Uint16Array]> = [[COMPILE_HINT, new Uint16Array(COMPILE_HINT.length).fill(entry)]];
  const piece = (name: string) => [set.pieces.get(name)!.code, attributePiece(set.pieces.get(name)!, sourceIndex, entry)] as [string, Uint16Array];
  const glue = (text: string): [string, Uint16Array] => [text, new Uint16Array(text.length).fill(entry)];
  const tokens = new RegExp(`${CONFIG_TOKEN}|${MODULES_TOKEN}|${DEV_CHECKS_TOKEN}|${DEFERRED_TOKEN}`, "g");
  let at = 0;
  for (const match of core.code.matchAll(tokens)) {
    parts.push([core.code.slice(at, match.index), coreOwner.slice(at, match.index)]);
    at = match.index + match[0].length;
    if (match[0] === CONFIG_TOKEN) {
      const config = inlineConfig(trimConfig(bundle.config));
      parts.push([config, new Uint16Array(config.length).fill(0)]);
    } else if (match[0] === MODULES_TOKEN) {
      parts.push(glue("{"));
      modules.forEach((m, i) => parts.push(glue(`${i ? "," : ""}${m}:`), piece(m)));
      parts.push(glue("}"));
    } else if (match[0] === DEV_CHECKS_TOKEN) parts.push(hasDevChecks(bundle) ? piece("devChecks") : glue("void 0"));
    else parts.push(glue(deferredTokenValue(set)));
  }
  parts.push([core.code.slice(at), coreOwner.slice(at)]);
  const code = parts.map(([text]) => text).join("");
  if (code !== linkBundle(set, bundle).code) throw new Error(`the profile of ${bundle.env}/${bundle.site} is not linked as the build links it`);
  const owner = new Uint16Array(code.length);
  let offset = 0;
  for (const [text, owners] of parts) {
    owner.set(owners, offset);
    offset += text.length;
  }
  return { code, sources, owner };
}

/** The part of the bundle a source belongs to: its folder under runtime-modules/ (modules/NAME for a feature module), "npm NAME" for a package, or the config or entry. */
export function partOf(source: string): string {
  const runtime = /^runtime-modules\/(modules\/[^/]+|[^/]+)\//.exec(source);
  if (runtime) return runtime[1];
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source);
  if (pkg) return `npm ${pkg[1]}`;
  return source;
}

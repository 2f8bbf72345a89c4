/**
 * YAML files parsed with source positions (eemeli/yaml's LineCounter and node
 * ranges), so that every diagnostic can point at file:line:col.
 */
import { isDeepStrictEqual } from "node:util";
import { Document, LineCounter, Pair, Scalar, YAMLMap, YAMLSeq, parseDocument, isMap, isSeq, isScalar, isPair, visit, type Node } from "yaml";
import { codeFrame, type Diagnostic } from "../diagnostics/diagnostic.js";
import { DIAGNOSTICS, type DiagnosticBody } from "../diagnostics/diagnostics.js";

export interface YamlSource {
  /** Path as shown to people (relative to the working directory). */
  file: string;
  text: string;
  doc: Document.Parsed;
  lines: LineCounter;
  /** The plain data (undefined when the YAML had errors). */
  data: unknown;
}

export function parseYamlSource(file: string, text: string): { source: YamlSource; diagnostics: Diagnostic[] } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, strict: true });
  const source: YamlSource = { file, text, doc, lines, data: undefined };
  const diagnostics = syntaxDiagnostics(source);
  if (diagnostics.length === 0) diagnostics.push(...mergeKeyDiagnostics(source));
  if (diagnostics.length === 0) {
    try {
      source.data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {};
    } catch (err) {
      diagnostics.push(aliasDiagnostic(source, (err as Error).message));
    }
  }
  return { source, diagnostics };
}

/**
 * The parser's errors. Duplicate keys are all reported; of real syntax
 * errors only the first, since the parser's guesses after it (a dozen
 * "implicit keys" errors after one unclosed bracket) are noise.
 */
function syntaxDiagnostics(source: YamlSource): Diagnostic[] {
  const { doc, text } = source;
  const first = doc.errors.filter((e) => e.code !== "DUPLICATE_KEY").sort((a, b) => a.pos[0] - b.pos[0])[0];
  if (first) {
    if (first.code === "MULTIPLE_DOCS") return [diagnosticAtOffset(source, DIAGNOSTICS.multipleDocuments(), first.pos[0])];
    if (first.code === "BLOCK_AS_IMPLICIT_KEY" || first.code === "MULTILINE_IMPLICIT_KEY") {
      const key = overIndentedKey(text, first.pos[0]);
      if (key) return [diagnosticAtOffset(source, DIAGNOSTICS.overIndented(key.name), key.offset)];
    }
    return [diagnosticAtOffset(source, DIAGNOSTICS.yamlSyntax(first.message), syntaxErrorOffset(text, first.pos[0], first.message))];
  }
  return doc.errors.map((err) => diagnosticAtOffset(source, DIAGNOSTICS.duplicateKey(err.message), syntaxErrorOffset(text, err.pos[0], err.message)));
}

/**
 * `spa: false` followed by a more indented `internal: false` reads, to
 * YAML, as one plain value spanning two lines that is then used as a key.
 * The mistake is the indentation of the second line: its key and offset.
 */
export function overIndentedKey(text: string, offset: number): { name: string; offset: number } | undefined {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const indent = /^ */.exec(text.slice(lineStart))![0].length;
  let next = text.indexOf("\n", offset);
  while (next >= 0) {
    const start = next + 1;
    const end = text.indexOf("\n", start);
    const line = text.slice(start, end < 0 ? undefined : end).replace(/\r$/, "");
    if (line.trim() === "" || /^\s*#/.test(line)) {
      next = end;
      continue;
    }
    const m = /^( +)([^\s#:][^:#]*?):(?:\s|$)/.exec(line);
    return m && m[1].length > indent ? { name: m[2].trim(), offset: start + m[1].length } : undefined;
  }
  return undefined;
}

/** YAML merge keys (`<<: *base`): one diagnostic at each. */
function mergeKeyDiagnostics(source: YamlSource): Diagnostic[] {
  const out: Diagnostic[] = [];
  visit(source.doc, {
    Pair(_key, pair) {
      if (isScalar(pair.key) && pair.key.value === "<<" && pair.key.type === "PLAIN" && pair.key.range)
        out.push(diagnosticAtOffset(source, DIAGNOSTICS.mergeKey(), pair.key.range[0]));
    },
  });
  return out;
}

/** Alias expansions allowed per file (a guard against a "billion laughs" file). */
export const MAX_ALIAS_COUNT = 100;

/**
 * An alias problem found while reading the data: an alias without its anchor
 * (at that alias), or too many alias expansions (at the first alias).
 */
function aliasDiagnostic(source: YamlSource, message: string): Diagnostic {
  let unresolved: number | undefined;
  let first: number | undefined;
  visit(source.doc, {
    Alias(_key, node) {
      const at = node.range ? node.range[0] : 0;
      if (first === undefined) first = at;
      if (unresolved === undefined && !node.resolve(source.doc)) unresolved = at;
    },
  });
  if (unresolved !== undefined) return diagnosticAtOffset(source, DIAGNOSTICS.unresolvedAlias(), unresolved);
  if (/alias count/i.test(message)) return diagnosticAtOffset(source, DIAGNOSTICS.tooManyAliases(MAX_ALIAS_COUNT), first ?? 0);
  return diagnosticAtOffset(source, DIAGNOSTICS.yamlSyntax(message), first ?? 0);
}

/**
 * Moves a YAML error to where a person would look: an unclosed flow
 * collection to its opening bracket, an indentation error from the line's
 * leading white space to its first character.
 */
export function syntaxErrorOffset(text: string, offset: number, message: string): number {
  const closer = /end with an? ([\]}])/.exec(message)?.[1];
  if (closer) {
    const opener = closer === "]" ? "[" : "{";
    let depth = 0;
    for (let i = Math.min(offset, text.length) - 1; i >= 0; i--) {
      const ch = text[i];
      if (ch === closer) depth++;
      else if (ch === opener) {
        if (depth === 0) return i;
        depth--;
      }
    }
  }
  let i = offset;
  while (i < text.length && text[i] === " ") i++;
  return i < text.length && text[i] !== "\n" && text[i] !== "\r" ? i : offset;
}

/** A factory's diagnostic placed at an offset of a file: file:line:col, key path and code frame. */
export function diagnosticAtOffset(source: YamlSource, body: DiagnosticBody, offset: number, path?: string): Diagnostic {
  const { line, col } = source.lines.linePos(Math.min(offset, source.text.length));
  return { ...body, file: source.file, line, column: col, path, frame: codeFrame(source.text, line, col) };
}

export interface Located {
  /** The key node of the last path segment, when it exists. */
  key?: Node;
  /** The deepest node found on the way (a key, or a list item). */
  deepest?: Node;
  /** The value node at the path, when it exists. */
  value?: Node;
  /** How many path segments were found. */
  depth: number;
}

/** Follows a key path through the document as far as it exists. */
export function locate(source: YamlSource, path: ReadonlyArray<PropertyKey>): Located {
  let node: unknown = source.doc.contents;
  let key: Node | undefined;
  let deepest: Node | undefined;
  let depth = 0;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) break;
      key = pair.key as Node;
      deepest = key;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === "number" && segment < node.items.length) {
      key = undefined;
      node = node.items[segment];
      deepest = node as Node;
    } else break;
    depth++;
  }
  return { key, deepest, value: node as Node | undefined, depth };
}

/** The offset to report for a path: the value for a found path, else the deepest found key. */
export function offsetOf(source: YamlSource, path: ReadonlyArray<PropertyKey>, prefer: "key" | "value" = "value"): number {
  const found = locate(source, path);
  if (found.depth === path.length) {
    const node = prefer === "key" && found.key ? found.key : (found.value ?? found.key);
    if (node?.range) return node.range[0];
  }
  if (found.deepest?.range) return found.deepest.range[0];
  const root = source.doc.contents as Node | null;
  return root?.range ? root.range[0] : 0;
}

/** Whether the path exists in the file (all segments present). */
export function hasPath(source: YamlSource, path: ReadonlyArray<PropertyKey>): boolean {
  return locate(source, path).depth === path.length;
}

/**
 * What locate, offsetOf and hasPath read of a parsed file, as plain data: a
 * map's pairs with a scalar key (the key as String, its offset, the value's
 * tree), a list's items, any other node its offset (-1 without a range),
 * null for no node. cached-load.ts keeps _org.yaml's in the config cache
 * (issue #21: a one-site rebuild need not parse the organisation file again).
 */
export type PositionTree = null | number | { r: number; m: Array<[string, number, PositionTree]> } | { r: number; s: PositionTree[] };

/** A clean file's data, line starts and position tree; undefined when its data would not survive JSON as it is (then it is parsed as before). */
export interface CachedSource {
  data: unknown;
  lineStarts: number[];
  tree: PositionTree;
}

const start = (node: { range?: unknown } | null | undefined) => (Array.isArray(node?.range) ? (node.range[0] as number) : -1);

function treeOf(node: unknown): PositionTree {
  if (node === null || node === undefined) return null;
  if (isMap(node))
    return {
      r: start(node),
      m: node.items.flatMap((p) =>
        isPair(p) && isScalar(p.key) ? [[String(p.key.value), start(p.key as Node), treeOf(p.value)] as [string, number, PositionTree]] : [],
      ),
    };
  if (isSeq(node)) return { r: start(node), s: node.items.map(treeOf) };
  return start(node as Node);
}

export function cachedSourceOf(source: YamlSource): CachedSource | undefined {
  const data: unknown = JSON.parse(JSON.stringify(source.data));
  if (!isDeepStrictEqual(data, source.data)) return undefined;
  return { data, lineStarts: [...source.lines.lineStarts], tree: treeOf(source.doc.contents) };
}

function nodeOf(tree: PositionTree): Node | null {
  if (tree === null) return null;
  const ranged = <T extends Node>(node: T, at: number): T => {
    if (at >= 0) node.range = [at, at, at];
    return node;
  };
  if (typeof tree === "number") return ranged(new Scalar(null), tree);
  if ("m" in tree) {
    const map = ranged(new YAMLMap(), tree.r);
    for (const [key, at, value] of tree.m) map.items.push(new Pair(ranged(new Scalar(key), at), nodeOf(value)));
    return map;
  }
  const seq = ranged(new YAMLSeq(), tree.r);
  for (const item of tree.s) seq.items.push(nodeOf(item));
  return seq;
}

/** A YamlSource from its cached parts, for locate, offsetOf, hasPath and positions: the same answers as the parsed file's. */
export function sourceFromCache(file: string, text: string, cached: CachedSource): YamlSource {
  const lines = new LineCounter();
  for (const at of cached.lineStarts) lines.addNewLine(at);
  const doc = new Document() as unknown as Document.Parsed;
  doc.contents = nodeOf(cached.tree) as Document.Parsed["contents"];
  return { file, text, doc, lines, data: cached.data };
}

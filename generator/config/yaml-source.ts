/**
 * YAML files parsed with source positions (eemeli/yaml's LineCounter and node
 * ranges), so that every diagnostic can point at file:line:col.
 */
import { LineCounter, parseDocument, isMap, isSeq, isScalar, isPair, visit, type Document, type Node } from "yaml";
import { codeFrame, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { DiagnosticCode } from "../diagnostics/codes.js";

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
  const diagnostics: Diagnostic[] = [];
  for (const err of doc.errors) {
    const code: DiagnosticCode = err.code === "DUPLICATE_KEY" ? "YAML_DUPLICATE_KEY" : "YAML_SYNTAX";
    diagnostics.push(diagnosticAtOffset(source, code, err.message.replace(/\s+/g, " ").trim(), syntaxErrorOffset(text, err.pos[0], err.message)));
  }
  if (diagnostics.length === 0) {
    try {
      source.data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {};
    } catch (err) {
      diagnostics.push(aliasDiagnostic(source, (err as Error).message));
    }
  }
  return { source, diagnostics };
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
  if (unresolved !== undefined) return diagnosticAtOffset(source, "YAML_SYNTAX", "an alias whose anchor is not set before it (define &name before *name)", unresolved);
  if (/alias count/i.test(message)) return diagnosticAtOffset(source, "YAML_SYNTAX", `more than ${MAX_ALIAS_COUNT} alias expansions in one file`, first ?? 0);
  return diagnosticAtOffset(source, "YAML_SYNTAX", message.replace(/\s+/g, " ").trim(), first ?? 0);
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

export function diagnosticAtOffset(source: YamlSource, code: DiagnosticCode, message: string, offset: number, path?: string): Diagnostic {
  const { line, col } = source.lines.linePos(Math.min(offset, source.text.length));
  return {
    code,
    message,
    file: source.file,
    line,
    column: col,
    path,
    severity: "error",
    frame: codeFrame(source.text, line, col),
  };
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

/**
 * Checks of a configuration file's text below the YAML level: the bytes are
 * UTF-8 (never silently turned into U+FFFD), and no string holds a control
 * character other than tab.
 */
import { isPair, isScalar, isSeq, visit } from "yaml";
import { codeFrame, formatPath, type Diagnostic } from "../diagnostics/diagnostic.js";
import { DIAGNOSTICS } from "../diagnostics/diagnostics.js";
import { diagnosticAtOffset, type YamlSource } from "./yaml-source.js";

/**
 * The offset of the first byte that is not part of a well-formed UTF-8
 * sequence (RFC 3629: no overlong forms, no surrogates, nothing above
 * U+10FFFF), or -1 when all bytes are.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min = 0x80;
    let max = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) min = 0xa0; // overlong
      if (b === 0xed) max = 0x9f; // surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) min = 0x90; // overlong
      if (b === 0xf4) max = 0x8f; // above U+10FFFF
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      const lo = k === 1 ? min : 0x80;
      const hi = k === 1 ? max : 0xbf;
      if (c === undefined || c < lo || c > hi) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** The file's text, or a diagnostic at the line and column of its first bad byte. */
export function decodeConfigText(file: string, bytes: Uint8Array): { text: string } | { diagnostic: Diagnostic } {
  const bad = firstInvalidUtf8(bytes);
  if (bad < 0) return { text: new TextDecoder("utf-8").decode(bytes) };
  const before = new TextDecoder("utf-8").decode(bytes.subarray(0, bad));
  const line = before.split("\n").length;
  const column = before.length - (before.lastIndexOf("\n") + 1) + 1;
  // The frame shows the line as an editor would (replacement characters for the bad bytes).
  const shown = new TextDecoder("utf-8").decode(bytes);
  return {
    diagnostic: { ...DIAGNOSTICS.invalidUtf8(bytes[bad]), file, line, column, frame: codeFrame(shown, line, column) },
  };
}

/** C0 controls, DEL and C1 controls (Unicode category Cc), tab excepted. */
// eslint-disable-next-line no-control-regex -- matching control characters is this check's purpose
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/;

/**
 * One diagnostic per key or string value holding a control character: at
 * the character itself when it is written raw, else (an escape such as
 * "\0" in a double-quoted string) at the start of the string.
 */
export function controlCharacterDiagnostics(source: YamlSource): Diagnostic[] {
  const out: Diagnostic[] = [];
  visit(source.doc, {
    Scalar(_key, node, ancestors) {
      if (!isScalar(node) || typeof node.value !== "string" || !node.range) return;
      const found = CONTROL.exec(node.value);
      if (!found) return;
      const char = found[0];
      const raw = source.text.slice(node.range[0], node.range[1]).indexOf(char);
      const offset = raw >= 0 ? node.range[0] + raw : node.range[0];
      out.push(diagnosticAtOffset(source, DIAGNOSTICS.controlCharacter(char.charCodeAt(0)), offset, keyPathOf([...ancestors, node])));
    },
  });
  return out;
}

/** The dotted key path of a node from its ancestors (a key's path is that of its pair). */
function keyPathOf(chain: readonly unknown[]): string | undefined {
  const path: PropertyKey[] = [];
  chain.forEach((node, i) => {
    const next = chain[i + 1];
    if (isPair(node) && isScalar(node.key)) path.push(String(node.key.value));
    else if (isSeq(node) && next !== undefined) path.push(node.items.indexOf(next as never));
  });
  return path.length ? formatPath(path) : undefined;
}

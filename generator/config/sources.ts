/**
 * The first step of loading: read every .yaml file of the sites folder,
 * decode it and parse it with positions. Problems of all files are
 * collected (a syntax error in one file hides nothing in another).
 */
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";

import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { DIAGNOSTICS } from "../diagnostics/diagnostics.js";
import { controlCharacterDiagnostics, decodeConfigText } from "./text-checks.js";
import { parseYamlSource, type YamlSource } from "./yaml-source.js";

export interface CatalogueSources {
  /** The .yaml/.yml names that could be read, sorted. */
  names: string[];
  /** The parsed files, by name (a file with a YAML or encoding error has none). */
  sources: Map<string, YamlSource>;
  /** Raw file texts, for hashing. */
  files: Array<{ file: string; text: string }>;
  /** A file or folder name as shown to people: from the catalogue's parent (sites/x.yaml), wherever the command runs. */
  display: (abs: string) => string;
  /** False when the folder itself cannot be read. */
  readable: boolean;
}

export async function readSources(sitesDir: string, diagnostics: Diagnostic[], only?: readonly string[]): Promise<CatalogueSources> {
  const parent = dirname(sitesDir);
  const display = (abs: string) => relative(parent, abs) || abs;
  const out: CatalogueSources = { names: [], sources: new Map(), files: [], display, readable: true };
  let names: string[];
  try {
    names = (await readdir(sitesDir)).filter((n) => (n.endsWith(".yaml") || n.endsWith(".yml")) && (!only || only.includes(n))).sort();
  } catch {
    diagnostics.push({ ...DIAGNOSTICS.sitesDirUnreadable(display(sitesDir)), file: display(sitesDir) });
    return { ...out, readable: false };
  }
  // A name that cannot be read as a file (a folder called x.yaml, no permission) is reported, not thrown.
  const read = await Promise.all(
    names.map((n) =>
      readFile(join(sitesDir, n)).then(
        (bytes) => ({ bytes }),
        (err: NodeJS.ErrnoException) => ({ error: err.code ?? err.message }),
      ),
    ),
  );
  names = names.filter((n, i) => {
    const r = read[i];
    if ("bytes" in r) return true;
    diagnostics.push({ ...DIAGNOSTICS.unreadableFile(n, r.error), file: display(join(sitesDir, n)) });
    return false;
  });
  const bytes = read.flatMap((r) => ("bytes" in r ? [r.bytes] : []));
  out.names = names;

  // Decode and parse every file first (syntax errors of all files are reported together).
  names.forEach((name, i) => {
    const file = display(join(sitesDir, name));
    const decoded = decodeConfigText(file, bytes[i]);
    out.files.push({ file: name, text: "text" in decoded ? decoded.text : bytes[i].toString("latin1") });
    if ("diagnostic" in decoded) {
      diagnostics.push(decoded.diagnostic);
      return;
    }
    const { source, diagnostics: found } = parseYamlSource(file, decoded.text);
    diagnostics.push(...found);
    if (found.length) return;
    out.sources.set(name, source);
    // A control character is a value problem: reported, and the file is still checked.
    diagnostics.push(...controlCharacterDiagnostics(source));
  });
  return out;
}

/**
 * The one directory walker of the Node code (the generator's source hashes,
 * stage A's runtime sources, the preview's app inputs, the tests' tree
 * snapshots). Depends on node:fs only, so the preview may import it
 * (eslint.config.js).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";

export interface WalkOptions {
  /** Which files to list, by name and full path (default: all). */
  include?: (name: string, full: string) => boolean;
  /** Skip names that start with a dot, files and folders alike (default false). */
  skipHidden?: boolean;
  /** Folders not to enter, by name and full path (default: none). */
  skipFolder?: (name: string, full: string) => boolean;
}

/**
 * Every file below `dir`, depth first, each folder's entries in code-unit
 * order of their names (a folder's files and subfolders interleaved by
 * name). A missing or unreadable `dir` lists nothing.
 */
export function listFiles(dir: string, options: WalkOptions = {}): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (options.skipHidden && entry.name.startsWith(".")) continue;
      const full = join(d, entry.name);
      if (entry.isDirectory()) {
        if (!options.skipFolder?.(entry.name, full)) walk(full);
      } else if (!options.include || options.include(entry.name, full)) out.push(full);
    }
  };
  walk(dir);
  return out;
}

import { createHash } from "node:crypto";
import { readFileSync, existsSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { listFiles } from "../walk.js";

export const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");
export const sha384Integrity = (data: string | Uint8Array) => `sha384-${createHash("sha384").update(data).digest("base64")}`;

/** The .ts and .json files below dir (hidden ones left out). */
const sourceFiles = (dir: string) => listFiles(dir, { skipHidden: true, include: (name) => /\.(ts|json)$/.test(name) });

const TOOLCHAIN = ["rollup", "terser", "typescript", "@rollup/plugin-typescript", "@rollup/plugin-node-resolve", "ts-morph", "tslib", "web-vitals"];

/** The files the runtime hash reads, in its order: the runtime's and the generator's sources, the tsconfigs, then the toolchain's package.json files. */
function runtimeInputs(root: string): { sources: string[]; packages: Array<[name: string, file: string]> } {
  return {
    sources: [
      ...sourceFiles(join(root, "runtime-modules")),
      ...sourceFiles(join(root, "generator", "bundle")),
      ...sourceFiles(join(root, "generator", "config")),
      join(root, "tsconfig.base.json"),
      join(root, "tsconfig.runtime.json"),
    ],
    packages: TOOLCHAIN.map((name) => [name, join(root, "node_modules", name, "package.json")]),
  };
}

/**
 * What the runtime hash was computed from, file by file, as the build found it (issue #21 "stale"): each file's size, modification and
 * change times (nanoseconds) and inode, taken before its bytes were read, so that a write after the read changes them; and, for a file
 * written in the last RACY_MS before that (a write in the same tick of the file system's clock may leave its times as they were), the
 * sha256 of the bytes hashed. Plain records: it goes to the stage A thread as it is.
 */
export interface RuntimeSnapshot {
  hash: string;
  /** path -> "size mtime ctime inode", or "missing". */
  files: Record<string, string>;
  /** path -> sha256 of the bytes hashed, for the files the clock may not tell apart (see above). */
  racy: Record<string, string>;
}

/** How recent a write must be for its times not to be trusted alone (the file system clock's tick; coarse clocks, 1-2 s on some file systems). */
const RACY_MS = 2000n;

const stat = (file: string) => statSync(file, { bigint: true, throwIfNoEntry: false });
const statKey = (s: ReturnType<typeof stat>): string => (s ? `${s.size} ${s.mtimeNs} ${s.ctimeNs} ${s.ino}` : "missing");

/**
 * Everything besides the config that decides a bundle's bytes: the runtime
 * sources, the generator's own sources, the tsconfigs and the toolchain
 * versions. A change to any of them rebuilds every bundle. With the
 * snapshot of the files it read (runtimeChange tells whether they are still
 * as they were).
 */
export function snapshotRuntime(root: string): RuntimeSnapshot {
  const hash = createHash("sha256");
  const files: Record<string, string> = {};
  const racy: Record<string, string> = {};
  const recent = BigInt(Date.now()) * 1_000_000n - RACY_MS * 1_000_000n;
  const { sources, packages } = runtimeInputs(root);
  const read = (file: string): Buffer | undefined => {
    const s = stat(file);
    files[file] = statKey(s);
    if (!s) return undefined;
    const bytes = readFileSync(file);
    if (s.mtimeNs >= recent || s.ctimeNs >= recent) racy[file] = sha256(bytes);
    return bytes;
  };
  for (const file of sources) {
    const bytes = read(file);
    if (bytes) hash.update(relative(root, file)).update("\0").update(bytes).update("\0");
  }
  for (const [name, file] of packages) {
    const bytes = read(file);
    const version = bytes ? (JSON.parse(bytes.toString("utf8")) as { version: string }).version : "missing";
    hash.update(`${name}@${version}\0`);
  }
  return { hash: hash.digest("hex"), files, racy };
}

export const computeRuntimeHash = (root: string): string => snapshotRuntime(root).hash;

/**
 * The first of the runtime hash's files that is not as `snapshot` found it (written, even back to the same bytes, added, removed or
 * renamed over), relative to `root`; undefined when every one is as it was. File times and sizes only (a few milliseconds; issue #21),
 * and the bytes of the files written just before the snapshot (RuntimeSnapshot.racy).
 */
export function runtimeChange(root: string, snapshot: RuntimeSnapshot): string | undefined {
  const { sources, packages } = runtimeInputs(root);
  const now = [...sources, ...packages.map(([, file]) => file)];
  const seen = new Set(now);
  for (const file of now) {
    const was = snapshot.files[file];
    if (was === undefined || statKey(stat(file)) !== was) return relative(root, file);
    const bytes = snapshot.racy[file];
    if (bytes !== undefined && sha256(existsSync(file) ? readFileSync(file) : "") !== bytes) return relative(root, file);
  }
  for (const file of Object.keys(snapshot.files)) if (!seen.has(file)) return relative(root, file);
  return undefined;
}

/** The runtime's snapshot the CLI took for the build that follows in this process (generator/cli/child.ts), taken once by that build. */
let handed: { root: string; snapshot: RuntimeSnapshot } | undefined;

/** Hands `snapshot`, snapshotRuntime(root) a moment ago, to the build that starts next in this process (takeRuntimeSnapshot). */
export function handRuntimeSnapshot(root: string, snapshot: RuntimeSnapshot): void {
  handed = { root, snapshot };
}

/**
 * snapshotRuntime for a build that starts now: the snapshot handed by the CLI a moment ago for the same root (taken once), else taken now.
 * A handed snapshot is as good as one taken here: the build checks the files against it (runtimeChange) before it caches or writes.
 */
export function takeRuntimeSnapshot(root: string): RuntimeSnapshot {
  const h = handed;
  handed = undefined;
  return h && h.root === root ? h.snapshot : snapshotRuntime(root);
}

/** Object keys as JSON strings, by key: a config's few hundred distinct keys recur in every bundle's (bounded: record keys are data). */
const quotedKeys = new Map<string, string>();
const QUOTED_KEYS_MAX = 10_000;

function quoteKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key);
    if (quotedKeys.size < QUOTED_KEYS_MAX) quotedKeys.set(key, quoted);
  }
  return quoted;
}

/**
 * Serialises data with sorted keys, so hashes do not depend on key order. One string built by appending, each key quoted once per process
 * (quoteKey), keys sorted only when they are not in order already (issue #21: each bundle's inputsHash at 600 sites took a tenth of a
 * config thread's CPU; 2,280 bundle configs of 13.6 kB: 0.41 s before, 0.24 s now). The same text as the earlier
 * `{${keys.sort().filter(defined).map(...).join(",")}}` and `[${items.map(...).join(",")}]`: an array item that serialises to nothing
 * (undefined, a function) is empty, an object's undefined values are left out, any other value that serialises to nothing reads
 * `undefined` (hash.test.ts compares the two on arbitrary values).
 */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      const item = stableStringify(value[i]) as string | undefined;
      if (item !== undefined) out += item;
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  // Array.prototype.sort's default order is the code units' order, which < compares too.
  for (let i = 1; i < keys.length; i++)
    if (keys[i - 1] > keys[i]) {
      keys.sort();
      break;
    }
  let out = "{";
  let first = true;
  for (const k of keys) {
    const v = record[k];
    if (v === undefined) continue;
    out += `${first ? "" : ","}${quoteKey(k)}:${stableStringify(v)}`;
    first = false;
  }
  return `${out}}`;
}

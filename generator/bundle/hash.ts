import { createHash } from "node:crypto";
import { readFileSync, existsSync } from "node:fs";
import { join, relative } from "node:path";
import { listFiles } from "../walk.js";

export const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");
export const sha384Integrity = (data: string | Uint8Array) => `sha384-${createHash("sha384").update(data).digest("base64")}`;

/** The .ts and .json files below dir (hidden ones left out). */
const sourceFiles = (dir: string) => listFiles(dir, { skipHidden: true, include: (name) => /\.(ts|json)$/.test(name) });

const TOOLCHAIN = ["rollup", "terser", "typescript", "@rollup/plugin-typescript", "@rollup/plugin-node-resolve", "ts-morph", "tslib", "web-vitals"];

/**
 * Everything besides the config that decides a bundle's bytes: the runtime
 * sources, the generator's own sources, the tsconfigs and the toolchain
 * versions. A change to any of them rebuilds every bundle.
 */
export function computeRuntimeHash(root: string): string {
  const hash = createHash("sha256");
  const files = [
    ...sourceFiles(join(root, "runtime-modules")),
    ...sourceFiles(join(root, "generator", "bundle")),
    ...sourceFiles(join(root, "generator", "config")),
    join(root, "tsconfig.base.json"),
    join(root, "tsconfig.runtime.json"),
  ];
  for (const file of files) {
    if (!existsSync(file)) continue;
    hash.update(relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  for (const name of TOOLCHAIN) {
    const pkg = join(root, "node_modules", name, "package.json");
    const version = existsSync(pkg) ? (JSON.parse(readFileSync(pkg, "utf8")) as { version: string }).version : "missing";
    hash.update(`${name}@${version}\0`);
  }
  return hash.digest("hex");
}

/** The runtime hash the CLI computed for the build that follows in this process (generator/cli/child.ts), taken once by that build. */
let handed: { root: string; hash: string } | undefined;

/** Hands `hash`, computeRuntimeHash(root) a moment ago, to the build that starts next in this process (takeRuntimeHash). */
export function handRuntimeHash(root: string, hash: string): void {
  handed = { root, hash };
}

/** computeRuntimeHash for a build that starts now: the hash handed by the CLI a moment ago for the same root (taken once), else computed. */
export function takeRuntimeHash(root: string): string {
  const h = handed;
  handed = undefined;
  return h && h.root === root ? h.hash : computeRuntimeHash(root);
}

/** Serialises data with sorted keys, so hashes do not depend on key order. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableStringify((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * The build's stamp (issue #21: at 600 sites a rebuild with nothing changed
 * spent seconds loading the schemas, reading the config cache and writing
 * the manifest, only to reuse every bundle). After a successful build,
 * `CACHE/stamp.json` keeps a key of everything the build read and the result
 * a rebuild with nothing changed gives (every bundle reused). The CLI
 * (cli/replay.ts) computes the key before loading the rest of the generator
 * and, when it matches, prints that result: the same output as the build,
 * without the build.
 *
 * The key covers: the selection and the folders; every file of the sites
 * folder, by content; the manifest, by content, and the presence of every
 * file and alias it names; the runtime's and the generator's sources and
 * compiled files, the tsconfigs, package.json and the installed packages,
 * by size and modification time. Anything else (a sharded, forced or dry
 * build) neither writes nor uses a stamp.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { listFiles } from "../walk.js";
import { writeAtomic } from "./cache-file.js";
import type { BundleReport } from "./link.js";
import type { Manifest } from "./manifest.js";

/** Bumped when the key or the stored result changes shape. */
const FORMAT = "2";

export interface StampInput {
  root: string;
  sitesDir: string;
  outDir: string;
  cacheDir: string;
  sites?: string[];
  envs?: string[];
}

/** What the stamp keeps: a build's result with every bundle reused. */
export interface StampedResult {
  diagnostics: unknown[];
  bundles: BundleReport[];
}

const stampFile = (cacheDir: string) => join(cacheDir, "stamp.json");

/**
 * The key of the build's inputs as they are now: the selection and folders, every file of the sites folder by content, the sources by size
 * and modification time. A build takes it before it reads anything (build.ts), so that a file changed while it runs is not stamped as built.
 */
export function stampInputsKey(input: StampInput): string {
  const { root, sitesDir, outDir } = input;
  const hash = createHash("sha256");
  const add = (...parts: Array<string | Uint8Array>) => {
    for (const p of parts) hash.update(p).update("\0");
  };
  add(FORMAT, JSON.stringify([root, sitesDir, outDir, input.sites ?? [], input.envs ?? []]));
  for (const file of listFiles(sitesDir)) add(file, readFileSync(file));
  const sources = [
    ...listFiles(join(root, "runtime-modules"), { skipHidden: true }),
    ...listFiles(join(root, "generator"), { skipHidden: true }),
    ...listFiles(join(root, "build", "generator"), { skipHidden: true }),
    ...["tsconfig.base.json", "tsconfig.runtime.json", "package.json", join("node_modules", ".package-lock.json")].map((f) => join(root, f)),
  ];
  for (const file of sources) {
    const stat = statSync(file, { throwIfNoEntry: false });
    add(file, stat ? `${stat.size} ${stat.mtimeMs}` : "missing");
  }
  return hash.digest("hex");
}

/** The inputs' key readStamp computed for the build that follows its miss in this process (takeStampInputsKey). */
let lastInputsKey: { input: string; key: string } | undefined;
const inputId = (input: StampInput) => JSON.stringify([input.root, input.sitesDir, input.outDir, input.cacheDir, input.sites ?? [], input.envs ?? []]);

/**
 * stampInputsKey for a build that starts now: the key the CLI's replay computed for the same input a moment ago when its stamp missed
 * (bin/sitetags.js runs the build right after, so it is the inputs as the build starts; taken once), else computed (issue #21: at 600
 * sites it read every site file twice per rebuild).
 */
export function takeStampInputsKey(input: StampInput): string {
  const handed = lastInputsKey;
  lastInputsKey = undefined;
  return handed && handed.input === inputId(input) ? handed.key : stampInputsKey(input);
}

/**
 * The key of the build's inputs (stampInputsKey: as they are now, or as a build found them when it started) and of its outputs as they are
 * now, with the manifest; undefined when there is no manifest or a file it names (a bundle, its alias, its deferred file) is missing.
 * `checkFiles` false: the caller knows they are there (writeStamp, after the build's commit; a replay checks them again in any case).
 */
export function stampKey(input: StampInput, inputsKey?: string, checkFiles = true): { key: string; manifest: Manifest; manifestText: string } | undefined {
  const { outDir } = input;
  let manifestText: string;
  let manifest: Manifest;
  try {
    manifestText = readFileSync(join(outDir, "manifest.json"), "utf8");
    manifest = JSON.parse(manifestText) as Manifest;
  } catch {
    return undefined;
  }
  if (!Array.isArray(manifest.bundles) || manifest.shard) return undefined;
  if (checkFiles)
    for (const b of manifest.bundles)
      if (!existsSync(join(outDir, b.file)) || !existsSync(join(outDir, b.alias)) || (b.deferred && !existsSync(join(outDir, b.deferred.file))))
        return undefined;
  const key = createHash("sha256")
    .update(`${inputsKey ?? stampInputsKey(input)}\0${manifestText}`)
    .digest("hex");
  return { key, manifest, manifestText };
}

/** The manifest readStamp found, every file it names present, for the build that follows its miss in this process (takeStampedManifest). */
let lastManifest: { input: string; manifest: Manifest } | undefined;

/**
 * The previous manifest for a build that starts now, when the CLI's replay read it a moment ago and found every file it names (bundle,
 * alias, deferred file) present: the build's plan then need not look for them again (issue #21: at 600 sites the replay, the plan and the
 * stamp looked for the same 6,840 files, each in turn). Taken once; undefined otherwise.
 */
export function takeStampedManifest(input: StampInput): Manifest | undefined {
  const handed = lastManifest;
  lastManifest = undefined;
  return handed && handed.input === inputId(input) ? handed.manifest : undefined;
}

/** The key at the start of stamp.json as writeStamp writes it (JSON.stringify keeps the key order), so that a miss parses nothing more. */
const STORED_KEY = /^\{"key":"([0-9a-f]{64})",/;

/**
 * The stamped result when the stamp's key is the key of things as they are now. `handOver`: the build runs next in this process when the
 * stamp misses (bin/sitetags.js), so it may take the inputs' key computed here (takeStampInputsKey).
 */
export async function readStamp(input: StampInput, handOver = false): Promise<(StampedResult & { manifest: Manifest }) | undefined> {
  let text: string;
  try {
    text = await readFile(stampFile(input.cacheDir), "utf8");
  } catch {
    return undefined;
  }
  let now;
  try {
    const inputsKey = stampInputsKey(input);
    if (handOver) lastInputsKey = { input: inputId(input), key: inputsKey };
    now = stampKey(input, inputsKey);
  } catch {
    return undefined;
  }
  if (!now) return undefined;
  if (handOver) lastManifest = { input: inputId(input), manifest: now.manifest };
  // A miss (the usual case when this runs: something changed) reads the key only, not the 1.5 MB result of 600 sites.
  const keyAtStart = STORED_KEY.exec(text.slice(0, 80))?.[1];
  if (keyAtStart !== undefined && keyAtStart !== now.key) return undefined;
  let stored: { key: string; result: StampedResult };
  try {
    stored = JSON.parse(text) as typeof stored;
  } catch {
    return undefined;
  }
  if (stored.key !== now.key) return undefined;
  if (handOver) lastManifest = lastInputsKey = undefined;
  return { ...stored.result, manifest: now.manifest };
}

/** Remembers a successful build (`inputsKey`: stampInputsKey as the build started; by default as things are now): its reports as a rebuild with nothing changed reports them (reused, as its manifest says). A stamp that cannot be written is only slower next time. */
export async function writeStamp(input: StampInput, result: StampedResult, inputsKey?: string): Promise<void> {
  try {
    // The build has just committed every file its manifest names.
    const now = stampKey(input, inputsKey, false);
    if (!now) return;
    const entries = new Map(now.manifest.bundles.map((b) => [`${b.site}/${b.env}`, b]));
    const bundles = result.bundles.map((r) => ({
      ...entries.get(`${r.site}/${r.env}`)!,
      status: "reused" as const,
      budgetGzipBytes: r.budgetGzipBytes,
      moduleBytes: r.moduleBytes,
      moduleSources: r.moduleSources,
    }));
    if (bundles.some((b) => b.file === undefined)) return;
    await writeAtomic(stampFile(input.cacheDir), JSON.stringify({ key: now.key, result: { diagnostics: result.diagnostics, bundles } }));
  } catch {
    // No stamp: the next build runs in full.
  }
}

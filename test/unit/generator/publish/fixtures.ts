/**
 * Shared builds for the publishing tests: three catalogues of the real sites
 * (bigfuture, clep, go: every environment), built once per test file.
 * A is the catalogue as it is; B changes one bundle (qa/bigfuture's
 * sampling); C changes every bundle (timing.startupWait in _org.yaml: a value every bundle inlines; failover is inlined only where a noPush rule waits by it).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseDocument } from "yaml";
import { build, type Manifest } from "../../../../generator/bundle/build.js";
import { copyCatalogue, tempDir } from "../../../helpers/fs.js";

export const SUBSET = ["bigfuture", "clep", "go"];

export interface Built {
  sitesDir: string;
  outDir: string;
  manifest: Manifest;
  manifestText: string;
  /** dist-relative path -> bytes. */
  bytes(path: string): Buffer;
}

function edit(file: string, path: string[], value: unknown) {
  const doc = parseDocument(readFileSync(file, "utf8"));
  doc.setIn(path, value);
  writeFileSync(file, doc.toString());
}

export async function buildVariant(variant: "A" | "B" | "C", cacheDir: string): Promise<Built> {
  const sitesDir = copyCatalogue();
  if (variant === "B") edit(join(sitesDir, "bigfuture.yaml"), ["envs", "qa", "sampling"], 7);
  if (variant === "C") edit(join(sitesDir, "_org.yaml"), ["timing", "startupWait"], 4501);
  const outDir = tempDir(`dist-${variant}`);
  const result = await build({ sitesDir, outDir, cacheDir, sites: SUBSET });
  if (!result.ok) throw new Error(`build ${variant} failed: ${JSON.stringify(result.diagnostics)}`);
  const manifestText = readFileSync(join(outDir, "manifest.json"), "utf8");
  return { sitesDir, outDir, manifest: JSON.parse(manifestText) as Manifest, manifestText, bytes: (path) => readFileSync(join(outDir, path)) };
}

/**
 * The write step: the bundles and the manifest go into dist/ all at once or
 * not at all (new names first, the manifest last), then what no manifest
 * entry names any more is pruned.
 */
import { access, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Manifest } from "./manifest.js";

/** Writes the built bundles (hashed name and alias) and the manifest, then prunes against `previous`. */
export async function writeDist(
  outDir: string,
  outputs: ReadonlyArray<{ report: { file: string; alias: string; deferred?: { file: string } }; code: string | Uint8Array; deferredCode?: string }>,
  manifest: Manifest,
  previous: Manifest,
): Promise<void> {
  const files = outputs.flatMap(({ report, code, deferredCode }) => [
    // The deferred file the first one names (content-addressed like it: the same bytes for every bundle of a runtime).
    ...(report.deferred && deferredCode !== undefined ? [{ path: join(outDir, report.deferred.file), data: deferredCode, named: true }] : []),
    { path: join(outDir, report.file), data: code, named: true },
    { path: join(outDir, report.alias), data: code },
  ]);
  files.push({ path: join(outDir, "manifest.json"), data: `${JSON.stringify(manifest, null, 2)}\n` });
  await commitFiles(files);
  await prune(outDir, manifest, previous);
}

/**
 * Writes files so that dist/ changes all at once or not at all: every file
 * is first written beside its target (.tmp-PID), in new directories as
 * needed; only when all are written are they renamed into place, in order
 * (the manifest last). A failure while writing removes the temporaries and
 * the directories made for them; a failure while renaming puts back what
 * was renamed (the earlier content of a replaced file, kept in memory).
 */
export async function commitFiles(files: Array<{ path: string; data: string | Uint8Array; named?: boolean }>): Promise<void> {
  const tmp = (path: string) => `${path}.tmp-${process.pid}`;
  const madeDirs: string[] = [];
  /** Removes the temporaries and the directories made for them. */
  const cleanUp = async () => {
    await Promise.all(files.map((f) => rm(tmp(f.path), { force: true }).catch(() => undefined)));
    for (const dir of madeDirs.reverse()) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  };
  try {
    for (const made of await Promise.all([...new Set(files.map((f) => dirname(f.path)))].map((dir) => mkdir(dir, { recursive: true }))))
      if (made) madeDirs.push(made);
    await allSettledOrThrow(files.map((f) => writeFile(tmp(f.path), f.data)));
  } catch (err) {
    await cleanUp();
    throw err;
  }
  // What a rollback puts back: a replaced file's bytes; a content-named file (sitetags.HASH.min.js) that was there holds these very bytes, so it stays.
  const befores = await Promise.all(
    files.map((f): Promise<Buffer | "same" | undefined> =>
      f.named
        ? access(f.path).then(
            () => "same" as const,
            () => undefined,
          )
        : readFile(f.path).catch(() => undefined),
    ),
  );
  const renamed: Array<{ path: string; before: Buffer | "same" | undefined }> = [];
  const put = (i: number) => rename(tmp(files[i].path), files[i].path).then(() => void renamed.push({ path: files[i].path, before: befores[i] }));
  try {
    // All but the last (the manifest) at once, then the last.
    await allSettledOrThrow(files.slice(0, -1).map((_, i) => put(i)));
    if (files.length) await put(files.length - 1);
  } catch (err) {
    for (const r of renamed.reverse()) {
      if (r.before === "same") continue;
      await (r.before ? writeFile(r.path, r.before) : rm(r.path, { force: true })).catch(() => undefined);
    }
    await cleanUp();
    throw err;
  }
}

/** Waits for every promise (none is left running), then throws the first failure, if any. */
async function allSettledOrThrow(promises: Array<Promise<unknown>>): Promise<void> {
  const failed = (await Promise.allSettled(promises)).find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}

/** Removes hashed files no manifest entry names, and bundles of sites that left the catalogue. */
async function prune(outDir: string, manifest: Manifest, previous: Manifest) {
  const keep = new Set(manifest.bundles.flatMap((b) => [b.file, b.alias, ...(b.deferred ? [b.deferred.file] : [])]));
  const dirs = new Set([...manifest.bundles, ...previous.bundles].map((b) => `${b.env}/${b.site}`));
  for (const dir of dirs) {
    let names: string[];
    try {
      names = await readdir(join(outDir, dir));
    } catch {
      continue;
    }
    for (const name of names) {
      if (/^sitetags\.(defer\.[0-9a-f]{10}\.|[0-9a-f]{10}\.)?min\.js$/.test(name) && !keep.has(`${dir}/${name}`))
        await rm(join(outDir, dir, name), { force: true });
    }
  }
}

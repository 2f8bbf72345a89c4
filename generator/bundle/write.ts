/**
 * The write step: the bundles and the manifest go into dist/ all at once or
 * not at all (new names first, the manifest last), then what no manifest
 * entry names any more is pruned.
 *
 * Bundles are staged as they are linked (createStaging: each written beside
 * its target at once, so a catalogue's bytes are never all in memory, issue
 * #21) and committed by renames once every bundle has passed its checks.
 */
import { access, link, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Manifest } from "./manifest.js";

interface StagedFile {
  path: string;
  /** A content-named file (sitetags.HASH.min.js): one that is already there holds these very bytes. */
  named?: boolean;
}

/** Files written beside their targets (.tmp-PID) until commit renames them into place, or abort removes them. */
export interface Staging {
  /**
   * Writes `data` beside `path` (making its folder as needed); rejects when it cannot. With `sameAs`, a path staged before whose bytes are
   * `data`, the temporary is a hard link of that one's (no second write; `data` is written where the link fails): the renames at commit
   * then give both paths the one file (issue #21: a bundle's alias is its hashed file, and every bundle's deferred file is the same bytes).
   */
  stage(path: string, data: string | Uint8Array, named?: boolean, sameAs?: string): Promise<void>;
  /** Renames every staged file into place, the last one staged last; on a failure puts back what was renamed, removes the temporaries and throws. */
  commit(): Promise<void>;
  /** Removes the temporaries and the folders made for them. */
  abort(): Promise<void>;
}

const tmpOf = (path: string) => `${path}.tmp-${process.pid}`;
const backupOf = (path: string) => `${path}.bak-${process.pid}`;

export function createStaging(): Staging {
  const files: StagedFile[] = [];
  const madeDirs: string[] = [];
  const dirs = new Map<string, Promise<void>>();
  const ensureDir = (dir: string) => {
    let made = dirs.get(dir);
    if (!made) {
      made = mkdir(dir, { recursive: true }).then((first) => void (first && madeDirs.push(first)));
      dirs.set(dir, made);
    }
    return made;
  };
  const abort = async () => {
    await Promise.all(files.map((f) => rm(tmpOf(f.path), { force: true }).catch(() => undefined)));
    await Promise.all([...dirs.values()].map((d) => d.catch(() => undefined)));
    for (const dir of [...madeDirs].reverse()) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  };
  return {
    async stage(path, data, named, sameAs) {
      // Listed at once, in call order: the last staged is the last renamed.
      files.push({ path, named });
      await ensureDir(dirname(path));
      const tmp = tmpOf(path);
      if (sameAs !== undefined) {
        const linked = await link(tmpOf(sameAs), tmp).then(
          () => true,
          () => false,
        );
        if (linked) return;
        // No link (no such temporary, a file system without hard links, the most links a file may have): a file of its own, new.
        await rm(tmp, { force: true });
      }
      await writeFile(tmp, data);
    },
    abort,
    async commit() {
      // What a rollback puts back: a replaced file, kept as a hard link beside it (no copy in memory; its bytes as a fallback where links fail); a content-named file that was there holds these very bytes, so it stays.
      const befores = await Promise.all(
        files.map(async (f): Promise<"same" | "backup" | Buffer | undefined> => {
          if (f.named)
            return access(f.path).then(
              () => "same" as const,
              () => undefined,
            );
          await rm(backupOf(f.path), { force: true });
          return link(f.path, backupOf(f.path)).then(
            () => "backup" as const,
            (err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? undefined : readFile(f.path).catch(() => undefined)),
          );
        }),
      );
      const dropBackups = () =>
        Promise.all(files.map((f, i) => (befores[i] === "backup" ? rm(backupOf(f.path), { force: true }).catch(() => undefined) : undefined)));
      const renamed: number[] = [];
      const put = (i: number) => rename(tmpOf(files[i].path), files[i].path).then(() => void renamed.push(i));
      try {
        // All but the last (the manifest) at once, then the last.
        await allSettledOrThrow(files.slice(0, -1).map((_, i) => put(i)));
        if (files.length) await put(files.length - 1);
      } catch (err) {
        for (const i of renamed.reverse()) {
          const { path } = files[i];
          const before = befores[i];
          if (before === "same") continue;
          await (before === "backup" ? rename(backupOf(path), path) : before ? writeFile(path, before) : rm(path, { force: true })).catch(() => undefined);
        }
        await dropBackups();
        await abort();
        throw err;
      }
      await dropBackups();
    },
  };
}

/** Stages the manifest after the staged bundles, commits, then prunes against `previous` (`committed`: called between the two, for the build's profile). */
export async function commitDist(staging: Staging, outDir: string, manifest: Manifest, previous: Manifest, committed?: () => void): Promise<void> {
  try {
    await staging.stage(join(outDir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  } catch (err) {
    await staging.abort();
    throw err;
  }
  await staging.commit();
  committed?.();
  await prune(outDir, manifest, previous);
}

/**
 * Writes files so that dist/ changes all at once or not at all: every file
 * is first written beside its target (.tmp-PID), in new directories as
 * needed; only when all are written are they renamed into place, in order
 * (the manifest last). A failure while writing removes the temporaries and
 * the directories made for them; a failure while renaming puts back what
 * was renamed (the earlier content of a replaced file, kept beside it).
 */
export async function commitFiles(files: Array<{ path: string; data: string | Uint8Array; named?: boolean }>): Promise<void> {
  const staging = createStaging();
  try {
    // Each folder once, then every file at once (in order, so the last is the last renamed).
    await allSettledOrThrow(files.map((f) => staging.stage(f.path, f.data, f.named)));
  } catch (err) {
    await staging.abort();
    throw err;
  }
  await staging.commit();
}

/** Waits for every promise (none is left running), then throws the first failure, if any. */
async function allSettledOrThrow(promises: Array<Promise<unknown>>): Promise<void> {
  const failed = (await Promise.allSettled(promises)).find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}

/**
 * Removes hashed files no manifest entry names, and bundles of sites that left the catalogue. Only the folders whose entry changed are read
 * (issue #21: at 600 sites, reading all 2,280 folders was half a second of a one-site rebuild): a folder whose entry names the same files as
 * the previous manifest's was pruned by the build that wrote that entry.
 */
async function prune(outDir: string, manifest: Manifest, previous: Manifest) {
  const keep = new Set(manifest.bundles.flatMap((b) => [b.file, b.alias, ...(b.deferred ? [b.deferred.file] : [])]));
  const filesOf = (b: Manifest["bundles"][number]) => `${b.file}\0${b.alias}\0${b.deferred?.file ?? ""}`;
  const before = new Map(previous.bundles.map((b) => [`${b.env}/${b.site}`, filesOf(b)]));
  const now = new Set(manifest.bundles.map((b) => `${b.env}/${b.site}`));
  const dirs = new Set([
    ...manifest.bundles.filter((b) => before.get(`${b.env}/${b.site}`) !== filesOf(b)).map((b) => `${b.env}/${b.site}`),
    ...[...before.keys()].filter((dir) => !now.has(dir)),
  ]);
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

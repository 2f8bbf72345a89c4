/**
 * Step 4 of the build, compile: the runtime's pieces (the core, each feature
 * module, the data-layer checks), from the cache or compiled. Stage A
 * compiles runtime-modules/ once (compile-runtime.ts) while a worker reads
 * the registry and writes the typed entries (prepare.ts, step 3); stage B
 * bundles and minifies each piece on the worker pool (compile-piece.ts).
 */
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { ResolvedBundle } from "../config/load.js";
import { compareText } from "../compare-text.js";
import { cachedJson, writeAtomic } from "./cache-file.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { DIAGNOSTICS } from "../diagnostics/diagnostics.js";
import type { PieceResult } from "./compile-piece.js";
import { coreEntry } from "./entry.js";
import { featureSetOf, type FeatureSet } from "./features.js";
import { coreOf, hasDevChecks, isCore, pieceKeyOf, piecesOf, shapeKeyOf, type Plan } from "./plan.js";
import type { JobOutcome } from "./pool.js";
import type { PrepareOutput } from "./prepare.js";
import { registryFile } from "./paths.js";
import { runtimeChange, type RuntimeSnapshot } from "./hash.js";

/** The compiled pieces by name, and the registry order in which a bundle hands its modules to boot. */
export interface PieceSet {
  order: string[];
  pieces: Map<string, PieceResult>;
}

export interface CompileContext {
  root: string;
  cacheDir: string;
  runtimeHash: string;
  /** The runtime's files as the build hashed them (runtimeHash is its hash): nothing is cached under runtimeHash unless they are still so. */
  snapshot: RuntimeSnapshot;
  workers?: number;
  /** Called once per piece compiled (or failed). */
  onPiece(label: string): void;
  /** Marks the end of a timed phase ("runtime+entries"). */
  phase(name: string): void;
}

/** The cache's list of the registry's modules in order, written once the pieces of runtime `runtimeHash` are compiled. */
const orderFile = (cacheDir: string, runtimeHash: string) => join(cacheDir, "pieces", `order-${runtimeHash.slice(0, 16)}.json`);

/** Whether pieces of runtime `runtimeHash` were compiled into the cache (false: a build will compile the runtime). */
export const piecesCachedFor = (cacheDir: string, runtimeHash: string) => existsSync(orderFile(cacheDir, runtimeHash));

/** The pieces the planned bundles need, from the cache; the missing ones (of bundles to build) by cache key. */
export async function cachedPieces(
  plan: Plan,
  ctx: Pick<CompileContext, "cacheDir" | "runtimeHash">,
): Promise<{ set: PieceSet; missing: Map<string, string> }> {
  const dir = join(ctx.cacheDir, "pieces");
  const set: PieceSet = { order: (await cachedJson<string[]>(orderFile(ctx.cacheDir, ctx.runtimeHash))) ?? [], pieces: new Map() };
  const wanted = new Set([...plan.toBuild, ...plan.reused].flatMap(({ bundle }) => piecesOf(bundle)));
  const missing = new Map<string, string>();
  for (const name of wanted) {
    const key = pieceKeyOf(ctx.runtimeHash, name);
    const cached = set.order.length ? await cachedJson<PieceResult>(join(dir, `${key}.json`)) : undefined;
    if (cached) set.pieces.set(name, cached);
    else if (plan.toBuild.some(({ bundle }) => piecesOf(bundle).includes(name))) missing.set(key, name);
  }
  return { set, missing };
}

/**
 * Compiles the missing pieces into `set` (and the cache). Returns the
 * diagnostics (a failed piece: BUILD_COMPILE_ERROR) and how many pieces were
 * compiled. A worker thread that stops fails only its own piece.
 */
export async function compilePieces(
  missing: Map<string, string>,
  toBuild: ReadonlyArray<{ bundle: ResolvedBundle }>,
  set: PieceSet,
  ctx: CompileContext,
): Promise<{ diagnostics: Diagnostic[]; compiled: number }> {
  const { root, cacheDir, runtimeHash, snapshot } = ctx;
  const diagnostics: Diagnostic[] = [];
  let compiled = 0;
  const compiledRuntime = join(cacheDir, "runtime", runtimeHash.slice(0, 16));
  await mkdir(join(cacheDir, "pieces"), { recursive: true });
  // Workers load rollup and terser while stage A runs; the module manifests and the typed entries (ts-morph) run on another.
  // The pool (and through the registry, the schemas) is loaded only when a piece is compiled: a rebuild from cached pieces never needs it.
  const { compileRuntimeInWorker, createPiecePool, prepareInWorker } = await import("./pool.js");
  const pool = createPiecePool(Math.min(ctx.workers ?? availableParallelism(), missing.size));
  const shapes = new Map<string, { modules: string[]; devChecks: boolean }>();
  for (const { bundle } of toBuild) shapes.set(shapeKeyOf(runtimeHash, bundle), { modules: bundle.modules, devChecks: hasDevChecks(bundle) });
  const expressions = [...missing].filter(([, name]) => !isCore(name));
  // Each core's feature set (the core's name is its key), from one bundle of it: a config read from the config cache is read on first use.
  const features = new Map<string, FeatureSet>();
  for (const { bundle } of toBuild) {
    const core = coreOf(bundle);
    if (!features.has(core)) features.set(core, featureSetOf(bundle.config));
  }
  try {
    const prepared = prepareInWorker({
      root,
      cacheDir,
      runtimeHash,
      compiledRuntime,
      shapes: [...shapes].sort(([a], [b]) => compareText(a, b)),
      pieces: expressions,
    });
    prepared.catch(() => undefined); // awaited below; not unhandled if stage A throws first
    // On its own thread, which takes TypeScript's heap with it when it ends (peak memory, issue #21); nothing to do when already compiled.
    const runtimeDiagnostics = await compileRuntimeInWorker({ root, runtimeDir: join(root, "runtime-modules"), outDir: compiledRuntime, snapshot }).catch(
      (err: Error) => [DIAGNOSTICS.compileError(err.message)],
    );
    diagnostics.push(...runtimeDiagnostics);
    const onDone = (o: JobOutcome) => {
      ctx.onPiece(o.ok ? `compiled ${o.result.name}` : `failed ${o.name}`);
      return o;
    };
    // The cores first: the longest jobs, and they need no registry.
    const outcomes: Array<Promise<JobOutcome>> = [];
    if (!diagnostics.length)
      for (const [key, name] of missing)
        if (isCore(name))
          outcomes.push(pool.submit({ key, name, kind: "core", entry: coreEntry(compiledRuntime, features.get(name)!), packageRoot: root }).then(onDone));
    const prep = await prepared.catch((err: Error): PrepareOutput => ({ diagnostics: [DIAGNOSTICS.prepareFailed(err.message)], order: [], jobs: [] }));
    diagnostics.push(...prep.diagnostics);
    ctx.phase("runtime+entries");
    // Stage A and the registry are sound: the pieces' jobs, then the registry's order (written once the pieces are, below).
    const ready = !diagnostics.length;
    if (ready) for (const job of prep.jobs) outcomes.push(pool.submit(job).then(onDone));
    const done = await Promise.all(outcomes);
    // The registry (and so the pieces' entries) was read from the sources, not from stage A's checked output: nothing is cached under
    // runtimeHash unless every source is still as the build hashed it (a piece compiled from what an edit left must not be found under the
    // hash of the sources before it, nor the other way round).
    const changed = ready ? runtimeChange(root, snapshot) : undefined;
    if (changed !== undefined) return { diagnostics: [DIAGNOSTICS.inputsChanged(changed, "compiled the runtime's pieces")], compiled: 0 };
    for (const o of done) {
      if (!o.ok) {
        diagnostics.push(DIAGNOSTICS.pieceFailed(o.name, o.error));
        continue;
      }
      set.pieces.set(o.result.name, o.result);
      await writeAtomic(join(cacheDir, "pieces", `${o.result.key}.json`), JSON.stringify(o.result));
      compiled++;
    }
    if (ready) {
      set.order = prep.order;
      if (prep.registry) await writeAtomic(registryFile(cacheDir, runtimeHash), JSON.stringify(prep.registry));
      // Last: its presence says the pieces of this runtime are in the cache (piecesCachedFor).
      await writeAtomic(orderFile(cacheDir, runtimeHash), JSON.stringify(prep.order));
    }
  } finally {
    await pool.close();
  }
  return { diagnostics, compiled };
}

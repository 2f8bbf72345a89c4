/**
 * The order in which vitest starts the test files: the longest first, so that
 * the two workers (maxWorkers 2) finish together instead of one running a
 * four-minute file alone at the end. Vitest's own order needs the durations
 * of an earlier run (node_modules/.vite/vitest), which CI's fresh copy never
 * has; without them it starts the largest files first, and the longest file
 * (bench-smoke, 3 KB) started among the last. Each file's duration comes from
 * vitest's cache of the last run when there is one, else from FILE_MS (the
 * last CI run's), else the file comes after those, in vitest's order.
 */
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Milliseconds per file in CI (`.ci/run`, two workers): the files over about 25 s. Update when a file's time changes much or a new long file comes. */
export const FILE_MS: Record<string, number> = {
  // Task "citime": bench-smoke, cli and publish/cli estimated from the old CI times by the ratio after/before, each file run alone on the loaded machine;
  // merge, publish and promote (faster since the build's caches, task "scale") from their time alone on the loaded machine, / 2.5.
  "test/browser/bench-smoke.test.ts": 52_000,
  "test/unit/generator/cli.test.ts": 77_000,
  "test/browser/coverage.test.ts": 140_817,
  "test/unit/generator/build.test.ts": 121_793,
  "test/unit/generator/merge.test.ts": 7_000,
  "test/browser/tags.test.ts": 90_600,
  "test/unit/readme-module.test.ts": 83_080,
  "test/browser/tracking.test.ts": 80_283,
  "test/browser/rules.test.ts": 68_825,
  "test/browser/consent.test.ts": 64_712,
  "test/browser/runtime-boot.test.ts": 57_429,
  "test/browser/edge.test.ts": 53_600,
  "test/browser/faults-page.test.ts": 51_908,
  "test/unit/generator/publish/cli.test.ts": 40_000,
  "test/browser/runtime-tags.test.ts": 49_533,
  "test/unit/generator/publish/publish.test.ts": 12_000,
  "test/browser/conformance.test.ts": 41_912,
  "test/browser/preview-pushes.test.ts": 41_811,
  "test/unit/generator/publish/promote.test.ts": 7_000,
  "test/unit/generator/config-cache.test.ts": 28_562,
  // Task "stale" (#21): a link from the repository's cache and the pieces compiled twice, in-process: 38 s run alone on the loaded machine (load 10), the cache warm.
  "test/unit/generator/inputs-changed.test.ts": 38_000,
  // sampling (#19): run alone on the shared machine.
  "test/browser/sampling.test.ts": 29_000,
  // Task "tagsA" (#20): guided help and personalisation, run alone with the heavy lock (build included).
  "test/browser/tags-vendors.test.ts": 58_100,
  "test/browser/timing-waits.test.ts": 40_000,
};

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const root = this.ctx.config.root;
    const ms = (spec: TestSpecification): number | undefined => {
      const file = relative(root, spec.moduleId).split("\\").join("/");
      return this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`)?.duration ?? FILE_MS[file];
    };
    const known = base.filter((s) => ms(s) !== undefined).sort((a, b) => ms(b)! - ms(a)!);
    return [...known, ...base.filter((s) => ms(s) === undefined)];
  }
}

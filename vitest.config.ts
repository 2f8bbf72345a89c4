import { configDefaults, defineConfig } from "vitest/config";
import LongestFirstSequencer from "./test/sequencer.js";

/**
 * The load test (test/browser/load.test.ts) measures the main thread of a page
 * under a burst of 50,000 pushes, so it runs alone, after every other test:
 * `npm test` runs vitest twice, the second time with SITETAGS_LOAD_ALONE=1
 * (`npm run test:load`). Beside other browser tests on two cores, its
 * Chromium shares the CPU with theirs and its tasks' times are theirs too.
 */
const loadAlone = process.env.SITETAGS_LOAD_ALONE === "1";
const LOAD_TEST = "test/browser/load.test.ts";

/**
 * Browser tests (test/browser/, real Chromium on two loaded cores) get one
 * retry: a page racing the test's own clock under load is the machine's
 * noise, not the product's. A test that needed it is named in the closing
 * summary (test/summary-reporter.ts, "flaky (passed on retry): ..."), so it stays visible and
 * gets its wait fixed. Unit tests (fast-check properties among them) never
 * retry: a property that fails once has found a counterexample.
 */
const BROWSER_TESTS = "test/browser/**/*.test.ts";
const projects = loadAlone
  ? undefined
  : [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts", "preview/**/*.test.ts", "preview/**/*.test.tsx"],
          exclude: [...configDefaults.exclude, BROWSER_TESTS],
        },
      },
      // expect.poll waits 5 s by default there (vitest's 1 s is less than a request takes under load); a poll ends once it holds.
      {
        extends: true,
        test: { name: "browser", include: [BROWSER_TESTS], exclude: [...configDefaults.exclude, LOAD_TEST], retry: 1, expect: { poll: { timeout: 5000 } } },
      },
    ];

export default defineConfig({
  test: {
    // With projects, each project names its own files (`extends: true` would add these to theirs).
    ...(projects ? { projects } : { include: [LOAD_TEST] }),
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Browser tests each start Chromium; two cores, so at most two files at once.
    maxWorkers: 2,
    // The longest files first (test/sequencer.ts), so that both workers finish together.
    sequence: { sequencer: LongestFirstSequencer },
    reporters: ["default", "./test/summary-reporter.ts"],
  },
});

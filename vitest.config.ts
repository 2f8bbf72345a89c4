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

export default defineConfig({
  test: {
    include: loadAlone ? [LOAD_TEST] : ["test/**/*.test.ts", "preview/**/*.test.ts", "preview/**/*.test.tsx"],
    exclude: loadAlone ? configDefaults.exclude : [...configDefaults.exclude, LOAD_TEST],
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

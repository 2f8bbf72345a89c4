import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "preview/**/*.test.ts", "preview/**/*.test.tsx"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Browser tests each start Chromium; two cores, so at most two files at once.
    maxWorkers: 2,
    reporters: ["default", "./test/summary-reporter.ts"],
  },
});

/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped, N flaky`,
 * after vitest's own summary, so CI logs state the count in a runner-neutral
 * form; each test that passed only on its retry is named above it.
 */
import type { Reporter, TestModule } from "vitest/node";

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown> = []): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const flaky: string[] = [];
    for (const module of modules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (test.diagnostic()?.flaky) flaky.push(`${module.moduleId.split(/[\\/]test[\\/]/).pop()} > ${test.fullName}`);
        if (state === "passed") passed++;
        else if (state === "failed") failedHere++;
        else skipped++;
      }
      // A file that failed outside its tests (a hook, an import) counts as one failure.
      if (module.state() === "failed" && failedHere === 0) failedHere = 1;
      failed += failedHere;
    }
    // Unhandled errors fail the run too.
    failed += unhandledErrors.length;
    // A test that passed only on its retry (browser tests, vitest.config.ts) is named: its wait needs fixing.
    for (const name of flaky) process.stdout.write(`\nflaky (passed on retry): ${name}`);
    process.stdout.write(
      `\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}${flaky.length ? `, ${flaky.length} flaky` : ""}\n`,
    );
  }
}

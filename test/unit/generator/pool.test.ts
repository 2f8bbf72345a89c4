/**
 * The build's worker pool (generator/bundle/pool.ts) when a worker thread
 * stops: the build must fail with the reason, never wait forever. Fixture
 * workers (test/fixtures/workers/) stand in for the real ones.
 */
import { describe, expect, it, vi } from "vitest";
import { createPiecePool, prepareInWorker, type JobOutcome } from "../../../generator/bundle/pool.js";
import type { PieceJob } from "../../../generator/bundle/compile-piece.js";
import type { PrepareInput } from "../../../generator/bundle/prepare.js";

const worker = (name: string) => new URL(`../../fixtures/workers/${name}.js`, import.meta.url);
const job = (name: string): PieceJob => ({ key: `k-${name}`, name, kind: "expression", entry: "", packageRoot: "" });
const summary = (o: JobOutcome) => (o.ok ? `${o.result.name}: ok` : `${o.name}: ${o.error}`);

describe("the build's worker pool", () => {
  it("a job whose worker thread throws fails with the reason; the queue goes on on the worker still alive", async () => {
    const pool = createPiecePool(2, { workerUrl: worker("piece-worker") });
    expect(pool.threads).toBe(2);
    try {
      const outcomes = await Promise.all(["ok-1", "throw-2", "ok-3", "ok-4", "ok-5"].map((n) => pool.submit(job(n))));
      expect(outcomes.map(summary)).toEqual(["ok-1: ok", "throw-2: worker thread failed: boom in throw-2", "ok-3: ok", "ok-4: ok", "ok-5: ok"]);
    } finally {
      await pool.close();
    }
  });

  it("a worker thread that exits in the middle of a job fails that job with its exit code", async () => {
    const pool = createPiecePool(2, { workerUrl: worker("piece-worker") });
    try {
      const [exited, after] = await Promise.all([pool.submit(job("exit-1")), pool.submit(job("ok-2"))]);
      expect(summary(exited)).toBe("exit-1: worker thread exited (code 7)");
      expect(summary(after)).toBe("ok-2: ok");
    } finally {
      await pool.close();
    }
  });

  it("once every worker thread has stopped, waiting and later jobs fail instead of waiting forever", async () => {
    const pool = createPiecePool(2, { workerUrl: worker("piece-worker") });
    try {
      const outcomes = await Promise.all(["exit-1", "exit-2", "ok-3", "ok-4"].map((n) => pool.submit(job(n))));
      expect(outcomes.map(summary)).toEqual([
        "exit-1: worker thread exited (code 7)",
        "exit-2: worker thread exited (code 7)",
        "ok-3: no worker thread left (worker thread exited (code 7))",
        "ok-4: no worker thread left (worker thread exited (code 7))",
      ]);
      expect(summary(await pool.submit(job("ok-5")))).toBe("ok-5: no worker thread left (worker thread exited (code 7))");
    } finally {
      await pool.close();
    }
  });

  it("workers that fail while idle (loading, before any job) are not handed jobs", async () => {
    const pool = createPiecePool(2, { workerUrl: worker("dead-on-start") });
    try {
      // Both threads fail before the job arrives: the case that used to hang.
      await vi.waitFor(() => expect(pool.threads).toBe(0), { timeout: 20_000, interval: 20 });
      expect(summary(await pool.submit(job("ok-1")))).toBe("ok-1: no worker thread left (worker thread failed: cannot load the compiler)");
    } finally {
      await pool.close();
    }
  });

  it("the registry worker rejects with the reason when its thread ends without answering", async () => {
    const input = {} as PrepareInput;
    await expect(prepareInWorker(input, worker("silent-exit"))).rejects.toThrow("worker thread exited (code 3)");
    await expect(prepareInWorker(input, worker("dead-on-start"))).rejects.toThrow("worker thread failed: cannot load the compiler");
  });
});

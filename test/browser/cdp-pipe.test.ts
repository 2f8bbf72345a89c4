/**
 * scripts/cdp-pipe.js, the bench's Chromium without DevTools' page
 * instrumentation: it drives a real Chromium over --remote-debugging-pipe and
 * measures a page's main-thread script time (CDP Performance metrics).
 */
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchPipe } from "../../scripts/cdp-pipe.js";
import { CHROMIUM, FLAGS } from "./harness/browser.js";

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/busy.js") return res.writeHead(200, { "content-type": "text/javascript" }).end("var t=performance.now();while(performance.now()-t<60){}window.done=1;");
    if (req.url === "/busy") return res.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><title>busy</title><script src="/busy.js"></script>');
    res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>empty</title>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the bench's uninstrumented Chromium (scripts/cdp-pipe.js)", () => {
  it("measures a page's main-thread script time: a script that runs 60 ms counts at least that, an empty page next to nothing", async () => {
    const pipe = launchPipe(CHROMIUM, FLAGS);
    try {
      const scriptMs = async (path: string) => {
        const { browserContextId } = await pipe.send("Target.createBrowserContext");
        const { targetId } = await pipe.send("Target.createTarget", { url: "about:blank", browserContextId });
        const { sessionId } = await pipe.send("Target.attachToTarget", { targetId, flatten: true });
        await pipe.send("Performance.enable", {}, sessionId);
        await pipe.send("Page.enable", {}, sessionId);
        const loaded = pipe.waitFor("Page.loadEventFired", sessionId);
        await pipe.send("Page.navigate", { url: origin + path }, sessionId);
        await loaded;
        const { result } = await pipe.send("Runtime.evaluate", { expression: "window.done || 0", returnByValue: true }, sessionId);
        const { metrics } = await pipe.send("Performance.getMetrics", {}, sessionId);
        await pipe.send("Target.disposeBrowserContext", { browserContextId });
        return { ms: metrics.find((m: { name: string }) => m.name === "ScriptDuration").value * 1000, done: result.value };
      };
      const busy = await scriptMs("/busy");
      expect(busy.done).toBe(1);
      expect(busy.ms).toBeGreaterThanOrEqual(55);
      expect((await scriptMs("/empty")).ms).toBeLessThan(5);
      await expect(pipe.send("No.suchMethod")).rejects.toThrow(/No.suchMethod/);
    } finally {
      await pipe.close();
    }
  }, 60_000);
});

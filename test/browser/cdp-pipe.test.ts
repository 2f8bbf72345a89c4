/**
 * scripts/cdp-pipe.js, the bench's Chromium without DevTools' page
 * instrumentation: it drives a real Chromium over --remote-debugging-pipe and
 * measures a page's main-thread script time (CDP Performance metrics).
 */
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchPipe, scriptTime } from "../../scripts/cdp-pipe.js";
import { CHROMIUM, FLAGS } from "./harness/browser.js";

let server: Server;
let origin: string;
const served: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    served.push(req.url ?? "");
    if (req.url === "/busy.js")
      return res.writeHead(200, { "content-type": "text/javascript" }).end("var t=performance.now();while(performance.now()-t<60){}fetch('/ran');");
    if (req.url === "/busy")
      return res.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><title>busy</title><script src="/busy.js"></script>');
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
      expect(await scriptTime(pipe, origin + "/busy", { settleMs: 0 })).toBeGreaterThanOrEqual(55);
      await expect.poll(() => served, { timeout: 5000 }).toContain("/ran"); // the script ran to its end
      expect(await scriptTime(pipe, origin + "/empty", { settleMs: 0 })).toBeLessThan(5);
      await expect(pipe.send("No.suchMethod")).rejects.toThrow(/No.suchMethod/);
    } finally {
      await pipe.close();
    }
  }, 60_000);
});

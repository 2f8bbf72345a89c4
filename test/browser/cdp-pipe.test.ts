/**
 * scripts/cdp-pipe.js, the bench's Chromium without DevTools' page
 * instrumentation: it drives a real Chromium over --remote-debugging-pipe and
 * measures a page's main-thread script time (CDP Performance metrics).
 */
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchPipe, scriptTime, scriptTimeWithMicrotasks, unionLength } from "../../scripts/cdp-pipe.js";
import { CHROMIUM, FLAGS } from "./harness/browser.js";

let server: Server;
let origin: string;
const served: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    served.push(req.url ?? "");
    if (req.url === "/busy.js")
      return res.writeHead(200, { "content-type": "text/javascript" }).end("var t=performance.now();while(performance.now()-t<60){}fetch('/ran');");
    // 60 ms of script in a promise continuation (a microtask after the script's task), the same in a timer, and the same
    // in a fetch's answer (a microtask checkpoint after a network task, where no script of the page's is running).
    if (req.url === "/micro")
      return res
        .writeHead(200, { "content-type": "text/html" })
        .end(
          "<!doctype html><title>micro</title><script>function busy(){var t=performance.now();while(performance.now()-t<60){}}Promise.resolve().then(busy);setTimeout(busy,0);fetch('/ran').then(busy)</script>",
        );
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

  it("counts a promise continuation's script time with microtasks, which ScriptDuration leaves out (60 ms after the script, 60 ms in a timer, 60 ms in a fetch's answer)", async () => {
    const pipe = launchPipe(CHROMIUM, FLAGS);
    try {
      const { scriptMs, withMicrotasksMs } = await scriptTimeWithMicrotasks(pipe, origin + "/micro", { settleMs: 200 });
      expect(scriptMs).toBeGreaterThanOrEqual(55);
      expect(scriptMs).toBeLessThan(110);
      expect(withMicrotasksMs).toBeGreaterThanOrEqual(175);
      expect((await scriptTimeWithMicrotasks(pipe, origin + "/empty", { settleMs: 0 })).withMicrotasksMs).toBeLessThan(5);
    } finally {
      await pipe.close();
    }
  }, 60_000);

  it("unionLength counts overlapping intervals once", () => {
    expect(
      unionLength([
        [0, 10],
        [5, 20],
        [30, 40],
        [31, 32],
      ]),
    ).toBe(30);
    expect(unionLength([])).toBe(0);
  });
});

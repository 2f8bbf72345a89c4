import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptedEncoding, createStaticFiles } from "../../../preview/server/static-files";

describe("the app's files: served compressed with long-cache names", () => {
  const dist = mkdtempSync(join(tmpdir(), "sitetags-static-"));
  mkdirSync(join(dist, "assets"));
  const js = `console.log(${JSON.stringify("x".repeat(5000))});\n`;
  writeFileSync(join(dist, "assets", "index-AbCd1234.js"), js);
  writeFileSync(join(dist, "index.html"), "<!doctype html><title>preview</title>");
  const files = createStaticFiles(dist);

  it("brotli when the browser takes it, else gzip, else none; q=0 refuses", () => {
    expect(acceptedEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(acceptedEncoding("gzip")).toBe("gzip");
    expect(acceptedEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(acceptedEncoding("identity")).toBeUndefined();
  });

  it("hashed assets cached for a year and compressed; index.html never cached; any other path is the app", () => {
    const br = files.app("/assets/index-AbCd1234.js", "gzip, br")!;
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body as Buffer).toString()).toBe(js);
    expect((br.body as Buffer).length).toBeLessThan(js.length / 10);
    const gz = files.app("/assets/index-AbCd1234.js", "gzip")!;
    expect(gunzipSync(gz.body as Buffer).toString()).toBe(js);
    const plain = files.app("/assets/index-AbCd1234.js", "")!;
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const page = files.app("/some/route", "br")!;
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(brotliDecompressSync(page.body as Buffer).toString()).toContain("<title>preview</title>");
    expect(files.app("/../../etc/passwd", "")!.headers["content-type"]).toMatch(/text\/html/);
  });

  it("serves the guide the first screen links to, and nothing else of the repository", () => {
    const doc = files.doc("/docs/preview.md")!;
    expect(doc.status).toBe(200);
    expect(String(doc.body)).toMatch(/^# The QA preview/);
    expect(files.doc("/docs/../package.json")).toBeUndefined();
    expect(files.doc("/docs/missing.md")!.status).toBe(404);
    expect(createStaticFiles(join(dist, "nope")).app("/", "")).toBeUndefined();
  });
});

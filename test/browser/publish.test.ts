/**
 * Issue: "In Chromium, a page that embeds the pinned tag with SRI loads the
 * bundle from the local S3 server through a CDN-like path. A tampered object
 * is refused by the browser." The shipped catalogue's prod/bigfuture bundle
 * is built, published with `publish()` to s3rver on 127.0.0.1, and served
 * by a CDN host (tags.kiwi.example, the catalogue's publishing.baseUrl) that
 * forwards to the bucket's prefix; the page's tag is what `embed --pinned`
 * prints.
 */
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { embedTag } from "../../generator/publish/embed.js";
import { publish } from "../../generator/publish/publish.js";
import { createClient } from "../../generator/publish/target.js";
import { BUCKET, startS3, type LocalS3 } from "../helpers/s3.js";
import { buildBundles, SITES_DIR, useBrowserHarness, type Bundle, type TestPage } from "./harness/index.js";

const h = useBrowserHarness();
const PREFIX = "tags";
let s3: LocalS3;
let b: Record<"prod", Bundle>;
let pinned: string;
let alias: string;

beforeAll(async () => {
  s3 = await startS3();
  b = await buildBundles({ prod: ["bigfuture", "prod"] });
  const published = await publish({ sitesDir: SITES_DIR, outDir: b.prod.outDir, to: `s3://${BUCKET}/${PREFIX}`, endpoint: s3.endpoint });
  expect(published.diagnostics).toEqual([]);
  pinned = (await embedTag({ site: "bigfuture", env: "prod", pinned: true, sitesDir: SITES_DIR, outDir: b.prod.outDir })).tag!;
  alias = (await embedTag({ site: "bigfuture", env: "prod", sitesDir: SITES_DIR, outDir: b.prod.outDir })).tag!;
  h.web.origin("tags.kiwi.example", { port: s3.port, path: `/${BUCKET}/${PREFIX}` });
}, 600_000);
afterAll(async () => {
  await s3?.close();
});

const sitetagsOf = (tab: TestPage) =>
  tab.page.evaluate(() =>
    (window as any).sitetags ? { site: (window as any).sitetags.site as string, env: (window as any).sitetags.env as string } : undefined,
  );

vi.setConfig({ testTimeout: 90_000 });

describe("the pinned embed tag in Chromium, through a CDN in front of the S3 server", () => {
  it('"a page that embeds the pinned tag with SRI loads the bundle from the local S3 server through a CDN-like path"', async () => {
    expect(pinned).toMatch(
      /^<script src="https:\/\/tags\.kiwi\.example\/prod\/bigfuture\/sitetags\.[0-9a-f]{10}\.min\.js" integrity="sha384-[A-Za-z0-9+/=]+" crossorigin="anonymous" async><\/script>$/,
    );
    const url = h.web.page("https://bigfuture.kiwi.example/", { head: pinned });
    const tab = await h.browser.openPage(url);
    await tab.page.waitForFunction(() => Boolean((window as any).sitetags), undefined, { timeout: 30_000 });
    expect(await sitetagsOf(tab)).toEqual({ site: "bigfuture", env: "prod" });
    const fetched = h.web.find({ host: "tags.kiwi.example", path: `/${b.prod.file}` });
    expect(fetched.map((r) => r.status)).toEqual([200]);
    expect(tab.pageErrors).toEqual([]);
  });

  it('"a tampered object is refused by the browser": the bytes under the hashed name changed in the bucket, the page runs nothing', async () => {
    const client = createClient({ endpoint: s3.endpoint });
    try {
      const tampered = `${b.prod.code};window.__tampered=1;`;
      await client.s3.send(
        new PutObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}/${b.prod.file}`, Body: tampered, ContentType: "text/javascript; charset=utf-8" }),
      );
    } finally {
      client.s3.destroy();
    }
    const url = h.web.page("https://bigfuture.kiwi.example/pinned", { head: pinned });
    const tab = await h.browser.openPage(url);
    await expect.poll(() => tab.console.filter((c) => /integrity/i.test(c.text)), { timeout: 30_000 }).toHaveLength(1);
    const refusal = tab.console.find((c) => /integrity/i.test(c.text))!;
    expect(refusal.type).toBe("error");
    expect(refusal.text).toMatch(/Failed to find a valid digest in the 'integrity' attribute/);
    expect(h.web.find({ host: "tags.kiwi.example", path: `/${b.prod.file}` }).map((r) => r.status)).toEqual([200]);
    expect(await tab.page.evaluate(() => ({ tampered: (window as any).__tampered, sitetags: typeof (window as any).sitetags }))).toEqual({
      tampered: undefined,
      sitetags: "undefined",
    });
    // The alias tag (no integrity) is what the pinned form guards against: the same kind of change there would run.
    expect(alias).not.toContain("integrity");
  });
});

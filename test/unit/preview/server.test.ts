/**
 * The preview server without a browser: routing by Host header, the mock
 * page under its CSP, the bundles, the mock edge's modes, third parties,
 * the API and the event stream, against a small dist made here.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inlineConfig } from "../../../generator/bundle/build";
import { startPreview, type PreviewServer } from "../../../preview/server/main";

let dir: string;
let server: PreviewServer;

function bundleCode(env: string): string {
  const config = {
    v: 1,
    site: { code: "satreg", name: "SAT Registration", appId: "33", spa: true, internal: false },
    env,
    hosts: { prod: ["satreg.kiwi.example"], uat: ["satreg-uat.kiwi.example"] },
    apexDomain: "kiwi.example",
    dataLayerName: "kiwiDataLayer",
    consent: { banner: { scriptSrc: "https://cdn.consentbanner.example/scripttemplates/otSDKStub.js" }, groups: { marketing: "C0004" } },
    analytics: { orgId: "5E1A@AdobeOrg", datastreamId: `ds-${env}`, reportSuite: "rs", edgeDomain: "edge.kiwi.example", edgeBasePath: "ee" },
    rules: [],
  };
  return `!function(){boot(${inlineConfig(config)},{})}();\n`;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "sitetags-preview-server-"));
  const bundles = ["prod", "uat"].map((env) => {
    const code = bundleCode(env);
    const hash = createHash("sha256").update(code).digest("hex").slice(0, 10);
    mkdirSync(join(dir, env, "satreg"), { recursive: true });
    writeFileSync(join(dir, env, "satreg", `sitetags.${hash}.min.js`), code);
    writeFileSync(join(dir, env, "satreg", "sitetags.min.js"), code);
    return {
      site: "satreg",
      env,
      file: `${env}/satreg/sitetags.${hash}.min.js`,
      alias: `${env}/satreg/sitetags.min.js`,
      bytes: code.length,
      gzipBytes: 10,
      brotliBytes: 9,
      integrity: `sha384-${createHash("sha384").update(code).digest("base64")}`,
      modules: [],
      inputsHash: env,
    };
  });
  writeFileSync(join(dir, "manifest.json"), JSON.stringify({ bundles }));
  server = await startPreview({ distDir: dir, port: 0, buildApp: false });
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function fetchAs(host: string, path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: server.port,
        path,
        method: init.method ?? "GET",
        headers: { host, ...init.headers },
        rejectUnauthorized: false,
        servername: host,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

describe("the preview server", () => {
  it("serves the mock page on the site's host with the bundle of that environment, under a strict CSP with one nonce", async () => {
    const page = await fetchAs("satreg-uat.kiwi.example", "/register/paymentConfirmation?x=1");
    expect(page.status).toBe(200);
    const csp = String(page.headers["content-security-policy"]);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(csp).toBe(`script-src 'nonce-${nonce}' 'strict-dynamic'; object-src 'none'; base-uri 'none'`);
    const scripts = [...page.body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts).toHaveLength(3);
    for (const s of scripts) expect(s).toContain(`nonce="${nonce}"`);
    expect(scripts[1]).toMatch(
      /src="https:\/\/cdn\.kiwi\.example\/uat\/satreg\/sitetags\.min\.js" nonce="[^"]+" integrity="sha384-[^"]+" crossorigin="anonymous"/,
    );
    // The bridge comes first, before the bundle's tag.
    expect(page.body.indexOf("__sitetagsMonitors")).toBeLessThan(page.body.indexOf("cdn.kiwi.example"));
    expect(page.body).not.toMatch(/\beval\(|new Function/);
    const prod = await fetchAs("satreg.kiwi.example", "/");
    expect(prod.body).toContain("https://cdn.kiwi.example/prod/satreg/sitetags.min.js");
    const unknown = await fetchAs("nosuchsite.kiwi.example", "/");
    expect(unknown.body).toContain("no bundle in the manifest runs on nosuchsite.kiwi.example");
  });

  it("the app chooses the bundle and the policy of a host (stage)", async () => {
    const staged = await fetchAs("preview.kiwi.example", "/api/stage", {
      method: "POST",
      body: JSON.stringify({ host: "satreg.kiwi.example", key: "dist:uat/satreg", csp: "off" }),
    });
    expect(staged.status).toBe(200);
    const page = await fetchAs("satreg.kiwi.example", "/");
    expect(page.headers["content-security-policy"]).toBeUndefined();
    expect(page.body).toContain("https://cdn.kiwi.example/uat/satreg/sitetags.min.js");
    await fetchAs("preview.kiwi.example", "/api/stage", {
      method: "POST",
      body: JSON.stringify({ host: "satreg.kiwi.example", key: "dist:prod/satreg", csp: "strict" }),
    });
  });

  it("serves the manifest's bundles only", async () => {
    const alias = await fetchAs("cdn.kiwi.example", "/uat/satreg/sitetags.min.js");
    expect(alias.status).toBe(200);
    expect(alias.headers["access-control-allow-origin"]).toBe("*");
    expect(alias.body).toBe(bundleCode("uat"));
    expect((await fetchAs("cdn.kiwi.example", "/manifest.json")).status).toBe(404);
    expect((await fetchAs("cdn.kiwi.example", "/uat/satreg/../../manifest.json")).status).toBe(404);
  });

  it("answers like the edge, and misbehaves on request: retry (503 once per event), error", async () => {
    const ok = await fetchAs("edge.kiwi.example", "/ee/v1/interact?configId=ds-prod&requestId=r1", {
      method: "POST",
      body: '{"events":[]}',
      headers: { origin: "https://satreg.kiwi.example" },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers["access-control-allow-origin"]).toBe("https://satreg.kiwi.example");
    expect(ok.headers["access-control-allow-credentials"]).toBe("true");
    const answer = JSON.parse(ok.body) as { requestId: string; handle: Array<{ type: string; payload: Array<Record<string, unknown>> }> };
    expect(answer.requestId).toBe("r1");
    expect(answer.handle.map((h) => h.type)).toEqual(["identity:result", "state:store"]);
    expect(answer.handle[1].payload.map((p) => p.key)).toEqual(["kndctr_5E1A_AdobeOrg_identity", "kndctr_5E1A_AdobeOrg_cluster"]);

    expect((await fetchAs("preview.kiwi.example", "/api/edge-mode", { method: "POST", body: '{"mode":"retry"}' })).status).toBe(200);
    const first = await fetchAs("edge.kiwi.example", "/ee/v1/interact?configId=ds-prod&requestId=r2", { method: "POST", body: "{}" });
    const second = await fetchAs("edge.kiwi.example", "/ee/v1/interact?configId=ds-prod&requestId=r2", { method: "POST", body: "{}" });
    expect([first.status, first.headers["retry-after"], second.status]).toEqual([503, "1", 200]);
    await fetchAs("preview.kiwi.example", "/api/edge-mode", { method: "POST", body: '{"mode":"error"}' });
    expect((await fetchAs("edge.kiwi.example", "/ee/v1/interact?requestId=r3", { method: "POST", body: "{}" })).status).toBe(500);
    expect((await fetchAs("preview.kiwi.example", "/api/edge-mode", { method: "POST", body: '{"mode":"nope"}' })).status).toBe(400);
    await fetchAs("preview.kiwi.example", "/api/edge-mode", { method: "POST", body: '{"mode":"ok"}' });

    const recorded = server.records.filter((r) => r.kind === "edge" && r.query.requestId === "r2");
    expect(recorded.map((r) => [r.status, r.edgeMode, r.body])).toEqual([
      [503, "retry", "{}"],
      [200, "retry", "{}"],
    ]);
  });

  it("stands in for third parties: scripts that record themselves, the banner, pixels, pages, the referrer hop", async () => {
    const script = await fetchAs("chat.widgetvendor.example", "/loader.js", { headers: { "sec-fetch-dest": "script" } });
    expect(script.body).toBe('(window.__thirdParty = window.__thirdParty || []).push("https://chat.widgetvendor.example/loader.js");\n');
    const banner = await fetchAs("cdn.consentbanner.example", "/scripttemplates/otSDKStub.js", { headers: { "sec-fetch-dest": "script" } });
    expect(banner.body).toContain("window.OptanonWrapper()");
    const pixel = await fetchAs("pixel.adpartner.example", "/conv?order=1", { headers: { "sec-fetch-dest": "image" } });
    expect(pixel.headers["content-type"]).toBe("image/gif");
    const hop = await fetchAs("www.practicepartner.example", `/x?__sitetags_preview_hop=${encodeURIComponent("https://satreg.kiwi.example/")}`, {
      headers: { "sec-fetch-dest": "iframe" },
    });
    expect(hop.body).toContain('location.replace("https://satreg.kiwi.example/")');
    // The site's own scripts: the first-party id script writes its cookie; others record themselves.
    const fpid = await fetchAs("satreg.kiwi.example", "/fpid.js?stage=prod", { headers: { "sec-fetch-dest": "script" } });
    expect(fpid.headers["content-type"]).toContain("javascript");
    expect(fpid.body).toContain('var name = "kiwi_fpid"');
    expect(fpid.body).toContain("domain=kiwi.example");
    expect(server.records.find((r) => r.path === "/fpid.js")?.kind).toBe("asset");
    const download = await fetchAs("satreg.kiwi.example", "/files/guide.pdf");
    expect(download.headers["content-disposition"]).toBe('attachment; filename="guide.pdf"');
  });

  it("lists the bundles with their hosts, gives a bundle's config, streams what it records", async () => {
    const catalogue = JSON.parse((await fetchAs("preview.kiwi.example", "/api/catalogue")).body) as {
      bundles: Array<{ key: string; host: string }>;
      problems: string[];
    };
    expect(catalogue.bundles.map((b) => [b.key, b.host])).toEqual([
      ["dist:prod/satreg", "satreg.kiwi.example"],
      ["dist:uat/satreg", "satreg-uat.kiwi.example"],
    ]);
    expect(catalogue.problems).toEqual([]);
    const bundle = JSON.parse((await fetchAs("preview.kiwi.example", "/api/bundle?key=dist%3Auat%2Fsatreg")).body) as { config: { env: string } };
    expect(bundle.config.env).toBe("uat");
    expect((await fetchAs("preview.kiwi.example", "/api/nothing")).status).toBe(404);

    const frames: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const req = request(
        { host: "127.0.0.1", port: server.port, path: "/api/events", headers: { host: "preview.kiwi.example" }, rejectUnauthorized: false },
        (res) => {
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            frames.push(chunk);
            if (frames.length === 1) void fetchAs("satreg.kiwi.example", "/streamed");
            if (frames.join("").includes('"/streamed"')) {
              req.destroy();
              resolve();
            }
          });
        },
      );
      req.on("error", (e) => (frames.join("").includes('"/streamed"') ? resolve() : reject(e)));
      req.end();
    });
    expect(frames.join("")).toMatch(/event: request\ndata: \{[^\n]*"path":"\/streamed"/);
    expect(server.chromiumCommand()).toContain(`--host-resolver-rules="MAP *.example 127.0.0.1:${server.port}`);
  });
});

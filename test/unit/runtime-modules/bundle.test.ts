/**
 * The runtime as it ships: bundled like a generator entry (IIFE, ES2018,
 * minified; esbuild here, the generator's own pipeline is rollup/terser),
 * then run in a fresh V8 context on the fake page. Checks tree-shaking
 * (markers, unused messages), CSP-safety of the output and the boot path.
 */
import { runInNewContext } from "node:vm";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import type { BundleConfig } from "../../../generator/config/bundle-config.js";
import { featureImports, featureSetOf } from "../../../generator/bundle/features.js";
import { folderOf, registry } from "../../../runtime-modules/registry";
import { bundleConfig, chatConfig, surveyConfig } from "./helpers/config";
import { fakePage, flush, type FakePageOptions } from "./helpers/fake-page";

const root = fileURLToPath(new URL("../../../runtime-modules/", import.meta.url));
type Name = keyof typeof registry;

async function bundle(names: Name[], config: BundleConfig): Promise<string> {
  // As the generated entries do: each factory from its own file, never the manifest.
  const imports = names
    .map((n) => `import { ${registry[n].factory.export} } from ${JSON.stringify(`${root}modules/${folderOf(n)}/${registry[n].factory.file}`)};`)
    .join("\n");
  // And as the generated core entries do: only the rule features the config's rules use (generator/bundle/features.ts).
  const features = featureImports(featureSetOf(config), root.replace(/\/$/, ""), "");
  const contents = `${imports}
${features.imports.join("\n")}
import { boot } from ${JSON.stringify(root + "boot/boot")};
declare const __SITETAGS_CONFIG__: any;
boot(__SITETAGS_CONFIG__, { ${names.map((n) => `${n}: ${registry[n].factory.export}`).join(", ")} }, { rules: ${features.table} });`;
  const result = await build({
    stdin: { contents, loader: "ts", resolveDir: root, sourcefile: "entry.ts" },
    bundle: true,
    format: "iife",
    target: "es2018",
    minify: true,
    write: false,
    logLevel: "silent",
    define: { __SITETAGS_CONFIG__: JSON.stringify(config) },
  });
  return result.outputFiles[0].text;
}

function run(code: string, options: FakePageOptions) {
  const page = fakePage(options);
  const win = page.window;
  Object.assign(win, { window: win, console, URLSearchParams, performance });
  runInNewContext(code, win);
  return page;
}

const config = bundleConfig({ modules: { chat: chatConfig(), survey: surveyConfig() } });

describe("bundled runtime", () => {
  it("a module's marker is in the bundle if and only if the module is", async () => {
    const sets: Name[][] = [[], ["chat"], ["survey"], ["chat", "survey"]];
    for (const names of sets) {
      const code = await bundle(names, config);
      for (const name of Object.keys(registry) as Name[])
        for (const marker of registry[name].markers) expect(code.includes(marker), `${marker} in [${names}]`).toBe(names.includes(name));
    }
  });
  it('"Code for an event type, condition, action … that no rule of the bundle uses is not in the bundle": a site whose rules use no click event carries no click-listener code', async () => {
    const rule = (events: unknown[], actions: unknown[] = [{ type: "pushDataLayer", data: { x: 1 }, waitBeforeNext: false }], conditions: unknown[] = []) =>
      ({ id: "r", name: "r", order: 50, events, conditions, actions }) as unknown as BundleConfig["rules"][number];
    const plain = await bundle([], bundleConfig({ rules: [rule([{ type: "dataLayerPush", event: "x" }])] }));
    const sources = ["click", "routeChange", "elementExists", "timer", "domReady", "windowLoaded", "noPush"];
    // Each event source fires its own type; nothing else in the runtime does.
    for (const type of sources) expect(plain, type).not.toContain(`fire("${type}"`);
    const clicks = await bundle([], bundleConfig({ rules: [rule([{ type: "click", selector: "a.cta" }])] }));
    expect(clicks).toContain('fire("click"');
    for (const type of sources.filter((t) => t !== "click")) expect(clicks, type).not.toContain(`fire("${type}"`);
    // An action or condition no rule uses: pixel's "pixel failed" and the command's "no command" only where a rule uses them.
    expect(plain).not.toContain("pixel failed");
    expect(plain).not.toContain("no command ");
    const pixel = await bundle(
      [],
      bundleConfig({
        rules: [rule([{ type: "dataLayerPush", event: "x" }], [{ type: "pixel", src: "https://p.example/", kind: "image", consent: "marketing" }])],
      }),
    );
    expect(pixel).toContain("pixel failed");
    expect(pixel).not.toContain("no command ");
  });
  it('"thirdPartyCookies: false" (spec section 9, every shipped site): the third-party host, its browser check and its fallback are not in the bundle; a config turning it on carries them', async () => {
    const off = await bundle([], config);
    expect(config.analytics.thirdPartyCookies).toBeFalsy();
    for (const marker of ["adobedc.demdex.net", "Firefox|FxiOS"]) expect(off, marker).not.toContain(marker);
    const on = await bundle([], bundleConfig({ analytics: { ...config.analytics, thirdPartyCookies: true } }));
    for (const marker of ["adobedc.demdex.net", "Firefox|FxiOS"]) expect(on, marker).toContain(marker);
  });
  it("no datastreamOverride and no configOverrides (no shipped config has them): neither path is in the bundle; a config with them carries both", async () => {
    expect(config.analytics.datastreamOverride).toBeUndefined();
    expect(config.analytics.configOverrides).toBeUndefined();
    const off = await bundle([], config);
    const markers = ["sdkConfig", ".datastreamOverride||", ".configOverrides)"];
    for (const marker of markers) expect(off.includes(marker), marker).toBe(false);
    const analytics = { ...config.analytics, datastreamOverride: "ds-qa", configOverrides: { com_adobe_identity: { idSyncContainerId: 7 } } };
    const on = await bundle([], bundleConfig({ analytics }));
    for (const marker of markers) expect(on.includes(marker), marker).toBe(true);
  });
  it('sampling (docs/identity.md): "a bundle with no sampled tag carries none of it"; one with a sampled tag (the rum family by default) carries the service', async () => {
    const SERVICE = "sampling decided";
    expect(await bundle([], config)).not.toContain(SERVICE);
    const tag = { code: "rr", category: "performance", lifecycle: "pageTop", kind: "script", src: "https://r.example/r.js" } as const;
    const unsampled = await bundle(["tags"], bundleConfig({ modules: { tags: { enabled: true, tags: [tag] } } }));
    expect(unsampled).not.toContain(SERVICE);
    const sampled = await bundle(
      ["tags", "rum"],
      bundleConfig({ modules: { tags: { enabled: true, tags: [{ ...tag, family: "rum", rum: {}, sampled: true }] }, rum: { enabled: true } } }),
    );
    expect(sampled).toContain(SERVICE);
  });
  it('"A site without a credential service carries no credential fetch" (issue #21): no serviceUrl, none of the request or its fetch; an environment with a service carries both', async () => {
    // The request's query names and the fetch's options: code only the credential feature has (the path is config).
    const markers = ["cbAWSDomains", "cacheNonce", "no-store", "credential fetch failed"];
    expect(config.identity.credentials.serviceUrl).toBeUndefined();
    const off = await bundle([], config);
    for (const marker of markers) expect(off.includes(marker), marker).toBe(false);
    const on = await bundle(
      [],
      bundleConfig({ identity: { ...config.identity, credentials: { ...config.identity.credentials, serviceUrl: "https://creds.kiwi.example/" } } }),
    );
    for (const marker of markers) expect(on.includes(marker), marker).toBe(true);
  });
  it("unused catalogue messages are tree-shaken away", async () => {
    const code = await bundle(["chat", "survey"], config);
    expect(code).toContain("not authorized for this domain");
    expect(code).toContain("script embedding failed");
    for (const unused of ["Latest score not available", "Unrecognized Score View found (not tracked)", "vouchers order ID missing", "YouTube IFrame API"])
      expect(code).not.toContain(unused);
  });
  it('"No eval, new Function, string timers or document.write"', async () => {
    const code = await bundle(["chat", "survey"], config);
    expect(code).not.toMatch(/\beval\(|new Function|Function\(|document\.write|set(Timeout|Interval)\(\s*["'`]/);
  });
  it("stays small: chat and survey together add under 1.5 KB gzip to a bundle", async () => {
    const code = await bundle(["chat", "survey"], config);
    const bare = await bundle([], config);
    expect(gzipSync(code).length - gzipSync(bare).length).toBeLessThan(1536);
  });
  it("boots on its site's host, exposes window.sitetags and loads the chat with the page's nonce", async () => {
    const code = await bundle(["chat", "survey"], config);
    const page = run(code, { url: "https://scores.kiwi.example/scores", activeGroups: ",C0001,C0003,", currentScript: { nonce: "r4nd" } });
    const api = page.window.sitetags;
    expect(JSON.parse(JSON.stringify({ site: api.site, env: api.env, modules: api.modules }))).toEqual({
      site: "scores",
      env: "prod",
      modules: ["chat", "survey"],
    });
    expect(page.scripts().map((s) => s.id)).toEqual(["sitetags-chat-widget"]);
    expect(page.scripts()[0].getAttribute("nonce")).toBe("r4nd");
    page.scripts()[0].onload!();
    await flush();
    expect(api.commands.chat.isLoaded()).toBe(true);
    expect(page.monitorEvents.map((e) => e.type)).toContain("boot");
  });
  it('elsewhere it logs "not authorized for this domain" (dynamic_host_not_allowed) and does nothing else', async () => {
    const code = await bundle(["chat"], config);
    const page = run(code, { url: "https://scores.kiwi.example.evil.example/scores", activeGroups: ",C0001,C0003," });
    expect(page.window.sitetags).toBeUndefined();
    expect(page.scripts()).toHaveLength(0);
    expect(page.monitorEvents.map((e) => [e.message, e.code])).toEqual([["not authorized for this domain", "dynamic_host_not_allowed"]]);
  });
  it("a second copy on the same page does nothing", async () => {
    const code = await bundle(["chat"], config);
    const page = run(code, { url: "https://scores.kiwi.example/scores", activeGroups: ",C0001,C0003," });
    runInNewContext(code, page.window);
    expect(page.scripts()).toHaveLength(1);
    expect(page.monitorEvents.filter((e) => e.type === "boot")).toHaveLength(1);
  });
});

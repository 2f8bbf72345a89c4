/**
 * The tags: section (issue 20): layers merge key by key (an organisation's
 * tag switched on by a site, a URL per environment with a default), each
 * enabled tag resolves to plain data for module `tags` with only what is
 * set, its family's module is switched on, and the checks a schema cannot
 * make. One bad-config fixture per diagnostic locates them at file:line:col
 * (test/fixtures/bad-configs/99-…).
 */
import { describe, expect, it } from "vitest";
import { SettingsSchema } from "../../../generator/config/schema.js";
import { ORG_VARIABLES } from "../runtime-modules/helpers/variables";
import { checkTags, earliestTagLifecycle, neverGrantedWhy, resolveTags } from "../../../generator/config/tags-check.js";
import { loadCatalogue } from "../../../generator/config/load.js";
import { MODULE_NAMES } from "../../../generator/bundle/plan.js";
import { REPO } from "../../helpers/fs.js";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "../../../generator/bundle/build.js";
import { registry } from "../../../runtime-modules/registry";

const TAG_MODULES = ["tags", "rum", "beacon", "adTracker", "chatFlow", "pushNotifications", "guidedHelp"] as const;

const settings = (tags: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  SettingsSchema.parse({
    analytics: { orgId: "A@AdobeOrg", datastreamId: "d", reportSuite: "r" },
    budget: { gzipBytes: 20000 },
    analyticsVariables: ORG_VARIABLES,
    tags,
    ...extra,
  });

describe("section 9: the lifecycle point a category prescribes", () => {
  it('"Performance tags ... at extensions or page top; functional and program tags ... and marketing tags ... at DOM ready"', () => {
    expect(earliestTagLifecycle("performance")).toBe("pageTop");
    for (const c of ["functional", "marketing", "programFunctional", "programMarketing"] as const) expect(earliestTagLifecycle(c)).toBe("domReady");
  });
});

describe("resolveTags", () => {
  it("this environment's URL (else the default), the category's lifecycle, consent default marketing; no empty keys; disabled tags dropped", () => {
    const s = settings({
      bb: { script: { default: "https://b.example/d.js", qa: "https://b.example/qa.js" }, category: "performance" },
      aa: { pixel: { default: "https://a.example/p.gif" } },
      off: { enabled: false, pixel: { default: "https://off.example/p.gif" } },
    });
    expect(resolveTags(s, "qa")).toEqual({
      tags: [
        { code: "aa", category: "marketing", lifecycle: "domReady", kind: "pixel", src: "https://a.example/p.gif" },
        { code: "bb", category: "performance", lifecycle: "pageTop", kind: "script", src: "https://b.example/qa.js" },
      ],
      families: [],
    });
    expect(resolveTags(s, "prod").tags[1].src).toBe("https://b.example/d.js");
  });
  it("a family's settings switch its module on; settings go with their global only", () => {
    const s = settings({
      rr: { category: "performance", script: { default: "https://r.example/r.js" }, rum: {} },
      mm: { script: { default: "https://m.example/m.js" }, settingsGlobal: "cfg", settings: { a: 1 }, hostSettings: { "h.example": { a: 2 } } },
      nn: { script: { default: "https://n.example/n.js" }, settings: { a: 1 } },
    });
    const { tags, families } = resolveTags(s, "qa");
    expect(families).toEqual(["rum"]);
    expect(tags.find((t) => t.code === "rr")).toMatchObject({ family: "rum", rum: {}, sampled: true });
    expect(tags.find((t) => t.code === "mm")).toMatchObject({ settingsGlobal: "cfg", settings: { a: 1 }, hostSettings: { "h.example": { a: 2 } } });
    expect(tags.find((t) => t.code === "nn")).not.toHaveProperty("settings");
  });
});

describe("consent setup that never grants a category", () => {
  it("no banner script or domain script, or an empty group id; never on an internal site", () => {
    const s = settings({}, { consent: { banner: { scriptSrc: "https://b.example/b.js", domainScript: "x" }, groups: { marketing: "" } } });
    expect(neverGrantedWhy(s, false, "marketing")).toMatch(/consent.groups.marketing is empty/);
    expect(neverGrantedWhy(s, false, "performance")).toBeUndefined();
    expect(neverGrantedWhy(s, true, "marketing")).toBeUndefined();
    expect(neverGrantedWhy(settings({}), false, "performance")).toMatch(/no consent banner/);
  });
  it("checkTags skips disabled tags", () => {
    const s = settings({ off: { enabled: false, lifecycle: "pageTop", pixel: { default: "https://off.example/p.gif" } } });
    expect(checkTags({ settings: s, env: "qa", internal: false, pick: () => undefined as never, where: "x/qa" })).toEqual([]);
  });
});

describe("the shipped catalogue", () => {
  it("declares every family, all off in sites/_org.yaml; QA bundles switch them on (newsroom, landing, k12admin; apclassroom guided help), production none", async () => {
    const catalogue = await loadCatalogue({ sitesDir: join(REPO, "sites"), moduleNames: MODULE_NAMES });
    expect(catalogue.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const withTags = catalogue.bundles.filter((b) => b.modules.includes("tags")).map((b) => `${b.site}/${b.env}`);
    expect(withTags.sort()).toEqual(["apclassroom/qa", "k12admin/qa", "landing/qa", "newsroom/qa"]);
    const families = new Set(
      catalogue.bundles.flatMap((b) => b.modules.filter((m) => ["rum", "beacon", "adTracker", "chatFlow", "pushNotifications", "guidedHelp"].includes(m))),
    );
    expect([...families].sort()).toEqual(["adTracker", "beacon", "chatFlow", "guidedHelp", "pushNotifications", "rum"]);
    for (const b of catalogue.bundles) if (!b.modules.includes("tags")) expect(JSON.stringify(b.config)).not.toContain('"tags"');
  });
});

describe("tree-shaking: a bundle that declares no tag of a family carries none of its code", () => {
  it("the shipped QA bundles hold exactly the markers of the tag modules their tags need; production bundles none", async () => {
    const outDir = mkdtempSync(join(tmpdir(), "sitetags-tags-markers-"));
    try {
      const result = await build({
        sitesDir: join(REPO, "sites"),
        outDir,
        cacheDir: join(REPO, ".sitetags-cache"),
        sites: ["newsroom", "landing", "apclassroom"],
        envs: ["qa", "prod"],
      });
      expect(result.ok).toBe(true);
      const code = (site: string, env: string) => readFileSync(join(outDir, result.bundles.find((b) => b.site === site && b.env === env)!.alias), "utf8");
      const markers = (text: string) => TAG_MODULES.filter((m) => registry[m].markers.every((marker) => text.includes(marker)));
      const none = (text: string) => TAG_MODULES.every((m) => registry[m].markers.every((marker) => !text.includes(marker)));
      expect(markers(code("newsroom", "qa")).sort()).toEqual(["beacon", "chatFlow", "rum", "tags"]);
      expect(markers(code("landing", "qa")).sort()).toEqual(["adTracker", "pushNotifications", "tags"]);
      expect(markers(code("apclassroom", "qa")).sort()).toEqual(["guidedHelp", "tags"]);
      for (const site of ["newsroom", "landing", "apclassroom"]) {
        expect(none(code(site, "prod")), `${site}/prod`).toBe(true);
        expect(code(site, "prod")).not.toContain("sitetags-tag-");
      }
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }, 240_000);
});

/**
 * The site catalogue (sites/CODE.yaml): every file is well-formed, the codes
 * the product spec names are present, and hosts never collide.
 */
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it, expect } from "vitest";
import { parse } from "yaml";
import { SiteFileSchema, type EnvName, type SiteFile } from "../../generator/config/schema.js";

const SITES_DIR = join(dirname(fileURLToPath(import.meta.url)), "../../sites");
const SCHEMA_LINE = "# yaml-language-server: $schema=./site.schema.json";

const MANDATORY = [
  "accu",
  "apcentral",
  "apclassroom",
  "bigfuture",
  "blog",
  "cbsearch",
  "clep",
  "clepportal",
  "go",
  "iam",
  "kiwihub",
  "mysat",
  "satreg",
  "satregconc",
  "satsuite",
  "scores",
  "signup",
  "store",
  "testday",
  "www",
  "apstudents",
  "k12reports",
  "appotential",
  "scoresends",
  "cssprofile",
  "proflearning",
  "counselors",
  "privacy",
];
const CHAT_SITES = ["apstudents", "clep", "satsuite"];

interface Entry {
  file: string;
  text: string;
  raw: Record<string, any>;
}

const entries: Entry[] = readdirSync(SITES_DIR)
  .filter((f) => f.endsWith(".yaml") && f !== "_org.yaml")
  .sort()
  .map((file) => {
    const text = readFileSync(join(SITES_DIR, file), "utf8");
    return { file, text, raw: parse(text) as Record<string, any> };
  });

/**
 * SiteFile's inferred type does not carry the settings-layer keys (the layer
 * schema is built dynamically), so spell out the parts these tests read.
 */
interface SiteLayer {
  modules?: { chat?: { enabled?: boolean; scriptSrc?: string; pages?: string[] } };
  pageNames?: { dropParams?: string[] };
}
type Site = Omit<SiteFile, "envs"> & SiteLayer & { envs?: Partial<Record<EnvName, SiteLayer>> };

function site(e: Entry): Site {
  return SiteFileSchema.parse(e.raw) as Site;
}

describe("site catalogue", () => {
  it("has at least 55 site files", () => {
    expect(entries.length).toBeGreaterThanOrEqual(55);
  });

  it("contains every site code the spec names", () => {
    const codes = new Set(entries.map((e) => e.file.replace(/\.yaml$/, "")));
    const missing = MANDATORY.filter((c) => !codes.has(c));
    expect(missing).toEqual([]);
  });

  it.each(entries.map((e) => [e.file, e] as const))("%s starts with the schema line", (_f, e) => {
    expect(e.text.split("\n")[0]).toBe(SCHEMA_LINE);
  });

  it.each(entries.map((e) => [e.file, e] as const))("%s parses with SiteFileSchema", (_f, e) => {
    const r = SiteFileSchema.safeParse(e.raw);
    expect(r.success ? [] : r.error.issues).toEqual([]);
  });

  it.each(entries.map((e) => [e.file, e] as const))("%s is named after its code", (_f, e) => {
    expect(e.file).toBe(`${e.raw.code}.yaml`);
  });

  it("claims every host at most once across all files", () => {
    const owner = new Map<string, string>();
    const dupes: string[] = [];
    for (const e of entries) {
      for (const list of Object.values(site(e).hosts)) {
        for (const h of list ?? []) {
          if (owner.has(h)) dupes.push(`${h}: ${owner.get(h)} and ${e.file}`);
          else owner.set(h, e.file);
        }
      }
    }
    expect(dupes).toEqual([]);
  });

  it("gives every listed environment at least one host", () => {
    const empty = entries.flatMap((e) =>
      Object.entries(site(e).hosts)
        .filter(([, list]) => !list || list.length === 0)
        .map(([env]) => `${e.file}:${env}`),
    );
    expect(empty).toEqual([]);
  });

  it("only overrides environments the site has", () => {
    const stray = entries.flatMap((e) => {
      const s = site(e);
      return Object.keys(s.envs ?? {})
        .filter((env) => !(env in s.hosts))
        .map((env) => `${e.file}:${env}`);
    });
    expect(stray).toEqual([]);
  });

  it("uses CODE.kiwi.example (www.kiwi.example for www) as the prod host", () => {
    const wrong = entries.flatMap((e) => {
      const s = site(e);
      const expected = s.code === "www" ? "www.kiwi.example" : `${s.code}.kiwi.example`;
      return JSON.stringify(s.hosts.prod) === JSON.stringify([expected]) ? [] : [`${e.file}: ${JSON.stringify(s.hosts.prod)}`];
    });
    expect(wrong).toEqual([]);
  });

  it("uses CODE-ENV.kiwi.example for the other environments", () => {
    const wrong = entries.flatMap((e) => {
      const s = site(e);
      return Object.entries(s.hosts)
        .filter(([env]) => env !== "prod")
        .flatMap(([env, list]) => (list ?? []).filter((h) => h !== `${s.code}-${env}.kiwi.example`).map((h) => `${e.file}:${env}:${h}`));
    });
    expect(wrong).toEqual([]);
  });

  it("enables chat exactly on apstudents, clep and satsuite", () => {
    const withChat = entries
      .filter((e) => {
        const chat = site(e).modules?.chat;
        return chat !== undefined && chat.enabled !== false;
      })
      .map((e) => e.raw.code)
      .sort();
    expect(withChat).toEqual(CHAT_SITES);
  });

  it("gives every chat site pages and a script per environment after merging envs overrides", () => {
    for (const code of CHAT_SITES) {
      const e = entries.find((x) => x.raw.code === code)!;
      const s = site(e);
      for (const env of Object.keys(s.hosts) as EnvName[]) {
        const merged = { ...s.modules!.chat, ...(s.envs?.[env]?.modules?.chat ?? {}) };
        expect(merged.pages?.length, `${code}:${env} pages`).toBeGreaterThan(0);
        expect(merged.scriptSrc, `${code}:${env} scriptSrc`).toMatch(/^https:\/\//);
        if (env !== "prod") expect(merged.scriptSrc, `${code}:${env} scriptSrc`).toContain(`/${env}/`);
      }
    }
  });

  it("uses the application ids the spec gives", () => {
    const byCode = new Map(entries.map((e) => [e.raw.code as string, site(e)]));
    expect(byCode.get("iam")?.appId).toBe("8");
    expect(byCode.get("store")?.appId).toBe("16");
    expect(byCode.get("appotential")?.appId).toBe("110");
  });

  it("drops state on sign-in sites and category on the career-planning site", () => {
    const byCode = new Map(entries.map((e) => [e.raw.code as string, site(e)]));
    expect(byCode.get("iam")?.pageNames?.dropParams).toContain("state");
    expect(byCode.get("signup")?.pageNames?.dropParams).toContain("state");
    expect(byCode.get("bigfuture")?.pageNames?.dropParams).toContain("category");
  });
});

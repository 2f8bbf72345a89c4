/**
 * docs/events.md and sitetags-events.d.ts come from the table: the page must
 * equal the script's output, the table must be well-formed and cover the
 * spec, the d.ts must declare the same types as types.ts, and the validator
 * must stay small and never carry the docs' prose.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { EVENT_DOCS } from "../../../../runtime-modules/data-layer-events/event-docs";
import { EVENT_SHAPES, type FieldType, type Fields } from "../../../../runtime-modules/data-layer-events/shapes";

const repo = fileURLToPath(new URL("../../../../", import.meta.url));
const script = join(repo, "scripts/events-doc.js");
const dir = join(repo, "runtime-modules/data-layer-events");
const run = (...args: string[]) => execFileSync(process.execPath, [script, ...args], { cwd: repo, encoding: "utf8" });

const shapes: Record<string, Fields> = EVENT_SHAPES;
const docs: Record<string, { when: string; example: object; notes?: Record<string, string> }> = EVENT_DOCS;
const events = Object.keys(shapes);

describe("docs/events.md", () => {
  it("equals the output of scripts/events-doc.js (regenerate: node scripts/events-doc.js > docs/events.md)", () => {
    expect(readFileSync(join(repo, "docs/events.md"), "utf8")).toBe(run());
  });

  it("has one section per event, with its example and every field", () => {
    const page = readFileSync(join(repo, "docs/events.md"), "utf8");
    for (const event of events) {
      const section = page.split(`\n## ${event}\n`)[1]?.split("\n## ")[0];
      expect(section, event).toBeDefined();
      expect(section).toContain(`"event": "${event}"`);
      for (const key of Object.keys(shapes[event])) expect(section).toContain(`| \`${key.replace(/\?$/, "")}\` |`);
    }
  });

  it("names the data layer as sites/_org.yaml does", () => {
    const org = readFileSync(join(repo, "sites/_org.yaml"), "utf8");
    const name = /^dataLayerName: (\w+)/m.exec(org)![1];
    expect(run()).toContain(`window.${name}.push(`);
  });

  it("wrong usage exits 2", () => {
    expect(spawnSync(process.execPath, [script, "--nope"]).status).toBe(2);
    expect(spawnSync(process.execPath, [script, "--dts", "not-a-name"]).status).toBe(2);
  });
});

/** Every field path of an object descriptor ("searchData.term", "tests.name"). */
function paths(fields: Fields, prefix = ""): string[] {
  return Object.entries(fields).flatMap(([key, type]) => {
    const path = prefix + key.replace(/\?$/, "");
    return typeof type === "string" ? [path] : [path, ...paths(Array.isArray(type) ? type[0] : (type as Fields), path + ".")];
  });
}

/** Grammar problems of an object descriptor. */
function grammar(fields: Fields, at: string): string[] {
  return Object.entries(fields).flatMap(([key, type]: [string, FieldType]) => {
    const where = `${at}.${key}`;
    if (!/^[A-Za-z_][\w]*\??$/.test(key)) return [`${where}: field name`];
    if (typeof type !== "string") {
      if (Array.isArray(type) && type.length !== 1) return [`${where}: a list of objects is [{ ... }]`];
      return grammar(Array.isArray(type) ? type[0] : (type as Fields), where);
    }
    if (key.endsWith("?")) return [`${where}: a key ends in "?" only for objects; write the "?" in the type`];
    const m = /^([^?[\]]+?)(\[\])?\??$/.exec(type);
    if (!m) return [`${where}: "${type}" is not members[]?`];
    const members = m[1].split("|");
    if (members.some((x) => !x || x !== x.trim())) return [`${where}: empty or padded member in "${type}"`];
    if (new Set(members).size !== members.length) return [`${where}: repeated member in "${type}"`];
    if (members.some((x) => /^-?\d/.test(x) && !/^-?\d+(\.\d+)?$/.test(x))) return [`${where}: number literal "${type}"`];
    return [];
  });
}

describe("the table", () => {
  it("event names are kebab-case", () => {
    for (const event of events) expect(event).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it("every type is well-formed", () => {
    expect(events.flatMap((e) => grammar(shapes[e], e))).toEqual([]);
  });

  it("every event has its docs, and the docs describe no other event", () => {
    expect(Object.keys(docs).sort()).toEqual([...events].sort());
    for (const event of events) expect(docs[event].when.length, event).toBeGreaterThan(10);
  });

  it("every note is on a field the event has", () => {
    const stray = events.flatMap((e) =>
      Object.keys(docs[e].notes || {})
        .filter((p) => !paths(shapes[e]).includes(p))
        .map((p) => `${e}: ${p}`),
    );
    expect(stray).toEqual([]);
  });

  it("covers every event and entity the product spec lists (sections 1 and 3)", () => {
    // The project's copy of the spec's lists (test/fixtures/spec/entities.txt), so a clone needs nothing beside it.
    const spec = readFileSync(join(repo, "test/fixtures/spec/entities.txt"), "utf8");
    // spec phrase -> the events documenting it
    const coverage: [string, string[]][] = [
      ["Tracked events: page views", ["page-view"]],
      ["link clicks (search result, promo, navigation, external, download, feature)", ["link-click", "search-result-click", "promo-click"]],
      ["modal open and close", ["modal"]],
      ["form submits", ["form-submit"]],
      ["internal search", ["search", "quick-search"]],
      ["list adds and removes", ["list-change"]],
      ["career quiz", ["career-quiz"]],
      ["registration steps", ["registration-step", "funnel-widget"]],
      ["test orders", ["test-order", "test-admin-summary"]],
      ["score views", ["score-view", "ap-score-view"]],
      ["award downloads", ["award-download"]],
      ["video playback", ["video"]],
      ["page-performance metrics (LCP, CLS, FCP, INP, TTFB)", ["web-vitals"]],
      ["errors, privacy consent changes and opt-in changes", ["application-error", "privacy-change", "opt-in-change"]],
      ["- Vouchers order:", ["vouchers-order"]],
      ["- HED search:", ["hed-search"]],
      ["- List change:", ["list-change"]],
      ["- List view:", ["list-view"]],
      ["- Internal search:", ["search"]],
      ["- Site search result click:", ["search-result-click"]],
      ["- Application error:", ["application-error"]],
      ["- Guided-help flow event:", ["guided-help", "guided-help-survey"]],
      ["- Career quiz:", ["career-quiz"]],
      ["- NRP award:", ["award-download"]],
      ["- SAT/PSAT score view:", ["score-view"]],
      ["- SAT registration:", ["registration-step"]],
      ["- Test order (SAT School Day and PSAT family):", ["test-order"]],
      ["- Test administration summary:", ["test-admin-summary"]],
      ["- Purchase:", ["purchase", "clep-order", "ap-score-view", "ap-score-send", "score-send"]],
      ["- Identity:", ["identity"]],
      ["- CB web event:", ["cb-web-event"]],
      ["- K12 reports:", ["k12-app-user", "k12-app-page", "k12-bi-report", "k12-user-action", "product-locker"]],
      ["- Video player:", ["video"]],
      ["- Modal event:", ["modal", "question-bank-export", "question-bank-filter"]],
      ["- Checklist task:", ["checklist-task", "inquiry", "event-app", "course-event", "school-program"]],
      ["- Dashboard data:", ["dashboard", "major-add", "web-vitals", "link-click", "mysat-dashboard", "qotd", "score-match", "promo-click"]],
      ["- Privacy consent change:", ["privacy-change", "opt-in-change"]],
      ["- Traffic source:", ["traffic-source"]],
      ["Contact-us, comms opt-in, checklist events", ["contact-us", "comms-opt-in", "checklist-task"]],
      ["Tag settings push needs a tag key", ["tag-settings", "load-tags"]],
    ];
    for (const [phrase, names] of coverage) {
      expect(spec, phrase).toContain(phrase);
      for (const name of names) expect(events, `${phrase} -> ${name}`).toContain(name);
    }
    // Task "tagsA" (#20): pushed by the bundle itself, not an entity of sections 1 and 3: section 7's "proposition fetch (scope capture_ddl)" answered (docs/edge.md).
    const bundlePushes = ["personalization-decision"];
    expect(new Set(coverage.flatMap(([, names]) => names))).toEqual(new Set(events.filter((e) => !bundlePushes.includes(e))));
  });
});

describe("sitetags-events.d.ts (--dts)", () => {
  const tmp = mkdtempSync(join(tmpdir(), "sitetags-events-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("uses the data layer name it is given, else sites/_org.yaml's", () => {
    expect(run("--dts", "myLayer")).toContain("    myLayer: DataLayerItem[];");
    expect(run("--dts")).toContain("    kiwiDataLayer: DataLayerItem[];");
  }, 120_000); // two script runs, each loading ts-morph: slow on a busy 2-core machine

  it("compiles on its own, accepts every documented example push, and declares the same types as types.ts, event by event", () => {
    writeFileSync(join(tmp, "sitetags-events.d.ts"), run("--dts", "kiwiDataLayer"));
    const types = join(dir, "types").split("\\").join("/");
    const same = (a: string, b: string) => `[${a}] extends [${b}] ? ([${b}] extends [${a}] ? true : false) : false`;
    writeFileSync(
      join(tmp, "check.ts"),
      [
        `import type * as D from "./sitetags-events";`,
        `import type * as T from "${types}";`,
        `type Same<A, B> = ${same("A", "B")};`,
        `export const names: Same<D.DataLayerEvent, T.DataLayerEvent> = true;`,
        `export const all: Same<D.DataLayerItem, T.DataLayerItem> = true;`,
        `export const each: { [E in T.DataLayerEvent]: Same<Extract<D.DataLayerPush, { event: E }>, T.PushOf<E>> } = {`,
        ...events.map((e) => `  ${JSON.stringify(e)}: true,`),
        `};`,
        `window.kiwiDataLayer.push({ event: "search", term: "nursing" }, { pageState: "no-data" });`,
        // Every documented example, as the page would push it.
        ...events.map((e) => `window.kiwiDataLayer.push(${JSON.stringify({ event: e, ...docs[e].example })});`),
        `// @ts-expect-error a malformed push`,
        `window.kiwiDataLayer.push({ event: "list-change", itemType: "college", itemName: "x", changeType: "added-list-item", newTotalItemsInList: "3" });`,
      ].join("\n"),
    );
    const program = ts.createProgram([join(tmp, "check.ts")], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      types: [],
      skipDefaultLibCheck: true,
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(problems).toEqual([]);
  }, 120_000); // a script run with ts-morph, then a type-checked program with the DOM lib
});

describe("size", () => {
  it("validatePush with the table: small, and without the docs' prose", async () => {
    const out = await build({
      stdin: { contents: `import { validatePush } from "./validate-push"; (window as any).v = validatePush;`, resolveDir: dir, loader: "ts" },
      bundle: true,
      minify: true,
      format: "iife",
      target: "es2020",
      write: false,
    });
    const js = out.outputFiles[0].text;
    expect(js).toContain('"list-change"');
    expect(js).not.toContain(docs.search.when);
    expect(gzipSync(js, { level: 9 }).length).toBeLessThan(5000);
  });
});

/**
 * Issue 18, "docs/rules.md: for each push, the rule id, the sites, the record
 * and the skip cases": the table comes from the catalogue and the event table
 * (scripts/rules-doc.js); the page must hold exactly the script's output.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { EVENT_DOCS } from "../../runtime-modules/data-layer-events/event-docs";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const script = join(repo, "scripts/rules-doc.js");
const table = execFileSync(process.execPath, [script], { cwd: repo, encoding: "utf8" });
const page = readFileSync(join(repo, "docs/rules.md"), "utf8");
const rows = table.split("\n").filter((l) => /^\| `/.test(l));

/** Every dataLayerPush rule of the catalogue: [file, rule id, event]. */
function pushRules(): Array<[string, string, string]> {
  const out: Array<[string, string, string]> = [];
  for (const file of readdirSync(join(repo, "sites")).filter((f) => f.endsWith(".yaml"))) {
    const doc = parse(readFileSync(join(repo, "sites", file), "utf8")) ?? {};
    const blocks = [doc, ...Object.values((doc.envs ?? {}) as Record<string, { rules?: unknown }>)];
    for (const block of blocks)
      for (const rule of (block?.rules ?? []) as Array<{ id: string; events?: Array<{ type: string; event?: string }> }>)
        for (const e of rule.events ?? []) if (e.type === "dataLayerPush") out.push([file, rule.id, e.event!]);
  }
  return out;
}

describe("docs/rules.md, the catalogue's rules push by push", () => {
  it("holds exactly the output of scripts/rules-doc.js between its markers (regenerate: node scripts/rules-doc.js --write)", () => {
    const inner = page.slice(page.indexOf("<!-- rules-doc:start -->") + "<!-- rules-doc:start -->".length, page.indexOf("<!-- rules-doc:end -->"));
    expect(inner).toBe("\n\n" + table + "\n");
  });

  it("has one row per documented push, in the event table's order", () => {
    expect(rows.map((r) => /^\| `([^`]+)`/.exec(r)![1])).toEqual(Object.keys(EVENT_DOCS));
  });

  it("names every dataLayerPush rule of the catalogue in its push's row, with its record or its message", () => {
    const rules = pushRules();
    expect(rules.length).toBeGreaterThan(20);
    for (const [file, id, event] of rules) {
      expect(EVENT_DOCS, `${file}: rule ${id} listens for an undocumented push ${event}`).toHaveProperty([event]);
      const row = rows.find((r) => r.startsWith(`| \`${event}\` |`))!;
      expect(row, `${file}: ${id}`).toContain(`\`${id}\` (`);
    }
  });

  it("gives a skip case with the spec's message (testday's vouchers rules) and a record with the push's fields", () => {
    const vouchers = rows.find((r) => r.startsWith("| `vouchers-order` |"))!;
    expect(vouchers).toContain("no `id`: logs 'vouchers order ID missing'");
    expect(vouchers).toContain("`vouchers:{action}`, `kiwi.vouchersOrder`, events event62, eVar109 {id}");
    expect(rows.find((r) => r.startsWith("| `load-tags` |"))).toContain("none by design");
  });

  it("wrong usage exits 2", () => {
    expect(spawnSync(process.execPath, [script, "--nope"]).status).toBe(2);
  });
});

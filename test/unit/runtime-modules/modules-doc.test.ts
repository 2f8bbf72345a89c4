/**
 * docs/modules.md agrees with the module manifests: its module table is the
 * one scripts/modules-doc.js writes from them, and each module section's
 * "Commands:" and "Provided values:" lines name exactly the manifest's.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loaded, registry } from "../../../runtime-modules/registry";
// @ts-expect-error: a plain JavaScript script, no declarations
import { render } from "../../../scripts/modules-doc.js";

const page = readFileSync(new URL("../../../docs/modules.md", import.meta.url), "utf8");

/** Commands named in prose: `track()` or `sitetags.commands.scoreViews.track()`. */
const commandsIn = (text: string) => [...text.matchAll(/`(?:sitetags\.commands\.\w+\.)?(\w+)\(\)`/g)].map((m) => m[1]);
/** Values named in prose: `pageName`. */
const valuesIn = (text: string) => [...text.matchAll(/`(\w+)`/g)].map((m) => m[1]);

describe("docs/modules.md", () => {
  it("its module table is generated from the manifests (regenerate: npm run compile && node scripts/modules-doc.js --write)", () => {
    expect(loaded.problems).toEqual([]);
    expect(page).toBe((render as (page: string, manifests: unknown) => string)(page, loaded.manifests));
  });

  it("the table has one row per module, with its commands and provided values", () => {
    for (const m of Object.values(registry)) {
      const row = page.split("\n").find((line) => line.startsWith(`| \`${m.name}\` |`));
      expect(row, m.name).toBeDefined();
      for (const c of m.commands) expect(row).toContain(`\`${c}()\``);
      for (const v of m.provides) expect(row).toContain(`\`${v}\``);
    }
  });

  it("each module section's Commands and Provided values lines name exactly what the manifest lists", () => {
    const sections = page.split(/\n## /).slice(1);
    let checked = 0;
    for (const section of sections) {
      const name = /^[^\n]*\(`(\w+)`\)/.exec(section)?.[1];
      if (!name) continue;
      const m = registry[name as keyof typeof registry];
      expect(m, `section for ${name}`).toBeDefined();
      const lines = section.split("\n");
      // "Commands: … ." / "Command: … ." and "Provided values: … ." anywhere in a line, up to the sentence's end.
      const after = (l: string, label: RegExp) => l.split(label)[1]?.split(/\.(\s|$)/)[0] ?? "";
      const commands = lines.filter((l) => /\bCommands?:/.test(l)).flatMap((l) => commandsIn(after(l, /\bCommands?:/)));
      const provided = lines.filter((l) => /\bProvided values?:/.test(l)).flatMap((l) => valuesIn(after(l, /\bProvided values?:/)));
      expect(commands.sort(), name).toEqual([...m.commands].sort());
      expect(provided.sort(), name).toEqual([...m.provides].sort());
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(4);
  });
});

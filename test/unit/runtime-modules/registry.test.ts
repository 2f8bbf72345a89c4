import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ModulesSchema } from "../../../generator/config/schema.js";
import { registry } from "../../../runtime-modules/registry";

const root = new URL("../../../runtime-modules/", import.meta.url);

describe("registry", () => {
  it("has exactly the modules of ModulesSchema, both ways", () => {
    expect(Object.keys(registry).sort()).toEqual(Object.keys(ModulesSchema.shape).sort());
  });
  for (const [name, def] of Object.entries(registry)) {
    it(`${name}: ${def.from} exports the factory ${def.factory}`, async () => {
      const mod = await import(new URL(def.from + ".ts", root).href);
      expect(typeof mod[def.factory]).toBe("function");
    });
    it(`${name}: its markers are written in its own module folder and nowhere in core`, () => {
      const source = readFileSync(new URL(def.from + ".ts", root), "utf8");
      for (const marker of def.markers) expect(source).toContain(`"${marker}"`);
      const core = new URL("core/", root);
      for (const file of readdirSync(core)) {
        const text = readFileSync(new URL(file, core), "utf8");
        for (const marker of def.markers) expect(text, file).not.toContain(marker);
      }
    });
  }
});

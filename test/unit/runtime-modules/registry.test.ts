/**
 * The module manifests (runtime-modules/modules/NAME/module.ts) are the one
 * source of each module's metadata: checked here against the config schema
 * and against what each factory really does when it runs.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ModulesSchema, type ModuleName } from "../../../generator/config/schema.js";
import { loaded, loadManifests, registry, RUNTIME_DIR, type ModuleManifest } from "../../../runtime-modules/registry";
import { REPO, tempDir } from "../../helpers/fs.js";
import type { ModuleFactory } from "../../../runtime-modules/core/types";
import { consentFor } from "./helpers/config";
import { fakePage } from "./helpers/fake-page";
import { featureServices } from "./modules/feature-services";

const root = new URL("../../../runtime-modules/", import.meta.url);
const manifests = Object.values(registry) as ModuleManifest[];

/** Settings a module cannot do without (the others take their defaults). */
const REQUIRED: Partial<Record<ModuleName, Record<string, unknown>>> = {
  chat: { scriptSrc: "https://chat.vendor.example/widget.js", pages: ["/register"] },
  survey: { scriptSrc: "https://survey.vendor.example/s.js" },
  scoreViews: { site: "registration" },
  tags: { tags: [{ code: "pixel-tag", category: "marketing", lifecycle: "domReady", kind: "pixel", src: "https://px.vendor.example/p.gif" }] },
};

describe("module manifests", () => {
  it("every folder of runtime-modules/modules/ has a manifest that loads", () => {
    expect(loaded.problems).toEqual([]);
    const folders = readdirSync(new URL("modules/", root), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect(loaded.manifests.map((m) => m.folder).sort()).toEqual(folders.sort());
  });

  it("has exactly the modules of ModulesSchema, both ways, each naming ModulesSchema's own settings schema", () => {
    expect(Object.keys(registry).sort()).toEqual(Object.keys(ModulesSchema.shape).sort());
    for (const [name, manifest] of Object.entries(registry)) {
      expect(manifest.name).toBe(name);
      expect(ModulesSchema.shape[name as ModuleName].unwrap()).toBe(manifest.settings);
    }
  });

  it("the CLI's compiled registry imports the compiled twins (build/, npm run compile) of the source folders' manifests", async () => {
    const compiled = await loadManifests(join(RUNTIME_DIR, "modules"), join(REPO, "build/runtime-modules/modules"), ".js");
    expect(compiled.problems).toEqual([]);
    expect(compiled.manifests.map((m) => [m.folder, m.file, m.manifest.name, m.manifest.commands])).toEqual(
      loaded.manifests.map((m) => [m.folder, m.file, m.manifest.name, m.manifest.commands]),
    );
  });

  it("a module folder whose manifest is not compiled is a problem that says to run npm run compile", async () => {
    const dir = tempDir("modules");
    const out = tempDir("compiled");
    mkdirSync(join(dir, "thing"));
    writeFileSync(join(dir, "thing", "module.ts"), "export default {};\n");
    const { manifests: found, problems } = await loadManifests(dir, out, ".js");
    expect(found).toEqual([]);
    expect(problems).toEqual([
      {
        file: join(dir, "thing", "module.ts"),
        message: `${join(out, "thing", "module.js")} does not exist: run \`npm run compile\` (the CLI imports the compiled manifests)`,
      },
    ]);
  });

  for (const m of manifests) {
    const folder = loaded.manifests.find((l) => l.manifest === m)!.folder;
    const file = new URL(`modules/${folder}/${m.factory.file}.ts`, root);

    it(`${m.name}: its factory's commands and provided values are exactly the ones its manifest lists`, async () => {
      const factory = (await import(file.href))[m.factory.export] as ModuleFactory<unknown>;
      expect(typeof factory).toBe("function");
      const url = "https://satreg.kiwi.example/register";
      const { services } = featureServices(m.settings.parse(REQUIRED[m.name] ?? {}), { url });
      const provided: string[] = [];
      const values = { ...services.values, provide: (name: string, value: unknown) => (provided.push(name), services.values.provide(name, value as never)) };
      const win = fakePage({ url, activeGroups: ",C,C0002,C0003,C0004," }).window;
      const instance = factory({ ...services, win: win as never, consent: consentFor(services.bundle, win, services.log), values });
      expect(Object.keys(instance.commands ?? {}).sort()).toEqual([...m.commands].sort());
      expect(provided.sort()).toEqual([...m.provides].sort());
    });

    it(`${m.name}: its markers are written in its own module folder and nowhere in core`, () => {
      const sources = readdirSync(new URL(`modules/${folder}/`, root))
        .filter((f) => f !== "module.ts")
        .map((f) => readFileSync(new URL(`modules/${folder}/${f}`, root), "utf8"))
        .join("\n");
      for (const marker of m.markers) expect(sources).toContain(`"${marker}"`);
      const core = new URL("core/", root);
      for (const f of readdirSync(core)) {
        const text = readFileSync(new URL(f, core), "utf8");
        for (const marker of m.markers) expect(text, f).not.toContain(marker);
      }
    });
  }
});

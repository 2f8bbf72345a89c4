import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readRegistry } from "../../../generator/bundle/registry.js";
import { PageMapModuleSchema, SurveyModuleSchema } from "../../../generator/config/schema.js";
import { RUNTIME_DIR } from "../../../runtime-modules/registry";
import { REPO, tempDir } from "../../helpers/fs.js";

const SCHEMA = join(REPO, "generator/config/schema.ts");
/** The config schema the fixtures are checked against: one module, "thing". */
const SHAPE = { thing: PageMapModuleSchema.optional() };

/** A manifest's source, each field's text replaceable. */
function manifest(fields: Record<string, string> = {}): string {
  const all: Record<string, string> = {
    name: '"thing"',
    factory: '{ file: "create-thing", export: "createThing" }',
    markers: '["thing-marker"]',
    description: '"a thing"',
    commands: "[]",
    provides: "[]",
    settings: "PageMapModuleSchema",
    ...fields,
  };
  const body = Object.entries(all)
    .filter(([, text]) => text !== "")
    .map(([key, text]) => `  ${key}: ${text},`)
    .join("\n");
  return `import { PageMapModuleSchema, SurveyModuleSchema } from ${JSON.stringify(SCHEMA)};\nexport const unused = SurveyModuleSchema;\nexport default {\n${body}\n};\n`;
}

/** A runtime-modules/ folder holding the given files. */
function runtime(files: Record<string, string>): string {
  const dir = tempDir("runtime");
  mkdirSync(join(dir, "modules"), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const FACTORY = "export function createThing() { return {}; }";

describe("the module registry: one manifest per module folder (runtime-modules/modules/NAME/module.ts)", () => {
  it("the repository's manifests: every module with its factory, file and markers, sorted by name with `tags` last (after every tag family), no diagnostics", async () => {
    const { entries, diagnostics } = await readRegistry(RUNTIME_DIR);
    expect(diagnostics).toEqual([]);
    const names = entries.map((e) => e.name);
    expect(names).toEqual([...names.filter((n) => n !== "tags").sort(), "tags"]);
    expect(entries.find((e) => e.name === "chat")).toMatchObject({
      factory: "createChatWidget",
      from: "modules/chat/create-chat-widget",
      markers: ["sitetags-chat-widget"],
    });
    expect(entries.find((e) => e.name === "scoreViews")).toMatchObject({ factory: "createScoreViews", from: "modules/score-views/create-score-views" });
  });

  it.each([
    ["an exported function", FACTORY],
    ["an exported const", "export const createThing = () => ({});"],
    ["an export list with an alias", "function make() { return {}; }\nexport { make as createThing };"],
    ["a re-export", 'export { createThing } from "./elsewhere";'],
  ])("a factory declared as %s is found", async (_, source) => {
    const dir = runtime({ "modules/thing/module.ts": manifest(), "modules/thing/create-thing.ts": source });
    const { entries, diagnostics } = await readRegistry(dir, SHAPE);
    expect(diagnostics).toEqual([]);
    expect(entries).toEqual([{ name: "thing", factory: "createThing", from: "modules/thing/create-thing", markers: ["thing-marker"], description: "a thing" }]);
  });

  const thing = "modules/thing/module.ts";
  it.each([
    [
      "the factory file does not exist",
      { [thing]: manifest({ factory: '{ file: "missing", export: "createThing" }' }) },
      thing,
      'module "thing": modules/thing/missing.ts does not exist',
      [5, 14],
    ],
    [
      "the factory is not exported",
      { [thing]: manifest(), "modules/thing/create-thing.ts": "function createThing() { return {}; }\nexport const other = 1;" },
      thing,
      'module "thing": modules/thing/create-thing.ts does not export createThing',
      [5, 36],
    ],
    [
      "a local name is exported under another name",
      { [thing]: manifest(), "modules/thing/create-thing.ts": "function createThing() { return {}; }\nexport { createThing as other };" },
      thing,
      'module "thing": modules/thing/create-thing.ts does not export createThing',
      [5, 36],
    ],
    [
      "no marker strings",
      { [thing]: manifest({ markers: "[]" }), "modules/thing/create-thing.ts": FACTORY },
      thing,
      "markers: needs at least one marker string (for the tree-shaking check)",
      [6, 3],
    ],
    [
      "the factory's export is not a name",
      { [thing]: manifest({ factory: '{ file: "create-thing", export: 42 }' }), "modules/thing/create-thing.ts": FACTORY },
      thing,
      "factory.export: Invalid input: expected string, received number",
      [5, 3],
    ],
    [
      "a key the manifest does not have",
      { [thing]: manifest({ extra: "1" }), "modules/thing/create-thing.ts": FACTORY },
      thing,
      'the default export: Unrecognized key: "extra"',
      undefined,
    ],
    [
      "no default export",
      { [thing]: "export const thing = {};\n", "modules/thing/create-thing.ts": FACTORY },
      thing,
      'needs `export default { ... } satisfies ModuleManifest<"name">`',
      undefined,
    ],
    [
      "a folder without module.ts",
      { "modules/thing/create-thing.ts": FACTORY },
      "modules/thing",
      "runtime-modules/modules/thing/ has no module.ts (each folder there is one module, described by its manifest)",
      undefined,
    ],
    [
      "the folder is not the name in kebab-case",
      { "modules/thing/module.ts": manifest({ name: '"otherThing"' }), "modules/thing/create-thing.ts": FACTORY },
      thing,
      'module "otherThing" lives in runtime-modules/modules/other-thing/, not thing/',
      [4, 3],
    ],
    [
      "settings is not ModulesSchema's schema for the module",
      { [thing]: manifest({ settings: "SurveyModuleSchema" }), "modules/thing/create-thing.ts": FACTORY },
      thing,
      'module "thing": settings is not the schema ModulesSchema holds under "thing" (name that schema, without .optional())',
      [10, 3],
    ],
  ])("a wrong manifest fails with BUILD_REGISTRY_INVALID at the key at fault: %s", async (_, files, file, message, position) => {
    const dir = runtime(files);
    const { entries, diagnostics } = await readRegistry(dir, SHAPE);
    expect(entries).toEqual([]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: "BUILD_REGISTRY_INVALID", message, file: join(dir, file), severity: "error" });
    if (position) expect([diagnostics[0].line, diagnostics[0].column]).toEqual(position);
    else expect(diagnostics[0].line).toBeUndefined();
  });

  it("a module with a manifest but not in ModulesSchema, and one in ModulesSchema without a manifest, fail with BUILD_REGISTRY_INVALID", async () => {
    const dir = runtime({ [thing]: manifest(), "modules/thing/create-thing.ts": FACTORY });
    const { diagnostics } = await readRegistry(dir, { survey: SurveyModuleSchema.optional() });
    expect(diagnostics.map((d) => [d.code, d.message, d.file, d.line])).toEqual([
      ["BUILD_REGISTRY_INVALID", 'module "thing" has a manifest but no settings schema in ModulesSchema (generator/config/schema.ts)', join(dir, thing), 4],
      [
        "BUILD_REGISTRY_INVALID",
        'module "survey" is in ModulesSchema but has no manifest (runtime-modules/modules/survey/module.ts)',
        join(dir, "modules"),
        undefined,
      ],
    ]);
  });
});

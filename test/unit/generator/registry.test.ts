import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readRegistry } from "../../../generator/build/registry.js";
import { REPO, tempDir } from "../../helpers/fs.js";

/** A runtime-modules/ folder holding a registry and the given module files. */
function runtime(registry: string, files: Record<string, string> = {}): string {
  const dir = tempDir("runtime");
  writeFileSync(join(dir, "registry.ts"), registry);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const entry = (from: string, factory = "createThing", markers = '["thing-marker"]') => `export const registry = {\n  thing: { factory: "${factory}", from: "${from}", markers: ${markers}, description: "a thing" },\n};\n`;

describe("ts-morph reads the runtime's module registry (each module's declared metadata)", () => {
  it("the real registry: every module with its factory, file and markers, sorted by name", async () => {
    const { entries, diagnostics } = await readRegistry(join(REPO, "runtime-modules"));
    expect(diagnostics).toEqual([]);
    expect(entries.map((e) => e.name)).toEqual([...entries.map((e) => e.name)].sort());
    expect(entries.find((e) => e.name === "chat")).toMatchObject({ factory: "createChatWidget", from: "modules/chat/create-chat-widget" });
    for (const e of entries) expect(e.markers.length).toBeGreaterThan(0);
  });

  it.each([
    ["an exported function", "export function createThing() { return {}; }"],
    ["an exported const", "export const createThing = () => ({});"],
    ["an export list with an alias", "function make() { return {}; }\nexport { make as createThing };"],
    ["a re-export", 'export { createThing } from "./elsewhere";'],
  ])("a factory declared as %s is found", async (_, source) => {
    const dir = runtime(entry("modules/thing/create-thing"), { "modules/thing/create-thing.ts": source });
    const { entries, diagnostics } = await readRegistry(dir);
    expect(diagnostics).toEqual([]);
    expect(entries).toEqual([{ name: "thing", factory: "createThing", from: "modules/thing/create-thing", markers: ["thing-marker"], description: "a thing" }]);
  });

  it.each([
    ["the file does not exist", entry("modules/thing/missing"), {}, 'module "thing": modules/thing/missing.ts does not exist'],
    ["the factory is not exported", entry("modules/thing/create-thing"), { "modules/thing/create-thing.ts": "function createThing() { return {}; }\nexport const other = 1;" }, 'module "thing": modules/thing/create-thing.ts does not export createThing'],
    ["a local name is exported under another name", entry("modules/thing/create-thing"), { "modules/thing/create-thing.ts": "function createThing() { return {}; }\nexport { createThing as other };" }, 'module "thing": modules/thing/create-thing.ts does not export createThing'],
    ["no marker strings", entry("modules/thing/create-thing", "createThing", "[]"), { "modules/thing/create-thing.ts": "export function createThing() {}" }, 'module "thing": needs at least one marker string (for the tree-shaking check)'],
    ["factory is not a string literal", entry("modules/thing/create-thing", '" + name + "'), { "modules/thing/create-thing.ts": "export function createThing() {}" }, 'module "thing": needs string literals "factory" and "from"'],
    ["the registry is not an object literal", "export const registry = makeRegistry();\n", {}, "expected `export const registry = { ... }` with an object literal"],
  ])("a wrong registry fails with BUILD_REGISTRY_INVALID: %s", async (_, registry, files, message) => {
    const dir = runtime(registry, files);
    const { diagnostics } = await readRegistry(dir);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: "BUILD_REGISTRY_INVALID", message, file: join(dir, "registry.ts"), severity: "error" });
    if (!message.startsWith("expected")) expect(diagnostics[0]).toMatchObject({ line: 2, column: 1 });
  });
});

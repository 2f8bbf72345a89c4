#!/usr/bin/env node
// Prints docs/events.md from the table of documented data-layer events
// (runtime-modules/data-layer-events/shapes.ts) and their prose (event-docs.ts).
//   node scripts/events-doc.js > docs/events.md
//   node scripts/events-doc.js --dts [NAME] > dist/sitetags-events.d.ts   (NAME: the data layer's
//     global, by default dataLayerName of sites/_org.yaml)
// A unit test keeps docs/events.md equal to this output, and checks that the
// d.ts declares the same types as runtime-modules/data-layer-events/types.ts.
import { readFileSync } from "node:fs";
import ts from "typescript";
import YAML from "yaml";

const DIR = new URL("../runtime-modules/data-layer-events/", import.meta.url);

/** Imports a TS file of literal data (type-only imports at most) by stripping its types. */
async function importTs(name) {
  const source = readFileSync(new URL(name, DIR), "utf8");
  const js = ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true },
  }).outputText;
  return import("data:text/javascript;base64," + Buffer.from(js).toString("base64"));
}

/** The table, its prose, and the data layer's name (dataLayerName in sites/_org.yaml). */
export async function loadTables() {
  const [{ EVENT_SHAPES }, { EVENT_DOCS }] = await Promise.all([importTs("shapes.ts"), importTs("event-docs.ts")]);
  const org = YAML.parse(readFileSync(new URL("../sites/_org.yaml", import.meta.url), "utf8"));
  return { shapes: EVENT_SHAPES, docs: EVENT_DOCS, dataLayerName: org.dataLayerName };
}

/* ---- the descriptor grammar (see shapes.ts) ---- */

const NUMERIC = /^-?\d+(\.\d+)?$/;
const BASE = new Set(["string", "number", "integer", "boolean", "unknown"]);

/** A field of an object descriptor: its name, whether it is optional, its type without "?". */
export function fieldsOf(fields) {
  return Object.entries(fields).map(([key, type]) => {
    const name = key.replace(/\?$/, "");
    const optional = key !== name || (typeof type === "string" && type.endsWith("?"));
    return { name, optional, type: typeof type === "string" ? type.replace(/\?$/, "") : type };
  });
}

function parse(type) {
  const list = type.endsWith("[]");
  return { list, members: (list ? type.slice(0, -2) : type).split("|") };
}

/** How a field's type reads in the docs. */
function docType(type) {
  if (Array.isArray(type)) return "list of objects";
  if (typeof type !== "string") return "object";
  const { list, members } = parse(type);
  const one = members.map((m) => (BASE.has(m) ? m : NUMERIC.test(m) ? m : `"${m}"`)).join(" \\| ");
  return list ? `list of ${one}` : one;
}

/** A field's TypeScript type. */
function tsType(type, indent) {
  if (Array.isArray(type)) return `Array<${tsObject(type[0], indent)}>`;
  if (typeof type !== "string") return tsObject(type, indent);
  const { list, members } = parse(type);
  const names = [...new Set(members.map((m) => (m === "integer" ? "number" : BASE.has(m) || NUMERIC.test(m) ? m : JSON.stringify(m))))];
  const one = names.includes("unknown") ? "unknown" : names.join(" | ");
  return list ? (names.length > 1 && one !== "unknown" ? `(${one})[]` : `${one}[]`) : one;
}

function tsObject(fields, indent, notes = {}, prefix = "", head = []) {
  const inner = indent + "  ";
  const lines = fieldsOf(fields).map(({ name, optional, type }) => {
    const note = notes[prefix + name];
    const doc = note ? `${inner}/** ${note.replace(/\*\//g, "*\\/")} */\n` : "";
    const value = Array.isArray(type)
      ? `Array<${tsObject(type[0], inner, notes, prefix + name + ".")}>`
      : typeof type === "string"
        ? tsType(type, inner)
        : tsObject(type, inner, notes, prefix + name + ".");
    return `${doc}${inner}${name}${optional ? "?" : ""}: ${value};`;
  });
  return `{\n${[...head.map((line) => inner + line), ...lines].join("\n")}\n${indent}}`;
}

/* ---- docs/events.md ---- */

function rows(fields, notes, prefix = "", notePrefix = "") {
  return fieldsOf(fields).flatMap(({ name, optional, type }) => {
    const note = (notes[notePrefix + name] || "").replace(/\|/g, "\\|");
    const row = `| \`${prefix}${name}\` | ${docType(type)} | ${optional ? "no" : "yes"} | ${note} |`;
    if (Array.isArray(type)) return [row, ...rows(type[0], notes, `${prefix}${name}[].`, `${notePrefix}${name}.`)];
    if (typeof type !== "string") return [row, ...rows(type, notes, `${prefix}${name}.`, `${notePrefix}${name}.`)];
    return [row];
  });
}

export function render({ shapes, docs, dataLayerName: dl }) {
  const events = Object.keys(shapes);
  const contents = events.map((e) => `| [\`${e}\`](#${e}) | ${Object.keys(shapes[e]).length} | ${docs[e].when} |`);
  const sections = events.map((e) => {
    const example = JSON.stringify({ event: e, ...docs[e].example }, null, 2);
    return [
      `## ${e}`,
      "",
      docs[e].when,
      "",
      "```js",
      `window.${dl}.push(${example});`,
      "```",
      "",
      "| field | type | required | notes |",
      "| --- | --- | --- | --- |",
      ...rows(shapes[e], docs[e].notes || {}),
      "",
    ].join("\n");
  });
  return `# Data-layer events

Applications talk to a sitetags bundle only through the data layer: a global array named by \`dataLayerName\` in \`sites/_org.yaml\` (\`${dl}\`). Push to it before or after the bundle loads; pushes made before it loads are processed, in order, when it starts.

    window.${dl} = window.${dl} || [];
    window.${dl}.push({ event: "search", term: "nursing", type: "college", count: 42 }); // an event push
    window.${dl}.push({ pageState: "no-data" }); // a data-only push

- **An event push** has an \`event\` name and the event's fields. Every event the product spec lists is documented below; what records each one today (the runtime, a feature module or a rule of the catalogue) is in [docs/rules.md](rules.md#the-catalogues-rules), and a site adds a \`dataLayerPush\` rule for any other.
- **A data-only push** has no \`event\`: its data is merged into the data layer's state (objects merge, everything else replaces), which rules and data elements read. Data-only rules fire only for pushes without an event name.
- Event names of the application's own are allowed; the bundle ignores them unless a rule listens for them.

**Checks outside production.** Non-production bundles (dev, qa, uat, ...) check each push of a documented event against its shape and log one warning per problem, naming the event and the field, for example \`data layer push "list-change": field "newTotalItemsInList" must be an integer, got "3"\`. An event name within two edits of a documented one is reported too: \`unknown event "serch" (did you mean "search"?)\`, and so is a field name within two edits of a missing documented field. Warnings show in the console in debug mode (\`?sitetags-debug=1\`) and in \`window.sitetags.log\`. The push is processed as usual either way. Production bundles contain neither the check nor this table.

**Types.** \`node scripts/events-doc.js --dts ${dl} > sitetags-events.d.ts\` prints a declaration file for application teams: \`DataLayerEvent\` (the names), one \`…Push\` interface per event, \`DataLayerPush\` (their union), \`DataOnlyPush\`, \`DataLayerItem\`, and \`Window.${dl}: DataLayerItem[]\`. Inside this repository the same types are \`runtime-modules/data-layer-events/types.ts\`, derived from the table \`runtime-modules/data-layer-events/shapes.ts\`, which is the single source of this page (regenerate it with \`node scripts/events-doc.js > docs/events.md\`; a unit test fails when it is out of date).

**Reading the field tables.** Types: string, number (finite), integer, boolean, unknown (anything), a quoted value (one of the values listed), \`list of …\`. "Required" is relative to the enclosing object; \`a.b\` is field \`b\` of object \`a\`, \`a[].b\` field \`b\` of each item of list \`a\`. Undefined counts as absent; null is a value (of the wrong type).

| event | fields | when |
| --- | --- | --- |
${contents.join("\n")}

${sections.join("\n")}`;
}

/* ---- sitetags-events.d.ts ---- */

const pascal = (event) => event.replace(/(^|-)([a-z0-9])/g, (_, __, c) => c.toUpperCase());

/**
 * The declaration file, written as a TypeScript AST with ts-morph (not
 * concatenated text): a type alias of the event names, one interface per
 * event with its fields and their notes as JSDoc, the unions, and the
 * data layer's global on Window.
 */
export async function renderDts({ shapes, docs }, dataLayerName) {
  // Loaded only here: ts-morph brings its own TypeScript, which the docs page does not need.
  const { IndentationText, ModuleDeclarationKind, Project, QuoteKind } = await import("ts-morph");
  const events = Object.keys(shapes);
  const project = new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: { quoteKind: QuoteKind.Double, indentationText: IndentationText.TwoSpaces },
  });
  const file = project.createSourceFile("sitetags-events.d.ts", "", { overwrite: true });
  file.addStatements([
    "// sitetags data-layer event types. Generated by scripts/events-doc.js from",
    "// runtime-modules/data-layer-events/shapes.ts; do not edit. See docs/events.md.",
  ]);
  const union = (names) => names.map((n) => `\n  | ${n}`).join("");
  file.addTypeAlias({ isExported: true, name: "DataLayerEvent", type: union(events.map((e) => JSON.stringify(e))), docs: ["The documented event names."] });
  for (const e of events) {
    const notes = docs[e].notes || {};
    file.addInterface({
      isExported: true,
      name: `${pascal(e)}Push`,
      docs: [docs[e].when],
      properties: [
        { name: "event", type: JSON.stringify(e) },
        ...fieldsOf(shapes[e]).map(({ name, optional, type }) => ({
          name,
          hasQuestionToken: optional,
          docs: notes[name] ? [notes[name].replace(/\*\//g, "*\\/")] : [],
          type: Array.isArray(type)
            ? `Array<${tsObject(type[0], "  ", notes, name + ".")}>`
            : typeof type === "string"
              ? tsType(type, "  ")
              : tsObject(type, "  ", notes, name + "."),
        })),
      ],
    });
  }
  file.addTypeAlias({ isExported: true, name: "DataLayerPush", type: union(events.map((e) => `${pascal(e)}Push`)), docs: ["Every documented event push."] });
  file.addTypeAlias({
    isExported: true,
    name: "DataOnlyPush",
    type: "{ event?: undefined; [key: string]: unknown }",
    docs: ["A data-only push: data merged into the data layer's state, no event."],
  });
  file.addTypeAlias({
    isExported: true,
    name: "DataLayerItem",
    type: "DataLayerPush | DataOnlyPush",
    docs: ["Anything an application may push: a documented event or data only."],
  });
  file.addModule({ name: "global", declarationKind: ModuleDeclarationKind.Global, hasDeclareKeyword: true }).addInterface({
    name: "Window",
    properties: [
      {
        name: dataLayerName,
        type: "DataLayerItem[]",
        docs: [`The sitetags data layer (create it if the bundle has not loaded yet: \`window.${dataLayerName} = window.${dataLayerName} || []\`).`],
      },
    ],
  });
  file.formatText({ indentSize: 2, tabSize: 2, convertTabsToSpaces: true });
  return file.getFullText();
}

async function main(args) {
  const tables = await loadTables();
  if (args[0] === "--dts") {
    const name = args.length > 1 ? args[1] : tables.dataLayerName;
    if (!/^[A-Za-z_$][\w$]*$/.test(String(name)) || args.length > 2) {
      process.stderr.write("usage: node scripts/events-doc.js [--dts [DATA_LAYER_NAME]]\n");
      process.exit(2);
    }
    process.stdout.write(await renderDts(tables, name));
  } else if (args.length) {
    process.stderr.write("usage: node scripts/events-doc.js [--dts [DATA_LAYER_NAME]]\n");
    process.exit(2);
  } else process.stdout.write(render(tables));
}

if (import.meta.url === `file://${process.argv[1]}`) await main(process.argv.slice(2));

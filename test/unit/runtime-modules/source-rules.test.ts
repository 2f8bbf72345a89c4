/**
 * Rules for every file under runtime-modules/: nothing runs at import (no
 * top-level statements but imports, types, functions and literal constants),
 * no enums or classes, no eval / new Function / document.write / string
 * timers, types only from the generator, extensionless imports inside.
 * The Node-side files (the registry and the module manifests, metadata the
 * generator imports) are exempt, and no browser file may import them.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { isNodeSide } from "../../../generator/bundle/compile-runtime.js";

const root = fileURLToPath(new URL("../../../runtime-modules/", import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

function isLiteral(node: ts.Expression): boolean {
  if (ts.isSatisfiesExpression(node) || ts.isAsExpression(node) || ts.isParenthesizedExpression(node)) return isLiteral(node.expression);
  if (ts.isStringLiteral(node) || ts.isNumericLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isRegularExpressionLiteral(node)) return true;
  if (node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword || node.kind === ts.SyntaxKind.NullKeyword) return true;
  if (ts.isArrayLiteralExpression(node)) return node.elements.every(isLiteral);
  if (ts.isObjectLiteralExpression(node))
    return node.properties.every((p) => ts.isPropertyAssignment(p) && !ts.isComputedPropertyName(p.name) && isLiteral(p.initializer));
  return false;
}

/** The browser files among `paths` that import a Node-side file (the registry, a manifest), as "file:line specifier". */
function nodeSideImports(paths: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [path, text] of Object.entries(paths)) {
    if (isNodeSide(root, path)) continue;
    const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const specifiers = sf.statements.filter((s) => ts.isImportDeclaration(s) || (ts.isExportDeclaration(s) && s.moduleSpecifier)) as Array<
      ts.ImportDeclaration | ts.ExportDeclaration
    >;
    for (const statement of specifiers) {
      const from = (statement.moduleSpecifier as ts.StringLiteral).text;
      if (!from.startsWith(".")) continue;
      const target = resolve(dirname(path), from).replace(/\.(js|ts)$/, "") + ".ts";
      if (isNodeSide(root, target)) found.push(`${relative(root, path)}:${sf.getLineAndCharacterOfPosition(statement.getStart()).line + 1} ${from}`);
    }
  }
  return found;
}

const isFunction = (node: ts.Node) => ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isIdentifier(node);

/** The rule violations in one file's text, as "file:line what". */
function problemsIn(path: string, text: string): string[] {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) => found.push(`${relative(root, path)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${what}`);

  for (const statement of sf.statements) {
    if (ts.isImportDeclaration(statement)) {
      const from = (statement.moduleSpecifier as ts.StringLiteral).text;
      const fromGenerator = from.includes("/generator/");
      if (fromGenerator && !statement.importClause?.isTypeOnly) at(statement, `value import from the generator (${from})`);
      if (!fromGenerator && /\.(ts|js)$/.test(from)) at(statement, `import with an extension (${from})`);
      // One browser package, resolved from node_modules by the compiler: web-vitals (issue: "From the web-vitals package (not hand-written)").
      if (!from.startsWith(".") && from !== "web-vitals") at(statement, `import of a package (${from})`);
    } else if (ts.isVariableStatement(statement) && statement.declarationList.flags & ts.NodeFlags.Const) {
      for (const d of statement.declarationList.declarations)
        if (!d.initializer || !isLiteral(d.initializer)) at(d, "top-level constant that is not a literal");
    } else if (
      !ts.isExportDeclaration(statement) &&
      !ts.isInterfaceDeclaration(statement) &&
      !ts.isTypeAliasDeclaration(statement) &&
      !ts.isFunctionDeclaration(statement)
    ) {
      at(statement, "top-level statement that runs at import");
    }
  }

  const visit = (node: ts.Node): void => {
    if (ts.isEnumDeclaration(node)) at(node, "enum");
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) at(node, "class");
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const name = node.expression.text;
      if (name === "eval") at(node, "eval");
      if ((name === "setTimeout" || name === "setInterval") && node.arguments[0] && !isFunction(node.arguments[0])) at(node, "timer without a function");
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "Function") at(node, "new Function");
    if (ts.isPropertyAccessExpression(node) && /^write(ln)?$/.test(node.name.text) && /document$/.test(node.expression.getText())) at(node, "document.write");
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/**
 * Analytics variable numbers written in code (issue 18: "Every analytics
 * variable number lives in YAML"): string literals, template text and
 * property names that name an eVar, prop, list or success event, as
 * "file:line text". Comments are not code. event-docs.ts (the prose of
 * docs/events.md, never in a bundle) is not scanned.
 */
const ANALYTICS_NUMBER = /\b(eVar|prop|list|event)\d{1,3}\b/;
function analyticsNumbersIn(path: string, text: string): string[] {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const t =
      ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)
        ? node.text
        : ts.isIdentifier(node) && (ts.isPropertyAssignment(node.parent) || ts.isPropertyAccessExpression(node.parent) || ts.isPropertySignature(node.parent))
          ? node.text
          : undefined;
    if (t !== undefined && ANALYTICS_NUMBER.test(t)) found.push(`${relative(root, path)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${t}`);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe("runtime-modules source rules", () => {
  const all = files(root).filter((path) => !isNodeSide(root, path));
  it("finds the runtime files", () => {
    expect(all.length).toBeGreaterThan(10);
  });
  for (const path of all) {
    it(`${relative(root, path)}: nothing runs at import; no enum, class, eval, new Function, document.write, string timers`, () => {
      expect(problemsIn(path, readFileSync(path, "utf8"))).toEqual([]);
    });
  }
  it('"Every analytics variable number lives in YAML": no runtime file writes an eVar, prop, list or event number (they are analyticsVariables in sites/_org.yaml)', () => {
    const scanned = all.filter((path) => relative(root, path) !== join("data-layer-events", "event-docs.ts"));
    expect(scanned.flatMap((path) => analyticsNumbersIn(path, readFileSync(path, "utf8")))).toEqual([]);
  });
  it("the number check catches a literal, a template, a key and a property, not a comment", () => {
    const text = [`// eVar12 in a comment`, `const a = { events: "event250", eVar51: x };`, "const b = `prop${1}` + `list1`;", `v.prop60 = 1;`].join("\n");
    expect(analyticsNumbersIn(join(root, "core", "fixture.ts"), text)).toEqual([
      "core/fixture.ts:2 event250",
      "core/fixture.ts:2 eVar51",
      "core/fixture.ts:3 list1",
      "core/fixture.ts:4 prop60",
    ]);
  });
  it("the Node-side files are exactly the registry and one module.ts per module folder", () => {
    const nodeSide = files(root)
      .filter((path) => isNodeSide(root, path))
      .map((path) => relative(root, path))
      .sort();
    const folders = readdirSync(join(root, "modules")).filter((name) => statSync(join(root, "modules", name)).isDirectory());
    expect(nodeSide).toEqual(["registry.ts", ...folders.map((f) => `modules/${f}/module.ts`)].sort());
  });
  it("no browser file imports the registry or a module manifest (the generated entries import each factory's own file)", () => {
    expect(nodeSideImports(Object.fromEntries(files(root).map((path) => [path, readFileSync(path, "utf8")])))).toEqual([]);
  });
  it("the Node-side import check catches an import of the registry or a manifest", () => {
    expect(
      nodeSideImports({
        [join(root, "modules", "chat", "create-chat-widget.ts")]:
          `import manifest from "./module";\nimport { registry } from "../../registry.js";\nexport { x } from "../video/module";\nimport { y } from "./module-events";`,
        [join(root, "modules", "chat", "module.ts")]: `import { registry } from "../../registry.js";`,
      }),
    ).toEqual([
      "modules/chat/create-chat-widget.ts:1 ./module",
      "modules/chat/create-chat-widget.ts:2 ../../registry.js",
      "modules/chat/create-chat-widget.ts:3 ../video/module",
    ]);
  });
  it("the checker catches each thing it is meant to catch", () => {
    const text = [
      `import { x } from "../../generator/config/schema.js";`,
      `import { y } from "./y.ts";`,
      `window.foo = 1;`,
      `const z = document.title;`,
      `enum E { A }`,
      `export class C {}`,
      `function f() { eval("1"); setTimeout("a()", 1); new Function(""); document.write(""); }`,
    ].join("\n");
    expect(problemsIn(join(root, "core", "fixture.ts"), text)).toEqual([
      "core/fixture.ts:1 value import from the generator (../../generator/config/schema.js)",
      "core/fixture.ts:2 import with an extension (./y.ts)",
      "core/fixture.ts:3 top-level statement that runs at import",
      "core/fixture.ts:4 top-level constant that is not a literal",
      "core/fixture.ts:5 top-level statement that runs at import",
      "core/fixture.ts:6 top-level statement that runs at import",
      "core/fixture.ts:5 enum",
      "core/fixture.ts:6 class",
      "core/fixture.ts:7 eval",
      "core/fixture.ts:7 timer without a function",
      "core/fixture.ts:7 new Function",
      "core/fixture.ts:7 document.write",
    ]);
  });
});

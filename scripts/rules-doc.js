#!/usr/bin/env node
// Writes the table "The catalogue's rules, push by push" of docs/rules.md from
// the catalogue (sites/_org.yaml, sites/*.yaml: every dataLayerPush rule) and
// the event table (runtime-modules/data-layer-events/event-docs.ts): for each
// documented push, the rules that record it, their sites, the record, and the
// skip cases (the rules' conditions, and the log rules' messages).
//   node scripts/rules-doc.js           prints the table
//   node scripts/rules-doc.js --write   puts it into docs/rules.md, between its markers
// test/unit/rules-doc.test.ts keeps docs/rules.md equal to this output.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import YAML from "yaml";
import { loadTables } from "./events-doc.js";

const SITES = new URL("../sites/", import.meta.url);
const DOC = new URL("../docs/rules.md", import.meta.url);
export const START = "<!-- rules-doc:start -->";
export const END = "<!-- rules-doc:end -->";

/**
 * The pushes the runtime or a feature module records itself (no rule of the
 * catalogue): what does it, and the module whose sites record it (null: every
 * site). Their numbers are analyticsVariables in _org.yaml.
 */
const BUILT_IN = {
  "page-view": ["the runtime: an SPA page view (docs/tracking.md)", null],
  "link-click": ["the runtime: link tracking (needs `hasData` and an `eventCode`, else 'no event code found in link track payload')", null],
  "promo-click": ["the runtime: link tracking (needs a `name`)", null],
  search: ["the runtime: internal search (needs a term; duplicates suppressed)", null],
  "quick-search": ["the runtime: internal search (needs a term)", null],
  "search-result-click": ["the runtime: internal search", null],
  "web-vitals": ["the runtime: one batch when the page is hidden, with the page's own metrics", null],
  "registration-step": ["the satFunnel module: the new page's page view, with the registration data", "satFunnel"],
  "funnel-widget": ["the satFunnel module", "satFunnel"],
  "test-order": ["the testOrders module", "testOrders"],
  "test-admin-summary": ["the testOrders module", "testOrders"],
  "score-view": ["the scoreViews module, on its score pages only", "scoreViews"],
  video: ["the video module: started, milestone, resumed, ended, replayed, error", "video"],
};

function siteFiles() {
  return readdirSync(SITES)
    .filter((f) => f.endsWith(".yaml"))
    .sort((a, b) => (a === "_org.yaml" ? -1 : b === "_org.yaml" ? 1 : a.localeCompare(b)));
}

/** Every rule of the catalogue with where it is: { rule, where ("org", a site code, or "site/env"), elements }. */
export function catalogueRules() {
  const out = [];
  const modules = {};
  let orgElements = {};
  for (const file of siteFiles()) {
    const doc = YAML.parse(readFileSync(new URL(file, SITES), "utf8")) ?? {};
    const code = file === "_org.yaml" ? "org: every site" : doc.code;
    const elements = { ...orgElements, ...(doc.dataElements ?? {}) };
    if (file === "_org.yaml") orgElements = elements;
    for (const m of Object.keys(doc.modules ?? {})) (modules[m] ??= []).push(code);
    for (const rule of doc.rules ?? []) out.push({ rule, where: code, elements });
    for (const [env, block] of Object.entries(doc.envs ?? {}))
      for (const rule of block?.rules ?? []) out.push({ rule, where: `${code}/${env}`, elements: { ...elements, ...(block.dataElements ?? {}) } });
  }
  return { rules: out, modules };
}

/** A data element as a reader sees it: `name` (push field) when it reads the push. */
function element(name, elements) {
  const def = elements[name];
  if (!def || def.push === undefined) return `\`${name}\``;
  return def.lookup ? `\`${def.push}\` (by its lookup table)` : `\`${def.push}\``;
}

/** A condition in words. */
export function condition(c, elements) {
  switch (c.type) {
    case "dataElement": {
      const e = element(c.name, elements);
      if (c.exists !== undefined) return c.exists ? `${e} present` : `no ${e}`;
      if (c.equals !== undefined) return `${e} is ${c.equals}`;
      if (c.matches !== undefined) return `${e} matches \`${c.matches}\``;
      if (c.startsWith !== undefined) return `${e} starts with ${c.startsWith}`;
      if (c.integer) return `${e} an integer`;
      if (c.gt !== undefined) return `${e} > ${c.gt}`;
      if (c.lt !== undefined) return `${e} < ${c.lt}`;
      return `${e} present`;
    }
    case "not":
      return `not (${condition(c.condition, elements)})`;
    case "allOf":
      return c.conditions.map((x) => condition(x, elements)).join(" and ");
    case "anyOf":
      return `(${c.conditions.map((x) => condition(x, elements)).join(" or ")})`;
    case "loggedIn":
      return c.value ? "signed in" : "not signed in";
    case "path":
    case "host":
      return `${c.type} ${c.equals ?? c.matches ?? c.startsWith}`;
    default:
      return c.type;
  }
}

/** A text with its push tokens as the push's fields: `%voucherId%` reads `{id}`. */
function fields(text, elements) {
  return String(text).replace(/%([A-Za-z][A-Za-z0-9_.-]*)%/g, (whole, name) => {
    const def = elements[name];
    if (def?.push === undefined) return whole;
    const how = [
      def.reduce,
      def.unique && "each once",
      def.sort && "sorted",
      def.join !== undefined && !def.reduce && `joined by ${def.join}${def.fields ? ` (${def.fields.join(":")})` : ""}`,
      def.lookup &&
        `looked up (${Object.entries(def.lookup)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")})`,
      def.lowercase && "lower case",
      def.truncate && `cut to ${def.truncate}`,
    ].filter(Boolean);
    return `{${def.push}${how.length ? `: ${how.join(", ")}` : ""}}`;
  });
}

/** What an action records or says. */
function action(a, elements) {
  if (a.type === "sendEvent") {
    const vars = Object.entries(a.variables ?? {}).map(([k, v]) => `${k} ${fields(v, elements)}`);
    return `\`${fields(a.name, elements)}\`, \`${a.eventType}\`${vars.length ? `, ${vars.join(", ")}` : ""}`;
  }
  if (a.type === "sendPageView") return "a page view";
  if (a.type === "setVariables") return `sets ${Object.keys(a.variables ?? {}).join(", ")} on the next beacon`;
  if (a.type === "log") return `logs '${a.message}'`;
  return a.type;
}

const cell = (text) => String(text).replace(/\|/g, "\\|").replace(/\n/g, " ");

/** The table: one row per documented push, in the event table's order. */
export async function render() {
  const { docs } = await loadTables();
  const { rules, modules } = catalogueRules();
  const rows = ["| push | rules (where) | record | skip cases |", "| --- | --- | --- | --- |"];
  for (const [event, doc] of Object.entries(docs)) {
    const mine = rules.filter(({ rule }) => (rule.events ?? []).some((e) => e.type === "dataLayerPush" && e.event === event));
    if (mine.length) {
      const records = [];
      const skips = [];
      const ids = [];
      for (const { rule, where, elements } of mine) {
        ids.push(`\`${rule.id}\` (${where})`);
        const conds = (rule.conditions ?? []).map((c) => condition(c, elements));
        const logOnly = rule.actions.every((a) => a.type === "log");
        if (logOnly) skips.push(`${conds.join(" and ") || "always"}: ${rule.actions.map((a) => action(a, elements)).join("; ")}`);
        else {
          records.push(rule.actions.map((a) => action(a, elements)).join("; "));
          if (conds.length) skips.push(`\`${rule.id}\` needs ${conds.join(" and ")}`);
        }
      }
      rows.push(`| \`${event}\` | ${cell(ids.join(", "))} | ${cell(records.join("; or "))} | ${cell(skips.join("; ") || "none")} |`);
    } else if (BUILT_IN[event]) {
      const [by, module] = BUILT_IN[event];
      const where = module ? `sites with the ${module} module: ${(modules[module] ?? []).join(", ")}` : "every site";
      rows.push(
        `| \`${event}\` | ${cell(`${by} (${where})`)} | analyticsVariables in _org.yaml (docs/tracking.md, docs/modules.md) | ${cell("the runtime's own checks")} |`,
      );
    } else if (doc.recordsNothing) {
      rows.push(`| \`${event}\` | none by design | ${cell(doc.recordsNothing)} | |`);
    } else {
      rows.push(`| \`${event}\` | not yet recorded (test/browser/coverage.test.ts, NOT_YET, says what it needs) | | |`);
    }
  }
  return rows.join("\n") + "\n";
}

/** docs/rules.md with the table between its markers. */
export async function renderPage(page) {
  const a = page.indexOf(START);
  const b = page.indexOf(END);
  if (a < 0 || b < a) throw new Error(`docs/rules.md lacks ${START} ... ${END}`);
  return page.slice(0, a + START.length) + "\n\n" + (await render()) + "\n" + page.slice(b);
}

async function main(args) {
  if (args.length === 1 && args[0] === "--write") writeFileSync(DOC, await renderPage(readFileSync(DOC, "utf8")));
  else if (args.length === 0) process.stdout.write(await render());
  else {
    process.stderr.write("usage: node scripts/rules-doc.js [--write]\n");
    process.exit(2);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main(process.argv.slice(2));

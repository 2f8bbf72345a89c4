/**
 * Build-time checks of one site x environment's rules and data elements that
 * a schema alone cannot make: %token% and condition references to data
 * elements, cycles among data elements, provided values, module commands,
 * duplicate and unknown rule ids.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { formatPath } from "../diagnostics/diagnostic.js";
import { DIAGNOSTICS, type DiagnosticBody } from "../diagnostics/diagnostics.js";
import type { ModuleName, Settings } from "./schema.js";
import { CORE_PROVIDED_VALUES, TOKEN, type RuleCondition } from "./schemas/rules.js";
// Each module's commands and provided values: its manifest (runtime-modules/modules/NAME/module.ts).
import { registry } from "../../runtime-modules/registry.js";
import { type SourcePicker } from "./issues.js";
import { nearest } from "./nearest.js";
import { diagnosticAtOffset, offsetOf } from "./yaml-source.js";

type Path = PropertyKey[];

/** Every string inside a value, with its path. */
function strings(value: unknown, path: Path, out: Array<{ path: Path; text: string }> = []) {
  if (typeof value === "string") out.push({ path, text: value });
  else if (Array.isArray(value)) value.forEach((v, i) => strings(v, [...path, i], out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) strings(v, [...path, k], out);
  return out;
}

/** The %name% tokens of a string; two hex digits (%C3% in a URL) are percent-encoding, not a token. */
export function tokensOf(text: string): string[] {
  // Most strings have no token at all (issue #21: the rules' strings of 2,280 bundles at 600 sites, each through matchAll).
  if (!text.includes("%")) return [];
  return [...text.matchAll(TOKEN)].map((m) => m[1]).filter((name) => !/^[0-9A-Fa-f]{2}$/.test(name));
}

/** The cycles among data elements, each as a list of names ending where it started. */
export function findCycles(edges: Record<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const seen = new Set<string>();
  const visit = (name: string, stack: string[]) => {
    if (stack.includes(name)) {
      const cycle = [...stack.slice(stack.indexOf(name)), name];
      const key = [...new Set(cycle)].sort().join(",");
      if (!seen.has(key)) {
        seen.add(key);
        cycles.push(cycle);
      }
      return;
    }
    if (done.has(name)) return;
    for (const next of edges[name] ?? []) visit(next, [...stack, name]);
    done.add(name);
  };
  for (const name of Object.keys(edges)) visit(name, []);
  return cycles;
}

/** The dateAge conditions of a condition tree, with their paths. */
function dateAges(condition: RuleCondition, path: Path, out: Path[]) {
  if (condition.type === "dateAge" && condition.atLeastMonths === undefined && condition.lessThanMonths === undefined) out.push(path);
  else if (condition.type === "not") dateAges(condition.condition, [...path, "condition"], out);
  else if (condition.type === "allOf" || condition.type === "anyOf") condition.conditions.forEach((c, i) => dateAges(c, [...path, "conditions", i], out));
}

function conditionRefs(condition: RuleCondition, path: Path, out: Array<{ path: Path; name: string }>) {
  if (condition.type === "dataElement" || condition.type === "dateAge") out.push({ path: [...path, "name"], name: condition.name });
  else if (condition.type === "not") conditionRefs(condition.condition, [...path, "condition"], out);
  else if (condition.type === "allOf" || condition.type === "anyOf") condition.conditions.forEach((c, i) => conditionRefs(c, [...path, "conditions", i], out));
}

export interface RuleCheckInput {
  settings: Settings;
  /** Modules enabled for this site and environment. */
  enabledModules: string[];
  pick: SourcePicker;
  /** Appended to messages: "(in site/env)". */
  where: string;
}

export function checkRules({ settings, enabledModules, pick, where }: RuleCheckInput): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (body: DiagnosticBody, path: Path, prefer: "key" | "value" = "value") => {
    const picked = pick(path);
    const full = picked.path ?? [...picked.prefix, ...path];
    out.push(diagnosticAtOffset(picked.source, { ...body, message: `${body.message} (in ${where})` }, offsetOf(picked.source, full, prefer), formatPath(full)));
  };
  const names = Object.keys(settings.dataElements);
  const unknown = (name: string, path: Path, what: string) => {
    report(DIAGNOSTICS.unknownDataElement(what, name, nearest(name, names)), path);
  };

  // Data elements: provided values and references between them.
  const provided = new Set<string>([...CORE_PROVIDED_VALUES, ...enabledModules.flatMap((m) => registry[m as ModuleName]?.provides ?? [])]);
  const edges: Record<string, string[]> = {};
  for (const [name, element] of Object.entries(settings.dataElements)) {
    if (element.provided !== undefined && !provided.has(element.provided)) {
      report(DIAGNOSTICS.unknownProvidedValue(element.provided, [...provided], nearest(element.provided, [...provided])), ["dataElements", name, "provided"]);
    }
    edges[name] = [];
    if (typeof element.constant === "string") {
      for (const token of tokensOf(element.constant)) {
        if (names.includes(token)) edges[name].push(token);
        else unknown(token, ["dataElements", name, "constant"], `the token %${token}%`);
      }
    }
  }
  for (const cycle of findCycles(edges)) report(DIAGNOSTICS.dataElementCycle(cycle), ["dataElements", cycle[0], "constant"]);
  // The push: element a name reads, itself or through constants' tokens (undefined when none).
  const pushRead = (name: string, seen: string[] = []): string | undefined => {
    const element = settings.dataElements[name];
    if (!element || seen.includes(name)) return undefined;
    if (element.push !== undefined) return name;
    for (const next of edges[name] ?? []) {
      const found = pushRead(next, [...seen, name]);
      if (found) return found;
    }
    return undefined;
  };

  // Rules: ids, references, commands. A disabled rule does not run, so only its id is checked.
  const ids = new Map<string, number>();
  const where_ = (path: Path) => {
    const picked = pick(path);
    const full = picked.path ?? [...picked.prefix, ...path];
    const pos = picked.source.lines.linePos(offsetOf(picked.source, full));
    return `${picked.source.file}:${pos.line}:${pos.col}`;
  };
  settings.rules.forEach((rule, i) => {
    if (ids.has(rule.id)) report(DIAGNOSTICS.duplicateRule(rule.id, where_(["rules", ids.get(rule.id)!, "id"])), ["rules", i, "id"]);
    else ids.set(rule.id, i);
    if (settings.disabledRules.includes(rule.id)) return;
    const refs: Array<{ path: Path; name: string }> = [];
    rule.conditions.forEach((c, j) => conditionRefs(c, ["rules", i, "conditions", j], refs));
    for (const ref of refs) if (!names.includes(ref.name)) unknown(ref.name, ref.path, "a condition");
    const texts = strings(rule.actions, ["rules", i, "actions"]);
    for (const { path, text } of texts) for (const token of tokensOf(text)) if (!names.includes(token)) unknown(token, path, `the token %${token}%`);
    // push: elements have a value only in a rule a data-layer push triggers.
    if (!rule.events.some((e) => e.type === "dataLayerPush" || e.type === "dataOnly")) {
      const uses = [
        ...refs.map((r) => ({ path: r.path, name: r.name, what: "a condition" })),
        ...texts.flatMap(({ path, text }) => tokensOf(text).map((name) => ({ path, name, what: `the token %${name}%` }))),
      ];
      for (const use of uses) {
        const element = pushRead(use.name);
        if (element) report(DIAGNOSTICS.pushElementOutsidePushRule(use.what, element, String(settings.dataElements[element].push), rule.id), use.path);
      }
    }
    rule.actions.forEach((action, j) => {
      if (action.type !== "command") return;
      if (!enabledModules.includes(action.module)) {
        report(DIAGNOSTICS.moduleNotEnabled(rule.id, action.module, action.name), ["rules", i, "actions", j, "module"]);
        return;
      }
      const commands = registry[action.module as ModuleName]?.commands ?? [];
      if (!commands.includes(action.name)) {
        report(DIAGNOSTICS.unknownCommand(action.module, action.name, commands, nearest(action.name, commands)), ["rules", i, "actions", j, "name"]);
      }
    });
  });
  // Issue 18's capabilities: a dateAge with no bound; a session timer stopped but never started; a traffic touch kept another lifetime than the page views read.
  const started = new Set<string>();
  const active = settings.rules.filter((rule) => !settings.disabledRules.includes(rule.id));
  for (const rule of active) for (const a of rule.actions) if (a.type === "sessionTimer" && a.do === "start") started.add(a.name);
  settings.rules.forEach((rule, i) => {
    if (settings.disabledRules.includes(rule.id)) return;
    const unbounded: Path[] = [];
    rule.conditions.forEach((c, j) => dateAges(c, ["rules", i, "conditions", j], unbounded));
    for (const path of unbounded) report(DIAGNOSTICS.dateAgeNoBound(), [...path, "type"]);
    rule.actions.forEach((a, j) => {
      if (a.type === "sessionTimer" && a.do !== "start" && !started.has(a.name))
        report(DIAGNOSTICS.timerNeverStarted(a.name, rule.id), ["rules", i, "actions", j, "name"]);
      if (a.type === "trafficTouch" && a.historyDays !== settings.analyticsRules.historyDays)
        report(DIAGNOSTICS.trafficHistoryDays(rule.id, a.historyDays, settings.analyticsRules.historyDays), ["rules", i, "actions", j, "historyDays"]);
    });
  });
  settings.disabledRules.forEach((id, i) => {
    if (!ids.has(id)) {
      report(DIAGNOSTICS.unknownRule(id, nearest(id, [...ids.keys()])), ["disabledRules", i]);
    }
  });
  return out;
}

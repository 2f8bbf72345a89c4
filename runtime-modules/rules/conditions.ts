import type { ConsentCategory, EnvName, RuleCondition } from "../../generator/config/bundle-config.js";
import type { PageInfo } from "../core/types";
import { matchValue } from "./match";

export interface ConditionContext {
  page(): PageInfo;
  cookie(name: string): string | undefined;
  dataElement(name: string): unknown;
  consent(category: ConsentCategory): boolean;
  env: EnvName;
  loggedIn(): boolean;
  /** A number in [0, 1) (Math.random in the page; injected in tests). */
  random(): number;
  /** The condition types the bundle carries (the generated entry's table; see ConditionTable). */
  table: ConditionTable;
}

/** A condition of one type. */
export type ConditionOf<K extends RuleCondition["type"]> = RuleCondition & { type: K };

/**
 * The condition types a bundle carries, by type: the generated core entry
 * imports from this file only the functions its rules use (each exported under
 * its type's name), so a condition no rule of the bundle uses is not in the
 * bundle (generator/bundle/features.ts). allRuleFeatures() (features.ts) has them all.
 */
export type ConditionTable = { [K in RuleCondition["type"]]?: (condition: ConditionOf<K>, ctx: ConditionContext) => boolean };

/** Evaluates one condition. Pure over its context; combinators recurse. A type the bundle does not carry fails. */
export function evaluate(condition: RuleCondition, ctx: ConditionContext): boolean {
  const run = ctx.table[condition.type] as ((c: RuleCondition, x: ConditionContext) => boolean) | undefined;
  return run ? run(condition, ctx) : false;
}

export function host(c: ConditionOf<"host">, ctx: ConditionContext): boolean {
  return matchValue(ctx.page().host, c);
}
export function path(c: ConditionOf<"path">, ctx: ConditionContext): boolean {
  return matchValue(ctx.page().path, c);
}
export function query(c: ConditionOf<"query">, ctx: ConditionContext): boolean {
  return matchValue(ctx.page().query.get(c.name) ?? undefined, c);
}
export function cookie(c: ConditionOf<"cookie">, ctx: ConditionContext): boolean {
  return matchValue(ctx.cookie(c.name), c);
}
export function dataElement(condition: ConditionOf<"dataElement">, ctx: ConditionContext): boolean {
  const value = ctx.dataElement(condition.name);
  if (condition.integer !== undefined && (typeof value === "number" && value % 1 === 0) !== condition.integer) return false;
  if (condition.gt !== undefined && !(Number(value) > condition.gt)) return false;
  if (condition.lt !== undefined && !(Number(value) < condition.lt)) return false;
  return condition.gt !== undefined || condition.lt !== undefined || condition.integer !== undefined
    ? matchOrTrue(value, condition)
    : matchValue(value, condition);
}
/**
 * A date's age in whole calendar months (2025-01-15 is 6 months old from
 * 2025-07-15 on): "Six-month flag: last order 6+ months old" (spec section 9).
 * A value that is no date fails.
 */
export function dateAge(c: ConditionOf<"dateAge">, ctx: ConditionContext): boolean {
  const value = ctx.dataElement(c.name);
  // A date-only string is a calendar date where the visitor is: "2025-01-16T00:00" parses as local time, "2025-01-16" alone as UTC.
  const then = new Date(typeof value === "string" ? (value.length === 10 ? value + "T00:00" : value) : typeof value === "number" ? value : NaN);
  const now = new Date();
  const months = (now.getFullYear() - then.getFullYear()) * 12 + now.getMonth() - then.getMonth() - (now.getDate() < then.getDate() ? 1 : 0);
  return months === months && !(months < (c.atLeastMonths ?? 0)) && !(c.lessThanMonths! <= months);
}
export function consent(c: ConditionOf<"consent">, ctx: ConditionContext): boolean {
  return ctx.consent(c.category);
}
export function sampling(c: ConditionOf<"sampling">, ctx: ConditionContext): boolean {
  return ctx.random() * 100 < c.percent;
}
export function loggedIn(c: ConditionOf<"loggedIn">, ctx: ConditionContext): boolean {
  return ctx.loggedIn() === c.value;
}
export function env(c: ConditionOf<"env">, ctx: ConditionContext): boolean {
  return c.in.indexOf(ctx.env) >= 0;
}
export function not(c: ConditionOf<"not">, ctx: ConditionContext): boolean {
  return !evaluate(c.condition, ctx);
}
// Loops, not every/some: no closure per evaluation (issue #21).
export function allOf(c: ConditionOf<"allOf">, ctx: ConditionContext): boolean {
  for (const x of c.conditions) if (!evaluate(x, ctx)) return false;
  return true;
}
export function anyOf(c: ConditionOf<"anyOf">, ctx: ConditionContext): boolean {
  for (const x of c.conditions) if (evaluate(x, ctx)) return true;
  return false;
}

/** With a numeric comparison or an integer check, the string tests apply only when given. */
function matchOrTrue(value: unknown, m: { equals?: string | number | boolean; matches?: string; startsWith?: string; exists?: boolean }): boolean {
  return m.equals === undefined && m.matches === undefined && m.startsWith === undefined && m.exists === undefined ? true : matchValue(value, m);
}

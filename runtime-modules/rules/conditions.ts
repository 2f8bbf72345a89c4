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
}

/** Evaluates one condition. Pure over its context; combinators recurse. */
export function evaluate(condition: RuleCondition, ctx: ConditionContext): boolean {
  switch (condition.type) {
    case "host":
      return matchValue(ctx.page().host, condition);
    case "path":
      return matchValue(ctx.page().path, condition);
    case "query":
      return matchValue(ctx.page().query.get(condition.name) ?? undefined, condition);
    case "cookie":
      return matchValue(ctx.cookie(condition.name), condition);
    case "dataElement": {
      const value = ctx.dataElement(condition.name);
      if (condition.integer !== undefined && (typeof value === "number" && value % 1 === 0) !== condition.integer) return false;
      if (condition.gt !== undefined && !(Number(value) > condition.gt)) return false;
      if (condition.lt !== undefined && !(Number(value) < condition.lt)) return false;
      return condition.gt !== undefined || condition.lt !== undefined || condition.integer !== undefined
        ? matchOrTrue(value, condition)
        : matchValue(value, condition);
    }
    case "consent":
      return ctx.consent(condition.category);
    case "sampling":
      return ctx.random() * 100 < condition.percent;
    case "loggedIn":
      return ctx.loggedIn() === condition.value;
    case "env":
      return condition.in.indexOf(ctx.env) >= 0;
    case "not":
      return !evaluate(condition.condition, ctx);
    case "allOf":
      return condition.conditions.every((c) => evaluate(c, ctx));
    case "anyOf":
      return condition.conditions.some((c) => evaluate(c, ctx));
    default:
      return false;
  }
}

/** With a numeric comparison or an integer check, the string tests apply only when given. */
function matchOrTrue(value: unknown, m: { equals?: string | number | boolean; matches?: string; startsWith?: string; exists?: boolean }): boolean {
  return m.equals === undefined && m.matches === undefined && m.startsWith === undefined && m.exists === undefined ? true : matchValue(value, m);
}

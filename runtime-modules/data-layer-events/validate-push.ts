/**
 * The non-production check of data-layer pushes against their documented
 * shapes (shapes.ts). Production bundles do not import this file. It only
 * warns: the push is processed as usual whatever it finds.
 */
import type { Logger } from "../core/types";
import { EVENT_SHAPES, type FieldType, type Fields } from "./shapes";
import { isObject } from "../core/is-object";

/** "is required": a required field is missing (or undefined). */
export const IS_REQUIRED = "is required";

/** `data layer push "list-change": field "newTotalItemsInList" must be an integer, got "3"` */
export function pushProblem(event: string, field: string, problem: string): string {
  return 'data layer push "' + event + '": field "' + field + '" ' + problem;
}

/** `unknown event "serch" (did you mean "search"?)` */
export function unknownEvent(event: string, suggestion: string): string {
  return 'unknown event "' + event + '" (did you mean "' + suggestion + '"?)';
}

/** The problem of a field the event does not document whose name is close to one it does. */
export function notDocumented(suggestion: string): string {
  return 'is not documented (did you mean "' + suggestion + '"?)';
}

/** [field path, problem, value] */
type Problem = [string, string, unknown];

const NUMERIC = /^-?\d+(\.\d+)?$/;

/** Edit distance (insertions, deletions, substitutions and swaps of neighbours count 1). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    d[i] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (!i) d[i][j] = j;
      else {
        d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/**
 * The name in `names` closest to `name` when it is a likely typo: edit
 * distance 1 or 2, and at most a third of the name's length (so a short name
 * of the application's own, "load", is not taken for "qotd").
 */
export function closestName(name: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of names) {
    if (Math.abs(candidate.length - name.length) > 2) continue;
    const distance = editDistance(name, candidate);
    if (distance > 0 && distance < bestDistance && distance * 3 <= name.length) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function isList(type: FieldType): type is readonly [Fields] {
  return Array.isArray(type);
}

/** How a value shows in a warning: strings quoted (cut to 40 characters), lists and objects by kind. */
function shown(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…" : v);
  if (Array.isArray(v)) return "a list";
  if (v === null) return "null";
  return typeof v === "object" ? "an object" : typeof v === "function" ? "a function" : String(v);
}

function label(member: string): string {
  if (member === "string" || member === "number") return "a " + member;
  if (member === "integer") return "an integer";
  if (member === "boolean") return "true or false";
  return NUMERIC.test(member) ? member : '"' + member + '"';
}

function matches(v: unknown, member: string): boolean {
  if (member === "string") return typeof v === "string";
  if (member === "number") return typeof v === "number" && isFinite(v);
  if (member === "integer") return typeof v === "number" && isFinite(v) && Math.floor(v) === v;
  if (member === "boolean") return typeof v === "boolean";
  if (member === "unknown") return true;
  return NUMERIC.test(member) ? v === +member : v === member;
}

/** Checks a value against a type string without its "?". */
function checkType(v: unknown, type: string, path: string, out: Problem[]): void {
  const list = type.slice(-2) === "[]";
  const members = (list ? type.slice(0, -2) : type).split("|");
  const bad = (x: unknown) => !members.some((m) => matches(x, m));
  const expected = "must be " + members.map(label).join(" or ");
  if (!list) {
    if (bad(v)) out.push([path, expected + ", got " + shown(v), v]);
  } else if (!Array.isArray(v)) out.push([path, "must be a list, got " + shown(v), v]);
  else {
    // One warning per list: its first bad item.
    for (let i = 0; i < v.length; i++) if (bad(v[i])) return void out.push([path + "[" + i + "]", expected + ", got " + shown(v[i]), v[i]]);
  }
}

function checkField(v: unknown, type: FieldType, path: string, out: Problem[]): void {
  if (typeof type === "string") checkType(v, type.replace(/\?$/, ""), path, out);
  else if (isList(type)) {
    if (!Array.isArray(v)) return void out.push([path, "must be a list, got " + shown(v), v]);
    const before = out.length;
    for (let i = 0; i < v.length && out.length === before; i++) checkField(v[i], type[0], path + "[" + i + "]", out);
  } else if (!isObject(v)) out.push([path, "must be an object, got " + shown(v), v]);
  else checkFields(v, type, path + ".", out);
}

/**
 * Checks an object's fields. A key the event does not document is reported
 * only when it looks like a typo of a documented field that is missing; then
 * that field is not reported missing as well.
 */
function checkFields(value: Record<string, unknown>, fields: Fields, prefix: string, out: Problem[], skip?: string): void {
  const keys = Object.keys(fields);
  const names = keys.map((k) => k.replace(/\?$/, ""));
  const has = (name: string) => Object.prototype.hasOwnProperty.call(value, name) && value[name] !== undefined;
  const missing = names.filter((name) => !has(name));
  const covered: string[] = [];
  for (const key of Object.keys(value)) {
    if (key === skip || names.indexOf(key) >= 0) continue;
    const near = closestName(key, missing);
    if (near) {
      covered.push(near);
      out.push([prefix + key, notDocumented(prefix + near), value[key]]);
    }
  }
  keys.forEach((key, i) => {
    const name = names[i];
    const type = fields[key];
    if (has(name)) checkField(value[name], type, prefix + name, out);
    else if (key === name && !(typeof type === "string" && type.slice(-1) === "?") && covered.indexOf(name) < 0)
      out.push([prefix + name, IS_REQUIRED, undefined]);
  });
}

/**
 * Checks a push whose `event` is documented against its shape and logs one
 * warning per problem, naming the event and the field. An undocumented event
 * name is the application's own and is let be, unless it looks like a typo of
 * a documented one. Data-only pushes are not checked. Never throws.
 */
export function validatePush(push: Record<string, unknown>, log: Logger): void {
  try {
    const event = push.event;
    if (typeof event !== "string") return;
    const shapes: Record<string, Fields> = EVENT_SHAPES;
    if (!Object.prototype.hasOwnProperty.call(shapes, event)) {
      const near = closestName(event, Object.keys(shapes));
      if (near) log.warn(unknownEvent(event, near), { event, suggestion: near });
      return;
    }
    const out: Problem[] = [];
    checkFields(push, shapes[event], "", out, "event");
    for (const [field, problem, value] of out) log.warn(pushProblem(event, field, problem), { event, field, value });
  } catch (e) {
    // A check never fails the push.
  }
}

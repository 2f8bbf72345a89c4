import type { DataElement } from "../../generator/config/bundle-config.js";
import type { Cookies, Logger, PageInfo } from "../core/types";
import { DATA_ELEMENT_CIRCULAR, DATA_ELEMENT_FAILED, DATA_ELEMENT_UNKNOWN } from "../core/messages";
import { errorText } from "../core/log";
import { readPath } from "./data-layer";

/** Spec section 9: "data-element circular reference depth 10". */
export const MAX_DEPTH = 10;
const TOKEN = /%([A-Za-z][A-Za-z0-9_.-]*)%/g;
const STORE_PREFIX = "sitetags:de:";

export interface DataElementDeps {
  page: () => PageInfo;
  cookies: Pick<Cookies, "get">;
  dataLayer: { get(path: string): unknown };
  win: Window;
  provided: (name: string) => unknown;
  log: Logger;
  /** The list options, when the bundle's data elements use them (features.ts). */
  lists?: Lists;
}

export interface DataElements {
  get(name: string): unknown;
  /**
   * The same elements for a rule run that a data-layer push triggered:
   * `push:` sources read that push (elsewhere they have no value). `spare`, a
   * scope forPush made that nothing holds any more, is pointed at this push
   * instead of a new one made (issue #21).
   */
  forPush(push: unknown, spare?: DataElements): DataElements;
  /** Replaces %name% tokens in a string. */
  resolve(text: string): string;
  /** Resolves tokens in every string of a value (objects and lists too). */
  resolveDeep<T>(value: T): T;
  /** Forgets page-view values (a new SPA page view). */
  newPageView(): void;
  /**
   * Until the returned release: each `dataLayer:` element is read once and
   * its value shared (the rules of one push, run synchronously: the data
   * layer's state cannot change meanwhile; issue #21).
   */
  hold?(): () => void;
}

function empty(v: unknown): boolean {
  return v === undefined || v === null || v === "";
}

function storageOf(win: Window, kind: string): Storage | undefined {
  try {
    return kind === "visitor" ? win.localStorage : kind === "session" ? win.sessionStorage : undefined;
  } catch {
    return undefined;
  }
}

/** One item of a joined list: itself, or the named fields of an object joined by the separator (":"), "" when it has none of them. */
function itemText(item: unknown, fields: readonly string[] | undefined, separator: string): string {
  if (!fields) return empty(item) || typeof item === "object" ? "" : String(item);
  const o = item && typeof item === "object" ? (item as Record<string, unknown>) : {};
  const texts = fields.map((f) => (empty(o[f]) ? "" : String(o[f])));
  return texts.join("") ? texts.join(separator) : "";
}

/**
 * The list options unique, sort and reduce (count, max), then join. Only in
 * the cores of bundles whose data elements use them (the feature `elements.lists`,
 * runtime-modules/rules/features.ts, generator/bundle/features.ts).
 */
export function lists(items: string[], def: Pick<DataElement, "join" | "unique" | "sort" | "reduce">): unknown {
  if (def.unique) items = items.filter((t, i) => items.indexOf(t) === i);
  if (def.sort) items.sort();
  if (def.reduce === "count") return items.length;
  if (def.reduce) {
    const numbers = items.map(Number).filter((n) => n === n);
    return numbers.length ? Math.max(...numbers) : undefined;
  }
  return items.join(def.join);
}
export type Lists = typeof lists;

/**
 * Applies the element's options: a list's items (blank ones left out; an
 * object is a list of one: an award, its id, name and year with fields) become
 * one text (join), or with `lists` (the bundle's list options) also each once,
 * sorted, a count or their largest number; then lookup, clean (trim, collapse
 * white space), lowercase, truncate.
 */
export function shapeValue(
  value: unknown,
  def: Pick<DataElement, "clean" | "lowercase" | "join" | "fields" | "fieldSeparator" | "lookup" | "truncate" | "unique" | "sort" | "reduce">,
  listOptions?: Lists,
): unknown {
  if ((def.join !== undefined || def.reduce) && value && typeof value == "object") {
    const items = ([] as unknown[])
      .concat(value)
      .map((item) => itemText(item, def.fields, def.fieldSeparator || ":"))
      .filter(Boolean);
    value = listOptions ? listOptions(items, def) : items.join(def.join);
  }
  if (def.lookup) {
    // Only the table's own entries ("toString" is no entry); a value it does not name has none.
    value = def.lookup[String(value)];
    if (typeof value != "string") return;
  }
  if (typeof value !== "string") return value;
  let text = value;
  if (def.clean) text = text.replace(/\s+/g, " ").trim();
  if (def.lowercase) text = text.toLowerCase();
  if (def.truncate) text = text.slice(0, def.truncate);
  return text;
}

/** A scope of createDataElements: the push its `push:` sources read. */
type Scope = DataElements & { push: unknown };

export function createDataElements(defs: Record<string, DataElement>, deps: DataElementDeps): DataElements {
  // Own entries only: a `%constructor%` or an element named `toString` is no Object.prototype member.
  defs = Object.assign(Object.create(null), defs);
  let pageView: Record<string, unknown> = {};

  function read(def: DataElement, depth: number, push: unknown): unknown {
    const { win } = deps;
    if (def.push !== undefined) return push && typeof push === "object" ? readPath(push, def.push) : undefined;
    if (def.cookie !== undefined) return deps.cookies.get(def.cookie);
    if (def.query !== undefined) return deps.page().query.get(def.query) ?? undefined;
    if (def.localStorage !== undefined) return storageOf(win, "visitor")?.getItem(def.localStorage) ?? undefined;
    if (def.sessionStorage !== undefined) return storageOf(win, "session")?.getItem(def.sessionStorage) ?? undefined;
    if (def.dataLayer !== undefined) return deps.dataLayer.get(def.dataLayer);
    if (def.global !== undefined) return readPath(win, def.global);
    if (def.dom !== undefined) {
      const element = win.document.querySelector(def.dom.selector);
      if (!element) return undefined;
      return def.dom.attribute ? (element.getAttribute(def.dom.attribute) ?? undefined) : (element.textContent ?? undefined);
    }
    if (def.constant !== undefined) return typeof def.constant === "string" ? resolveAt(def.constant, depth, push) : def.constant;
    if (def.page !== undefined) {
      const page = deps.page();
      return def.page === "title" ? win.document.title : def.page === "url" ? page.href : def.page === "query" ? page.query.toString() : page[def.page];
    }
    if (def.provided !== undefined) return deps.provided(def.provided);
    return undefined;
  }

  /**
   * The held values (see hold()): each element read while held has a slot
   * (its number, given at its first read); a slot's value counts while its
   * stamp is the current hold's. Nothing is made per hold (issue #21).
   */
  const slots: Record<string, number> = Object.create(null);
  const values: unknown[] = [];
  const stamps: number[] = [];
  /** The current hold's number; 0 while nothing is held. */
  let held = 0;
  let holds = 0;

  function getAt(name: string, depth: number, push: unknown): unknown {
    const def = defs[name];
    if (!held || !def || def.dataLayer === undefined) return readElement(name, def, depth, push);
    const slot = slots[name] ?? (slots[name] = stamps.push(0) - 1);
    if (stamps[slot] !== held) {
      values[slot] = readElement(name, def, depth, push);
      stamps[slot] = held;
    }
    return values[slot];
  }

  function readElement(name: string, def: DataElement | undefined, depth: number, push: unknown): unknown {
    if (depth > MAX_DEPTH) {
      deps.log.error(DATA_ELEMENT_CIRCULAR, { name, depth });
      return undefined;
    }
    if (!def) {
      deps.log.warn(DATA_ELEMENT_UNKNOWN, { name });
      return undefined;
    }
    let value: unknown;
    try {
      value = read(def, depth, push);
    } catch (e) {
      deps.log.warn(DATA_ELEMENT_FAILED, { name, error: errorText(e) });
    }
    const store = storageOf(deps.win, def.storage);
    if (def.storage === "none") {
      // Nothing remembered.
    } else if (!empty(value)) {
      if (def.storage === "pageView") pageView[name] = value;
      else
        try {
          store?.setItem(STORE_PREFIX + name, JSON.stringify(value));
        } catch {
          /* storage full or blocked: the value still counts for now */
        }
    } else if (def.storage === "pageView") value = pageView[name];
    else
      try {
        const stored = store?.getItem(STORE_PREFIX + name);
        if (stored) value = JSON.parse(stored);
      } catch {
        value = undefined;
      }
    if (empty(value)) value = def.default;
    return shapeValue(value, def, deps.lists);
  }

  /**
   * Each text's pieces, split once at its first use (issue #21): text, token
   * name, text, ..., text. Never emptied, and bounded all the same: the only
   * texts resolved are the config's (actions' values, constant elements), never
   * a value read from the page, and only those with a "%" are kept.
   */
  const pieces: Record<string, string[]> = {};

  function resolveAt(text: string, depth: number, push: unknown): string {
    if (text.indexOf("%") < 0) return text;
    const parts = pieces[text] || (pieces[text] = text.split(TOKEN));
    let out = parts[0];
    for (let i = 1; i < parts.length; i += 2) {
      const name = parts[i];
      // A name that is no data element stays as it was written.
      const value = defs[name] ? getAt(name, depth + 1, push) : "%" + name + "%";
      out += (empty(value) ? "" : String(value)) + parts[i + 1];
    }
    return out;
  }

  function resolveDeepAt<T>(value: T, push: unknown): T {
    if (typeof value === "string") return resolveAt(value, 0, push) as T;
    if (Array.isArray(value)) return value.map((item) => resolveDeepAt(item, push)) as T;
    if (value && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) out[key] = resolveDeepAt((value as Record<string, unknown>)[key], push);
      return out as T;
    }
    return value;
  }

  const newPageView = () => void (pageView = {});
  const release = () => void (held = 0);
  const hold = () => ((held = ++holds), release);

  // A scope per push, or a spare one pointed at it (issue #21): its three closures read the push it holds.
  function scoped(push: unknown, spare?: DataElements): DataElements {
    if (spare) return (((spare as Scope).push = push), spare);
    const scope: Scope = {
      push,
      get: (name) => getAt(name, 0, scope.push),
      forPush: scoped,
      resolve: (text) => resolveAt(text, 0, scope.push),
      resolveDeep: (value) => resolveDeepAt(value, scope.push),
      newPageView,
      hold,
    };
    return scope;
  }

  return scoped(undefined);
}

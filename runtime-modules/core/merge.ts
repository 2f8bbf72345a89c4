/**
 * The one deep merge of the code base (the Edge client's xdm and datastream
 * overrides, the data layer's computed state, the generator's config
 * layers). Pure: no DOM, no Node, so the generator imports it too.
 *
 * Guarded against prototype pollution: only the source's own keys are read,
 * and `__proto__`, `constructor` and `prototype` are skipped, so an object
 * built by JSON.parse('{"__proto__": …}') changes no prototype.
 */

/** Keys never merged: through them an assignment reaches a prototype. */
export function unsafeKey(key: string): boolean {
  return key === "__proto__" || key === "constructor" || key === "prototype";
}

/** A plain object (object literal, JSON.parse or null prototype). Lists, DOM nodes, dates, class instances are values. */
export function isPlain(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Merges source into target and returns target: plain objects merge key by
 * key (into fresh copies, so target never shares the source's objects);
 * everything else, lists too, replaces. An object already being merged
 * higher up (a cycle) is kept as a value, not followed. `skip`: a key of the
 * source's top level left out (the data layer's `event`, without a copy of each push).
 */
export function mergeInto<T extends Record<string, unknown>>(target: T, source: unknown, open: unknown[] = [], skip?: string): T {
  if (!isPlain(source)) return target;
  const t = target as Record<string, unknown>;
  open.push(source);
  for (const key of Object.keys(source)) {
    if (unsafeKey(key) || key === skip) continue;
    const value = source[key];
    if (isPlain(value) && open.indexOf(value) < 0) {
      if (!isPlain(t[key]) || !Object.prototype.hasOwnProperty.call(t, key)) t[key] = {};
      mergeInto(t[key] as Record<string, unknown>, value, open);
    } else t[key] = value;
  }
  open.pop();
  return target;
}

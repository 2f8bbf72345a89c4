/** A plain object (not null, not an array): the shape of JSON objects, data-layer pushes and xdm. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

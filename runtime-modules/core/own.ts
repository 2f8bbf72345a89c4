/** A table's own entry, never one inherited from Object.prototype ("constructor", "__proto__"). */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

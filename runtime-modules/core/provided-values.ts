import type { ProvidedValues } from "./types";

/** Values for `provided:` data elements: constants from boot, getters from modules. */
export function createProvidedValues(initial: Record<string, unknown>): ProvidedValues {
  const readers: Record<string, () => unknown> = {};
  for (const name of Object.keys(initial)) readers[name] = () => initial[name];
  return {
    provide(name, read) {
      readers[name] = read;
    },
    get(name) {
      const read = readers[name];
      return read ? read() : undefined;
    },
  };
}

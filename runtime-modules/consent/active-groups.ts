import type { ConsentCategory, ConsentSettings } from "../../generator/config/bundle-config.js";

export type GroupIds = ConsentSettings["groups"];

/** The banner's active-groups string (",C0001,C0002,") as a list; anything else is empty. */
export function parseActiveGroups(value: unknown): string[] {
  if (typeof value !== "string") return [];
  return value
    .split(",")
    .map((g) => g.trim())
    .filter((g) => g.length > 0);
}

/** "Consent group 'C' needed": some active group starts with the required id. */
export function hasRequiredGroup(active: readonly string[], ids: GroupIds): boolean {
  return active.some((g) => g.indexOf(ids.required) === 0);
}

/** Whether the active groups grant a category: the required group and the category's own id (whole entries). */
export function groupsGrant(active: readonly string[], ids: GroupIds, category: ConsentCategory): boolean {
  return hasRequiredGroup(active, ids) && active.indexOf(ids[category]) >= 0;
}

import type { ConsentCategory, ConsentSettings } from "../../generator/config/bundle-config.js";

/**
 * The consent decision, from the banner's active groups string
 * (",C0001,C0002,"): "Internal sites always allow." Otherwise a category is
 * allowed when the groups string holds a group starting with the required
 * id (consent group 'C', i.e. the banner has recorded a choice) and the
 * category's own group id (performance → C0002, functional → C0003, ...;
 * the program categories use their program group ids). No groups string
 * (banner not there yet) is pre-opt-in: everything off.
 */
export function activeGroupsAllow(
  category: ConsentCategory,
  activeGroups: string | undefined,
  groups: ConsentSettings["groups"],
  internal: boolean,
): boolean {
  if (internal) return true;
  if (typeof activeGroups !== "string") return false;
  const active = activeGroups.split(",").map((g) => g.trim());
  const required = groups.required;
  if (required && !active.some((g) => g.indexOf(required) === 0)) return false;
  return active.indexOf(groups[category]) >= 0;
}

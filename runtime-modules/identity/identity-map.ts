export interface IdentityEntry {
  id: string;
  authenticatedState: "ambiguous" | "authenticated";
  primary: boolean;
}

/** The xdm identityMap: namespace → ids. */
export type IdentityMap = Record<string, IdentityEntry[]>;

export interface IdentityIds {
  /** First-party id (fpid.js). */
  fpid?: unknown;
  crmId?: unknown;
  aaCustomId?: unknown;
  /** The sign-in account id. */
  peopleId?: unknown;
}

/** "Identity with non-empty-string id only." */
export function idString(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

/**
 * "Identity map namespaces: FPID, crm_id, AACUSTOMID, CBPEOPLEID (last is
 * primary and authenticated)." The others are ambiguous and not primary;
 * a namespace without a non-empty string id is left out.
 */
export function identityMap(ids: IdentityIds): IdentityMap {
  const map: IdentityMap = {};
  const add = (namespace: string, value: unknown, main: boolean) => {
    const id = idString(value);
    if (id) map[namespace] = [{ id, authenticatedState: main ? "authenticated" : "ambiguous", primary: main }];
  };
  add("FPID", ids.fpid, false);
  add("crm_id", ids.crmId, false);
  add("AACUSTOMID", ids.aaCustomId, false);
  add("CBPEOPLEID", ids.peopleId, true);
  return map;
}

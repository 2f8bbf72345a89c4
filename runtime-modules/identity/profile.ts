import type { IdentityMap } from "./identity-map";
import type { SignInFacts } from "./sign-in-facts";
import type { IdentitySource } from "./source";
import { educationPeriodCode, gradeLevel, parseGraduationYear } from "./education";
import { identityMap, idString } from "./identity-map";
import { flag, textOf } from "./sign-in-facts";

/** "Account types: ECL (student) and EPL (professional) ... Namespace st means student and pf means professional." */
export type AccountType = "ECL" | "EPL";

export interface RolePair {
  roleId: string;
  orgId: string;
}

export interface IdentityProfile {
  source: IdentitySource;
  accountType?: AccountType;
  namespace?: "st" | "pf";
  accountId?: string;
  hashedId?: string;
  /** Affiliated organisation: "orgId defaults to 'No Data'". */
  orgId: string;
  orgName?: string;
  /** Cohort: the graduation year (yyyy); "Professional" for professionals. */
  graduationYear?: number | "Professional";
  gradeLevel?: number | "Professional";
  educationPeriodCode: number;
  jobTitle?: string;
  jobTitleCode?: string;
  legacy: boolean;
  studentSearchOptIn: boolean;
  customerService: boolean;
  roles: RolePair[];
  eodbId?: string;
  tenantType?: string;
  identityMap: IdentityMap;
}

/** ECL or EPL from the profile type, else from the namespace (st, pf); undefined if neither says. */
export function accountTypeOf(profileType: unknown, namespace: unknown): AccountType | undefined {
  const type = typeof profileType === "string" ? profileType.trim().toUpperCase() : "";
  if (type === "ECL" || type === "EPL") return type;
  const ns = typeof namespace === "string" ? namespace.trim().toLowerCase() : "";
  return ns === "st" ? "ECL" : ns === "pf" ? "EPL" : undefined;
}

/** Role id and organisation id pairs from [{roleId, orgId}] or [[roleId, orgId]]; incomplete pairs are dropped. */
export function rolePairs(value: unknown): RolePair[] {
  if (!Array.isArray(value)) return [];
  const pairs: RolePair[] = [];
  for (const item of value) {
    const raw = Array.isArray(item) ? { roleId: item[0], orgId: item[1] } : item && typeof item === "object" ? (item as Record<string, unknown>) : {};
    const roleId = textOf(raw.roleId);
    const orgId = textOf(raw.orgId);
    if (roleId && orgId) pairs.push({ roleId, orgId });
  }
  return pairs;
}

/**
 * The identity profile from the merged sign-in facts. Students (ECL) get
 * job title "Student" and, when the graduation year parses as yyyy, that
 * year and its grade level; professionals (EPL) get "Professional" for year
 * and grade and keep their own job title. fpid is the first-party id.
 */
export function buildIdentityProfile(source: IdentitySource, facts: SignInFacts, now: Date, fpid?: string): IdentityProfile {
  const accountType = accountTypeOf(facts.profileType, facts.namespace);
  const year = parseGraduationYear(facts.gradYear);
  const accountId = idString(facts.accountId);
  const profile: IdentityProfile = {
    source,
    accountType,
    namespace: accountType === "ECL" ? "st" : accountType === "EPL" ? "pf" : undefined,
    accountId,
    hashedId: idString(facts.hashedId),
    orgId: textOf(facts.orgId) || "No Data",
    orgName: textOf(facts.orgName),
    educationPeriodCode: educationPeriodCode(now),
    jobTitle: textOf(facts.jobTitle),
    jobTitleCode: textOf(facts.jobTitleCode),
    legacy: flag(facts.legacy),
    studentSearchOptIn: flag(facts.sssOptIn),
    customerService: flag(facts.csr),
    roles: rolePairs(facts.roPairs),
    eodbId: textOf(facts.eodbId),
    tenantType: textOf(facts.tenantType),
    identityMap: identityMap({ fpid, crmId: facts.crmId, aaCustomId: facts.aaCustomId, peopleId: accountId }),
  };
  if (accountType === "EPL") {
    profile.graduationYear = "Professional";
    profile.gradeLevel = "Professional";
  } else if (year !== undefined) {
    profile.graduationYear = year;
    profile.gradeLevel = gradeLevel(year, now);
  }
  if (accountType === "ECL") profile.jobTitle = "Student";
  return profile;
}

/** The profile's facts data elements read (`provided: NAME`, docs/identity.md): as they are; flags "Y"/"N"; roles "roleId:orgId" pairs joined by "|". */
const FIELDS = [
  "accountId",
  "hashedId",
  "accountType",
  "namespace",
  "orgId",
  "orgName",
  "graduationYear",
  "gradeLevel",
  "educationPeriodCode",
  "jobTitle",
  "jobTitleCode",
  "eodbId",
  "tenantType",
  "source",
] as const;
const FLAGS = ["legacy", "studentSearchOptIn", "customerService"] as const;

/** Provides the current profile's facts; none while there is no profile (an anonymous visitor's records carry no identity). */
export function provideProfile(values: { provide(name: string, read: () => unknown): void }, current: () => IdentityProfile | undefined): void {
  const each = (name: string, read: (p: IdentityProfile) => unknown) =>
    values.provide(name, () => {
      const p = current();
      return p && read(p);
    });
  for (const k of FIELDS) each(k, (p) => p[k]);
  for (const k of FLAGS) each(k, (p) => (p[k] ? "Y" : "N"));
  each("roles", (p) => p.roles.map((r) => r.roleId + ":" + r.orgId).join("|"));
  each("identityMap", (p) => (Object.keys(p.identityMap).length ? p.identityMap : undefined));
}

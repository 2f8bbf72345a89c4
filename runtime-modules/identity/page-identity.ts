import type { SignInFacts } from "./sign-in-facts";
import { parseGraduationYear } from "./education";
import { idString } from "./identity-map";
import { rolePairs } from "./profile";

/** The identity push's text fields: a non-empty string each. */
const TEXTS = ["hashedId", "orgId", "orgName", "jobTitle", "jobTitleCode", "eodbId", "tenantType"] as const;

/**
 * The sign-in facts of an identity push (docs/events.md, identity), each
 * value checked by the spec's rules: "Identity with non-empty-string id
 * only"; "Graduation year must parse as a number (yyyy)"; namespace st or
 * pf ("Namespace st means student and pf means professional", which also
 * gives the account type ECL or EPL); roles as role id and organisation id
 * pairs; flags true or false; texts non-empty strings. A value that fails
 * its check is left out and its field named in `dropped`. The grade level
 * and the job title of a student are the spec's own rules, derived from the
 * graduation year and the account type: the push's gradeLevel is not read.
 */
export function pageIdentity(push: Record<string, unknown>): { facts: SignInFacts; dropped: string[] } {
  const facts: SignInFacts = {};
  const dropped: string[] = [];
  const take = (field: string, ok: boolean, set: () => void) => {
    if (push[field] === undefined) return;
    if (ok) set();
    else dropped.push(field);
  };
  take("accountId", !!idString(push.accountId), () => (facts.accountId = push.accountId));
  take("namespace", push.namespace === "st" || push.namespace === "pf", () => {
    facts.namespace = push.namespace;
    facts.profileType = push.namespace === "st" ? "ECL" : "EPL";
  });
  for (const field of ["graduationYear", "cohortYear"]) take(field, parseGraduationYear(push[field]) !== undefined, () => (facts.gradYear = push[field]));
  for (const field of TEXTS) take(field, typeof push[field] === "string" && !!(push[field] as string).trim(), () => (facts[field] = push[field]));
  take("legacy", typeof push.legacy === "boolean", () => (facts.legacy = push.legacy));
  take("studentSearchOptIn", typeof push.studentSearchOptIn === "boolean", () => (facts.sssOptIn = push.studentSearchOptIn));
  const roles = push.roles;
  take("roles", Array.isArray(roles) && rolePairs(roles).length === roles.length, () => (facts.roPairs = roles));
  return { facts, dropped };
}

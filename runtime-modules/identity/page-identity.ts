import type { SignInFacts } from "./sign-in-facts";
import { FACT_KEYS } from "./sign-in-facts";
import { parseGraduationYear } from "./education";
import { idString } from "./identity-map";
import { rolePairs } from "./profile";

/** The identity push's fields that the sign-in facts name otherwise; the others share their names. */
const RENAMED: Record<string, keyof SignInFacts> = { graduationYear: "gradYear", cohortYear: "gradYear", studentSearchOptIn: "sssOptIn", roles: "roPairs" };
/** A fact's check: "Identity with non-empty-string id only"; "Graduation year must parse as a number (yyyy)"; the others below; a text: a non-empty string. */
function valid(fact: keyof SignInFacts, v: unknown): boolean {
  switch (fact) {
    case "accountId":
      return !!idString(v);
    case "gradYear":
      return !!parseGraduationYear(v);
    case "namespace":
      return v === "st" || v === "pf";
    case "legacy":
    case "sssOptIn":
      return typeof v === "boolean";
    case "roPairs":
      return Array.isArray(v) && rolePairs(v).length === v.length;
  }
  return typeof v === "string" && !!v.trim();
}

/**
 * The sign-in facts of an identity push (docs/events.md, identity), each
 * value checked by the spec's rules: "Identity with non-empty-string id
 * only"; "Graduation year must parse as a number (yyyy)"; namespace st or
 * pf ("Namespace st means student and pf means professional": it decides
 * the account type, so the cookies' profile type is set aside); roles as
 * role id and organisation id pairs; flags true or false; texts non-empty
 * strings. A value that fails its check is left out and its field named in
 * `dropped`. Fields that are no sign-in fact (event, gradeLevel: the spec
 * derives the grade level from the graduation year) are not read.
 */
export function pageIdentity(push: Record<string, unknown>): { facts: SignInFacts; dropped: string[] } {
  const facts: SignInFacts = {};
  const dropped: string[] = [];
  for (const field in push) {
    const fact = RENAMED[field] || (field as keyof SignInFacts);
    const value = push[field];
    if (FACT_KEYS.indexOf(fact) < 0 || value === undefined) continue;
    if (!valid(fact, value)) dropped.push(field);
    else {
      facts[fact] = value;
      if (fact === "namespace") facts.profileType = undefined;
    }
  }
  return { facts, dropped };
}

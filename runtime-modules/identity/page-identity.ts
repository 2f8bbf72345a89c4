import type { SignInFacts } from "./sign-in-facts";
import { FACT_KEYS } from "./sign-in-facts";
import { parseGraduationYear } from "./education";
import { idString } from "./identity-map";
import { rolePairs } from "./profile";

/** The identity push's fields that the sign-in facts name otherwise; the others share their names. */
const RENAMED: Record<string, keyof SignInFacts> = { graduationYear: "gradYear", cohortYear: "gradYear", studentSearchOptIn: "sssOptIn", roles: "roPairs" };
const isFlag = (v: unknown) => typeof v === "boolean";
/** The checks of the facts that are not plain texts (a text: a non-empty string). */
const CHECKS: { [K in keyof SignInFacts]?: (v: unknown) => boolean } = {
  accountId: (v) => !!idString(v),
  gradYear: (v) => !!parseGraduationYear(v),
  namespace: (v) => v === "st" || v === "pf",
  legacy: isFlag,
  sssOptIn: isFlag,
  roPairs: (v) => Array.isArray(v) && rolePairs(v).length === v.length,
};

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
    const check = CHECKS[fact];
    if (!(check ? check(value) : typeof value === "string" && value.trim())) dropped.push(field);
    else {
      facts[fact] = value;
      if (fact === "namespace") facts.profileType = undefined;
    }
  }
  return { facts, dropped };
}

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pageIdentity } from "../../../../runtime-modules/identity/page-identity";
import { buildIdentityProfile } from "../../../../runtime-modules/identity/profile";

describe("pageIdentity: the identity push's values, checked by the spec's rules", () => {
  it("takes every valid documented value as the sign-in fact it stands for", () => {
    const { facts, dropped } = pageIdentity({
      accountId: "1000234",
      hashedId: "h-1",
      namespace: "pf",
      orgId: "ORG-1",
      orgName: "Springfield High",
      graduationYear: 2027,
      jobTitle: "Counselor",
      jobTitleCode: "CNS",
      legacy: true,
      studentSearchOptIn: false,
      roles: [{ roleId: "educator", orgId: "ORG-1" }],
      eodbId: "E-1",
      tenantType: "school",
    });
    expect(dropped).toEqual([]);
    expect(facts).toEqual({
      accountId: "1000234",
      hashedId: "h-1",
      namespace: "pf",
      orgId: "ORG-1",
      orgName: "Springfield High",
      gradYear: 2027,
      jobTitle: "Counselor",
      jobTitleCode: "CNS",
      legacy: true,
      sssOptIn: false,
      roPairs: [{ roleId: "educator", orgId: "ORG-1" }],
      eodbId: "E-1",
      tenantType: "school",
    });
  });

  it('"Identity with non-empty-string id only"; "Graduation year must parse as a number (yyyy)": the failing values are named and left out', () => {
    const { facts, dropped } = pageIdentity({
      accountId: 1000234,
      namespace: "ECL",
      graduationYear: "27",
      cohortYear: "soon",
      orgId: "   ",
      legacy: "Y",
      roles: [{ roleId: "educator", orgId: "ORG-1" }, { roleId: "x" }],
    });
    expect(dropped).toEqual(["accountId", "namespace", "graduationYear", "cohortYear", "orgId", "legacy", "roles"]);
    expect(facts).toEqual({});
  });

  it("the namespace decides the account type: the cookies' profile type is set aside", () => {
    const { facts } = pageIdentity({ namespace: "st" });
    expect("profileType" in facts && facts.profileType).toBeUndefined();
    expect(buildIdentityProfile("Catapult", Object.assign({ profileType: "EPL" }, facts), new Date(2026, 2, 1)).accountType).toBe("ECL");
  });

  it("a field that is no sign-in fact is neither taken nor dropped; gradeLevel is never read (derived from the graduation year)", () => {
    expect(pageIdentity({ event: "identity", gradeLevel: 11, somethingElse: 1 })).toEqual({ facts: {}, dropped: [] });
    expect(pageIdentity({ cohortYear: "2026" }).facts).toEqual({ gradYear: "2026" });
  });

  it("whatever the push holds, a dropped field's value is never among the facts and a student's profile from them is well-formed", () => {
    fc.assert(
      fc.property(
        fc.record(
          { accountId: fc.anything(), namespace: fc.anything(), graduationYear: fc.anything(), orgId: fc.anything(), roles: fc.anything() },
          { requiredKeys: [] },
        ),
        (push) => {
          const { facts, dropped } = pageIdentity(push);
          if (dropped.includes("accountId")) expect(facts.accountId).toBeUndefined();
          if (facts.accountId !== undefined) expect(typeof facts.accountId === "string" && facts.accountId.trim()).toBeTruthy();
          if (facts.gradYear !== undefined) expect(String(facts.gradYear)).toMatch(/^\d{4}$/);
          const profile = buildIdentityProfile("Catapult", facts, new Date(2026, 2, 1));
          expect(typeof profile.orgId).toBe("string");
        },
      ),
    );
  });
});

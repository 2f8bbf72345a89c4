import { describe, expect, it } from "vitest";
import { identityMap } from "../../../../runtime-modules/identity/identity-map";
import { accountTypeOf, buildIdentityProfile, provideProfile, rolePairs, type IdentityProfile } from "../../../../runtime-modules/identity/profile";
import { flag, mergeSignInFacts } from "../../../../runtime-modules/identity/sign-in-facts";

const now = new Date(2025, 2, 15, 12);

describe("account type", () => {
  it('"ECL (student) and EPL (professional) ... Namespace st means student and pf means professional"', () => {
    expect(accountTypeOf("ECL", undefined)).toBe("ECL");
    expect(accountTypeOf("epl", "st")).toBe("EPL");
    expect(accountTypeOf(undefined, "st")).toBe("ECL");
    expect(accountTypeOf(undefined, "PF")).toBe("EPL");
    expect(accountTypeOf("X", "zz")).toBeUndefined();
  });
});

describe("buildIdentityProfile", () => {
  it("a student: job title Student, graduation year and grade level", () => {
    const p = buildIdentityProfile("Catapult", { accountId: "123", hashedId: "h1", namespace: "st", gradYear: "2027", orgId: 555, sssOptIn: "Y" }, now, "fp-1");
    expect(p).toMatchObject({
      source: "Catapult",
      accountType: "ECL",
      namespace: "st",
      accountId: "123",
      hashedId: "h1",
      orgId: "555",
      graduationYear: 2027,
      gradeLevel: 2,
      educationPeriodCode: 26,
      jobTitle: "Student",
      studentSearchOptIn: true,
      legacy: false,
      customerService: false,
    });
    expect(p.identityMap).toEqual({
      FPID: [{ id: "fp-1", authenticatedState: "ambiguous", primary: false }],
      CBPEOPLEID: [{ id: "123", authenticatedState: "authenticated", primary: true }],
    });
  });
  it('"professionals get Professional for year and grade" and keep their job title', () => {
    const p = buildIdentityProfile(
      "Catapult (Token Only)",
      { profileType: "EPL", gradYear: "2027", jobTitle: "Counselor", jobTitleCode: "C1", csr: true },
      now,
    );
    expect(p).toMatchObject({
      accountType: "EPL",
      namespace: "pf",
      graduationYear: "Professional",
      gradeLevel: "Professional",
      jobTitle: "Counselor",
      jobTitleCode: "C1",
      customerService: true,
    });
  });
  it("\"orgId defaults to 'No Data'\"; a graduation year that is not yyyy gives neither year nor grade", () => {
    const p = buildIdentityProfile("Catapult", { namespace: "st", gradYear: "27" }, now);
    expect(p.orgId).toBe("No Data");
    expect(p.graduationYear).toBeUndefined();
    expect(p.gradeLevel).toBeUndefined();
    expect(p.jobTitle).toBe("Student");
  });
  it("roles: role id and organisation id pairs; legacy flag", () => {
    const p = buildIdentityProfile("Catapult", { roPairs: [{ roleId: "R1", orgId: 10 }, ["R2", "20"], { roleId: "R3" }, "junk"], legacy: "true" }, now);
    expect(p.roles).toEqual([
      { roleId: "R1", orgId: "10" },
      { roleId: "R2", orgId: "20" },
    ]);
    expect(p.legacy).toBe(true);
    expect(rolePairs("R1:10")).toEqual([]);
  });
});

describe("identityMap", () => {
  it('"Identity map namespaces: FPID, crm_id, AACUSTOMID, CBPEOPLEID (last is primary and authenticated)"', () => {
    expect(identityMap({ fpid: "f", crmId: "c", aaCustomId: "a", peopleId: "p" })).toEqual({
      FPID: [{ id: "f", authenticatedState: "ambiguous", primary: false }],
      crm_id: [{ id: "c", authenticatedState: "ambiguous", primary: false }],
      AACUSTOMID: [{ id: "a", authenticatedState: "ambiguous", primary: false }],
      CBPEOPLEID: [{ id: "p", authenticatedState: "authenticated", primary: true }],
    });
  });
  it('"Identity with non-empty-string id only"', () => {
    expect(identityMap({ fpid: "", crmId: 12, aaCustomId: "  ", peopleId: null })).toEqual({});
  });
});

describe("sign-in facts", () => {
  it("the token's value wins when present, else the session's", () => {
    expect(mergeSignInFacts({ accountId: "s", orgId: "o", gradYear: "2026" }, { accountId: "t", orgId: "", other: 1 })).toEqual({
      accountId: "t",
      orgId: "o",
      gradYear: "2026",
    });
    expect(mergeSignInFacts(null, null)).toEqual({});
  });
  it("yes/no fields", () => {
    for (const yes of [true, 1, "true", "Y", "yes", " 1 "]) expect(flag(yes)).toBe(true);
    for (const no of [false, 0, "false", "N", "", null, undefined, {}]) expect(flag(no)).toBe(false);
  });
});

describe("the profile's provided values (issue #19: one data element per identity fact)", () => {
  const read = (profile: IdentityProfile | undefined) => {
    const readers: Record<string, () => unknown> = {};
    provideProfile({ provide: (name, r) => void (readers[name] = r) }, () => profile);
    return Object.fromEntries(Object.entries(readers).map(([k, r]) => [k, r()]));
  };
  const when = new Date(2026, 2, 10);

  it('flags as "Y"/"N", roles as "roleId:orgId" pairs joined by "|", the identity map only when it has an id', () => {
    const pro = buildIdentityProfile(
      "Catapult",
      {
        accountId: "2000777",
        profileType: "EPL",
        csr: "yes",
        roPairs: [["educator", "ORG-9"], { roleId: "coordinator", orgId: "ORG-10" }],
        tenantType: "school",
      },
      when,
    );
    expect(read(pro)).toEqual({
      accountId: "2000777",
      hashedId: undefined,
      accountType: "EPL",
      namespace: "pf",
      orgId: "No Data",
      orgName: undefined,
      graduationYear: "Professional",
      gradeLevel: "Professional",
      educationPeriodCode: 27,
      jobTitle: undefined,
      jobTitleCode: undefined,
      eodbId: undefined,
      tenantType: "school",
      source: "Catapult",
      legacy: "N",
      studentSearchOptIn: "N",
      customerService: "Y",
      roles: "educator:ORG-9|coordinator:ORG-10",
      identityMap: { CBPEOPLEID: [{ id: "2000777", authenticatedState: "authenticated", primary: true }] },
    });
    expect(read(buildIdentityProfile("Catapult", { accountId: 42 }, when)).identityMap).toBeUndefined();
  });

  it('"Anonymous: identity cleared": without a profile every identity value is undefined', () => {
    const values = read(undefined);
    expect(Object.keys(values).length).toBeGreaterThan(15);
    expect(Object.values(values).every((v) => v === undefined)).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { layerOf } from "../../../../generator/config/schema.js";
import { ConsentExtrasSchema, IdentitySchema } from "../../../../generator/config/schemas/consent-identity.js";

describe("consent-identity schema fragments", () => {
  it("consent extras: privacy host pattern and synthetics user agents with defaults", () => {
    const extras = ConsentExtrasSchema.parse({});
    expect(new RegExp(extras.privacyHostPattern).test("privacy-qa.kiwi.example")).toBe(true);
    expect(new RegExp(extras.syntheticsUserAgent).test("Mozilla/5.0 Chrome/126")).toBe(false);
  });
  it("identity defaults are the spec's numbers", () => {
    const identity = IdentitySchema.parse({});
    expect(identity.credentials).toEqual({ path: "temp-user-aws-creds", awsDomains: [], attempts: 3, intervalMs: 100, responseField: "cbJwtToken" });
    expect(identity.cookies).toMatchObject({ lifetimeDays: 60, legacyIdDays: 390, destinationDays: 10, loginRecord: "sitetags_login", loginRecordDays: 400 });
    expect(identity.thankYouPath).toBe("/iamweb/secure/thankYou");
  });
  it("rejects bad values, with the shared diagnostic code for regular expressions", () => {
    const bad = ConsentExtrasSchema.safeParse({ privacyHostPattern: "(" });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).toContain("CONFIG_INVALID_REGEX");
    expect(IdentitySchema.safeParse({ credentials: { serviceUrl: "http://x.example/" } }).success).toBe(false);
    expect(IdentitySchema.safeParse({ cookies: { lifetime: "a b" } }).success).toBe(false);
    expect(IdentitySchema.safeParse({ unknown: 1 }).success).toBe(false);
  });
  it("has a layer form (every key optional) for org, site and environment files", () => {
    expect(layerOf(IdentitySchema).parse({ credentials: { serviceUrl: "https://creds.kiwi.example/" } })).toEqual({
      credentials: { serviceUrl: "https://creds.kiwi.example/" },
    });
    expect(layerOf(ConsentExtrasSchema).parse({})).toEqual({});
  });
});

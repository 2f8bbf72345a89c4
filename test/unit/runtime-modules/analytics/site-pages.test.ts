import { describe, expect, it } from "vitest";
import { conversionPage, hubEnvironment } from "../../../../runtime-modules/analytics/site-pages";

describe("hub environment", () => {
  it('"A hub site has embed-prod, embed-stg and embed-dev paths and a pages path. Its environment is dev unless the path contains embed-prod."', () => {
    expect(hubEnvironment("/embed-prod/scores")).toBe("prod");
    expect(hubEnvironment("/x/EMBED-PROD")).toBe("prod");
    expect(hubEnvironment("/embed-stg/scores")).toBe("dev");
    expect(hubEnvironment("/embed-dev/scores")).toBe("dev");
    expect(hubEnvironment("/pages/scores")).toBe("dev");
    expect(hubEnvironment("/")).toBe("dev");
  });
});

describe("conversion pages", () => {
  it('"Conversion pages: a thank-you hash on go and signup sites"', () => {
    expect(conversionPage("go", "/sat", "#thank-you")).toBe("conversion");
    expect(conversionPage("signup", "/", "#/thankyou?x=1")).toBe("conversion");
    expect(conversionPage("signup", "/", "#Thank-You")).toBe("conversion");
    expect(conversionPage("go", "/sat", "#about")).toBeUndefined();
    expect(conversionPage("www", "/sat", "#thank-you")).toBeUndefined();
  });
  it('"the root path on kiwihub"', () => {
    expect(conversionPage("kiwihub", "/", "")).toBe("conversion");
    expect(conversionPage("kiwihub", "/scores", "")).toBeUndefined();
    expect(conversionPage("www", "/", "")).toBeUndefined();
  });
  it('"the sign-up thank-you path /iamweb/secure/thankYou counts as a completed registration"', () => {
    expect(conversionPage("signup", "/iamweb/secure/thankYou", "")).toBe("registration");
    expect(conversionPage("iam", "/iamweb/secure/thankyou/", "")).toBe("registration");
    expect(conversionPage("iam", "/iamweb/secure/thankYouNot", "")).toBeUndefined();
  });
  it("site codes that name Object.prototype members convert nothing", () => {
    expect(conversionPage("constructor", "/", "#thank-you")).toBeUndefined();
  });
});

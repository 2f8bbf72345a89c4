import { describe, expect, it } from "vitest";
import { detectEnvironment } from "../../../../runtime-modules/core/environment";
import { hostMatches, normalizeHost } from "../../../../runtime-modules/core/host-match";

const hosts = {
  prod: ["bigfuture.kiwi.example", "*.bigfuture.kiwi.example"],
  qa: ["bigfuture-qa.kiwi.example"],
  uat: ["bigfuture-uat.kiwi.example", "*.uat.kiwi.example"],
  dev: ["bigfuture-dev.kiwi.example", "*.kiwi.example"],
};
const fallback = [
  { pattern: "-qa\\.", env: "qa" as const },
  { pattern: "^localhost$", env: "dev" as const },
  { pattern: "kiwi", env: "nonprod" as const },
];

describe("hostMatches", () => {
  it("an exact entry matches only that host", () => {
    expect(hostMatches("bigfuture.kiwi.example", "bigfuture.kiwi.example")).toBe(true);
    expect(hostMatches("www.bigfuture.kiwi.example", "bigfuture.kiwi.example")).toBe(false);
  });
  it("a *.suffix entry matches every subdomain of suffix, not suffix itself", () => {
    expect(hostMatches("a.kiwi.example", "*.kiwi.example")).toBe(true);
    expect(hostMatches("a.b.kiwi.example", "*.kiwi.example")).toBe(true);
    expect(hostMatches("kiwi.example", "*.kiwi.example")).toBe(false);
    expect(hostMatches("notkiwi.example", "*.kiwi.example")).toBe(false);
  });
  it("host names compare case-insensitively after normalizing, ignoring a trailing dot", () => {
    expect(normalizeHost("BigFuture.Kiwi.Example.")).toBe("bigfuture.kiwi.example");
  });
});

describe("detectEnvironment", () => {
  it('"Environment derived from hostname table": an exact host gives its environment', () => {
    expect(detectEnvironment("bigfuture.kiwi.example", hosts, fallback, "prod")).toBe("prod");
    expect(detectEnvironment("bigfuture-qa.kiwi.example", hosts, fallback, "prod")).toBe("qa");
    expect(detectEnvironment("BIGFUTURE-UAT.kiwi.example", hosts, fallback, "prod")).toBe("uat");
  });
  it("an exact entry wins over a wildcard of another environment listed earlier", () => {
    const table = { dev: ["*.kiwi.example"], prod: ["www.kiwi.example"] };
    expect(detectEnvironment("www.kiwi.example", table, [], "qa")).toBe("prod");
  });
  it("of several wildcards the most specific (longest) wins", () => {
    expect(detectEnvironment("x.bigfuture.kiwi.example", hosts, fallback, "qa")).toBe("prod");
    expect(detectEnvironment("x.uat.kiwi.example", hosts, fallback, "qa")).toBe("uat");
    expect(detectEnvironment("other.kiwi.example", hosts, fallback, "qa")).toBe("dev");
  });
  it('"fallback domain table": patterns are tried in order when the table does not decide', () => {
    expect(detectEnvironment("clep-qa.other.example", hosts, fallback, "prod")).toBe("qa");
    expect(detectEnvironment("localhost", hosts, fallback, "prod")).toBe("dev");
    expect(detectEnvironment("kiwi-partner.example", hosts, fallback, "prod")).toBe("nonprod");
  });
  it('"then default": neither table nor fallback decides', () => {
    expect(detectEnvironment("elsewhere.example", hosts, fallback, "prod")).toBe("prod");
    expect(detectEnvironment("elsewhere.example", {}, [], "oat")).toBe("oat");
  });
  it('"fallback domain table, global flag, then default": the page global\'s environment decides only when neither table does', () => {
    expect(detectEnvironment("elsewhere.example", hosts, fallback, "prod", "qa")).toBe("qa");
    expect(detectEnvironment("elsewhere.example", {}, [], "prod", "nonprod")).toBe("nonprod");
    // The tables come first.
    expect(detectEnvironment("bigfuture.kiwi.example", hosts, fallback, "prod", "qa")).toBe("prod");
    expect(detectEnvironment("localhost", hosts, fallback, "prod", "qa")).toBe("dev");
    // Anything but one of the eight environment names is no flag.
    for (const flag of ["staging", "QA", " qa", "", 1, true, null, undefined, {}, ["qa"]])
      expect(detectEnvironment("elsewhere.example", {}, [], "oat", flag)).toBe("oat");
    for (const env of ["prod", "qa", "uat", "perf", "dev", "oat", "nonprod", "prev"] as const)
      expect(detectEnvironment("elsewhere.example", {}, [], "prod", env)).toBe(env);
  });
  it("an invalid fallback pattern matches nothing instead of throwing", () => {
    expect(detectEnvironment("a.example", {}, [{ pattern: "(", env: "qa" }], "prev")).toBe("prev");
  });
});

import { describe, expect, it } from "vitest";
import { isAuthorizedHost, isLocalHost } from "../../../../runtime-modules/core/authorize";

const hosts = {
  prod: ["scores.kiwi.example", "*.scores.kiwi.example"],
  qa: ["scores-qa.kiwi.example"],
  dev: ["scores-dev.kiwi.example"],
};

describe("isAuthorizedHost", () => {
  it('"A bundle runs only on its own site\'s hosts for its environment"', () => {
    expect(isAuthorizedHost("scores.kiwi.example", "prod", hosts)).toBe(true);
    expect(isAuthorizedHost("a.scores.kiwi.example", "prod", hosts)).toBe(true);
    expect(isAuthorizedHost("Scores.Kiwi.Example", "prod", hosts)).toBe(true);
  });
  it("not on another environment's hosts", () => {
    expect(isAuthorizedHost("scores-qa.kiwi.example", "prod", hosts)).toBe(false);
    expect(isAuthorizedHost("scores.kiwi.example", "qa", hosts)).toBe(false);
  });
  it("not on other sites, look-alike hosts or an environment without hosts", () => {
    expect(isAuthorizedHost("bigfuture.kiwi.example", "prod", hosts)).toBe(false);
    expect(isAuthorizedHost("scores.kiwi.example.evil.example", "prod", hosts)).toBe(false);
    expect(isAuthorizedHost("evilscores.kiwi.example", "prod", hosts)).toBe(false);
    expect(isAuthorizedHost("scores.kiwi.example", "uat", hosts)).toBe(false);
  });
  it('"dev bundles also run on localhost and 127.0.0.1"', () => {
    expect(isAuthorizedHost("localhost", "dev", hosts)).toBe(true);
    expect(isAuthorizedHost("127.0.0.1", "dev", hosts)).toBe(true);
    expect(isAuthorizedHost("scores-dev.kiwi.example", "dev", hosts)).toBe(true);
  });
  it("other bundles do not run on localhost or 127.0.0.1", () => {
    for (const env of ["prod", "qa", "uat", "perf", "oat", "nonprod", "prev"] as const) {
      expect(isAuthorizedHost("localhost", env, hosts)).toBe(false);
      expect(isAuthorizedHost("127.0.0.1", env, hosts)).toBe(false);
    }
  });
});

describe("isLocalHost", () => {
  it("localhost and 127.0.0.1 are local, nothing else", () => {
    expect(isLocalHost("localhost")).toBe(true);
    expect(isLocalHost("127.0.0.1")).toBe(true);
    expect(isLocalHost("localhost.kiwi.example")).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { matchesPage, regexMatches } from "../../../../runtime-modules/core/match-page";

describe("matchesPage", () => {
  it('"a path matches itself and everything below it"', () => {
    expect(matchesPage("/scores", ["/scores"])).toBe(true);
    expect(matchesPage("/scores/x", ["/scores"])).toBe(true);
    expect(matchesPage("/scores/x/y", ["/scores"])).toBe(true);
  });
  it('"/scores" does not match "/scoresheet" or "/score"', () => {
    expect(matchesPage("/scoresheet", ["/scores"])).toBe(false);
    expect(matchesPage("/score", ["/scores"])).toBe(false);
    expect(matchesPage("/other/scores", ["/scores"])).toBe(false);
  });
  it("trailing slashes do not matter on either side", () => {
    expect(matchesPage("/scores/", ["/scores"])).toBe(true);
    expect(matchesPage("/scores", ["/scores/"])).toBe(true);
    expect(matchesPage("/scores//", ["/scores/"])).toBe(true);
  });
  it('"/" matches every path', () => {
    expect(matchesPage("/", ["/"])).toBe(true);
    expect(matchesPage("/anything/below", ["/"])).toBe(true);
  });
  it("any listed page may match (chat pages such as /register-for-an-exam, /scores, /sat/registration, /contact-us)", () => {
    const pages = ["/register-for-an-exam", "/scores", "/sat/registration", "/contact-us"];
    expect(matchesPage("/sat/registration/step-2", pages)).toBe(true);
    expect(matchesPage("/contact-us", pages)).toBe(true);
    expect(matchesPage("/sat", pages)).toBe(false);
  });
  it("or one of the path patterns (regular expressions)", () => {
    expect(matchesPage("/ap/help-123", ["/scores"], ["^/ap/help-\\d+$"])).toBe(true);
    expect(matchesPage("/ap/help-x", ["/scores"], ["^/ap/help-\\d+$"])).toBe(false);
  });
  it("an invalid pattern matches nothing", () => {
    expect(matchesPage("/x", [], ["("])).toBe(false);
    expect(regexMatches("(", "(")).toBe(false);
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ERROR_PAGES, errorPageName } from "../../../../runtime-modules/analytics/error-page";

describe("error pages", () => {
  describe('"404 gives 404errorpage, 500 gives 500errorpage, down gives downpage, highvolume gives highvolumepage, 403 gives 403forbidden, 422 gives 422uierrorpage, each with site code in front"', () => {
    const cases: Array<[string, string]> = [
      ["404", "scores:404errorpage"],
      ["500", "scores:500errorpage"],
      ["down", "scores:downpage"],
      ["highvolume", "scores:highvolumepage"],
      ["403", "scores:403forbidden"],
      ["422", "scores:422uierrorpage"],
    ];
    for (const [code, name] of cases) it(code, () => expect(errorPageName("scores", code, "details")).toBe(name));
  });
  it('"Error pages by code (matched case-insensitively)"', () => {
    expect(errorPageName("satreg", "DOWN", "x")).toBe("satreg:downpage");
    expect(errorPageName("satreg", " HighVolume ", "x")).toBe("satreg:highvolumepage");
  });
  it('"other codes give site:page:code"', () => {
    expect(errorPageName("satreg", "409", "order-review")).toBe("satreg:order-review:409");
    expect(errorPageName("satreg", "Timeout", "order-review")).toBe("satreg:order-review:timeout");
  });
  it("the site's separator may be used; no code is no error page", () => {
    expect(errorPageName("www", "404", "x", "/")).toBe("www/404errorpage");
    expect(errorPageName("www", " ", "x")).toBeUndefined();
  });
  it("the table is exactly the spec's six codes", () => {
    expect(Object.keys(ERROR_PAGES).sort()).toEqual(["403", "404", "422", "500", "down", "highvolume"]);
  });
  it("codes that name Object.prototype members are other codes", () => {
    expect(errorPageName("s", "constructor", "p")).toBe("s:p:constructor");
    fc.assert(
      fc.property(fc.string(), (code) => {
        const name = errorPageName("s", code, "p");
        expect(name === undefined || typeof name === "string").toBe(true);
      }),
    );
  });
});

import { describe, expect, it } from "vitest";
import { duePairs } from "../../../../runtime-modules/rules/tag-lifecycle";

describe('"each category and lifecycle pair once per page"', () => {
  const pairs: Array<[any, any]> = [["performance", "pageTop"], ["marketing", "domReady"], ["functional", "windowLoaded"], ["marketing", "domReady"]];
  it("a pair is due once its lifecycle point has passed and its category is granted; never twice", () => {
    const all = () => true;
    expect(duePairs(pairs, "pageTop", all, [])).toEqual(["performance:pageTop"]);
    expect(duePairs(pairs, "domReady", all, ["performance:pageTop"])).toEqual(["marketing:domReady"]);
    expect(duePairs(pairs, "windowLoaded", all, ["performance:pageTop", "marketing:domReady"])).toEqual(["functional:windowLoaded"]);
    expect(duePairs(pairs, "windowLoaded", (c) => c !== "marketing", ["performance:pageTop"])).toEqual(["functional:windowLoaded"]);
  });
});

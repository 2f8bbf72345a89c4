import { describe, expect, it } from "vitest";
import { tagDisabled } from "../../../../runtime-modules/core/query-flags";

describe("tagDisabled", () => {
  it('"A query parameter cb-disable-{tagcode} disables that tag"', () => {
    expect(tagDisabled(new URLSearchParams("?cb-disable-chat"), "chat")).toBe(true);
    expect(tagDisabled(new URLSearchParams("?a=1&cb-disable-survey=1"), "survey")).toBe(true);
  });
  it("only that tag", () => {
    expect(tagDisabled(new URLSearchParams("?cb-disable-chat"), "survey")).toBe(false);
    expect(tagDisabled(new URLSearchParams(""), "chat")).toBe(false);
    expect(tagDisabled(new URLSearchParams("?cb-disable-chatbot"), "chat")).toBe(false);
  });
});

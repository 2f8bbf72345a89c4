import { describe, expect, it } from "vitest";
import { isValidSelector } from "../../../../runtime-modules/core/selector";
import { fakePage } from "../helpers/fake-page";

describe("isValidSelector", () => {
  const doc = fakePage().document as never;
  it('"A CSS or DOM selector is checked for validity before use"', () => {
    expect(isValidSelector(doc, "#chat-launcher")).toBe(true);
    expect(isValidSelector(doc, "button.chat[data-x='1']")).toBe(true);
    expect(isValidSelector(doc, "##")).toBe(false);
    expect(isValidSelector(doc, "div[")).toBe(false);
  });
});

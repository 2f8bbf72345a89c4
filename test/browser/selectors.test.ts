/**
 * "Cover at least: … invalid CSS selectors": the config schema's verdict on
 * a selector, checked against Chromium's own querySelector. A selector the
 * schema accepts must not throw in the browser (a rule on it could never
 * fire); one it rejects must throw there or never match an element.
 */
import { describe, expect, it } from "vitest";
import { SelectorString } from "../../generator/config/primitives.js";
import { useBrowserHarness } from "./harness/index.js";

const h = useBrowserHarness();

const VALID = [
  "a[data-promo]",
  "[data-share]",
  "#hero .card > a:not(.disabled)",
  "ul li:nth-child(2n+1)",
  "li:nth-last-of-type(odd)",
  "p:nth-child(3 of .x)",
  "main section:has(> a.apply)",
  'a[href^="https://"]',
  'a[href$=".pdf" i]',
  "input:is(:checked, :focus-visible)",
  "div:where(.a, .b) ~ span + em",
  "html:lang(en) body:dir(ltr)",
  '[id="1abc"]',
  'a[title=""]',
  "*",
  "button:-webkit-autofill",
];
const INVALID = [
  "a:contains(Apply)",
  "a:first",
  "div:visible",
  "p:eq(2)",
  "a:icontains(x)",
  "button:clickable",
  "div >",
  "#1abc",
  "::foo",
  "a::before",
  "a:nth-child(x)",
  "a..b",
  "a|b",
  "a[href^=]",
  "> a",
  "a:not()",
];

describe("CSS selectors: the schema agrees with Chromium", () => {
  it("every selector the schema accepts works in querySelector; every one it rejects throws there or can never match", async () => {
    const tab = await h.browser.openPage("about:blank");
    const browser = await tab.page.evaluate(
      (list: string[]) =>
        list.map((s) => {
          try {
            document.createElement("div").querySelector(s);
            return s.includes("::") ? "never matches" : "ok";
          } catch {
            return "throws";
          }
        }),
      [...VALID, ...INVALID],
    );
    const schema = [...VALID, ...INVALID].map((s) => (SelectorString.safeParse(s).success ? "ok" : "rejected"));
    expect(schema.slice(0, VALID.length)).toEqual(VALID.map(() => "ok"));
    expect(schema.slice(VALID.length)).toEqual(INVALID.map(() => "rejected"));
    expect(browser.slice(0, VALID.length)).toEqual(VALID.map(() => "ok"));
    for (const [i, s] of INVALID.entries()) expect(browser[VALID.length + i], s).not.toBe("ok");
  });
});

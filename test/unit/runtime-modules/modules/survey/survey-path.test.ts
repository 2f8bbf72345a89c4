import { describe, expect, it } from "vitest";
import { surveyPathAllowed } from "../../../../../runtime-modules/modules/survey/survey-path";

describe("surveyPathAllowed", () => {
  it('"The helpfulness survey loads only on ... trailing-slash paths"', () => {
    expect(surveyPathAllowed("/", [])).toBe(true);
    expect(surveyPathAllowed("/help/article/", [])).toBe(true);
    expect(surveyPathAllowed("/help/article", [])).toBe(false);
    expect(surveyPathAllowed("/help/article.html", [])).toBe(false);
  });
  it('"a ... passing path check": with patterns, one of them must match too', () => {
    const patterns = ["^/help/", "^/faq/\\d+/$"];
    expect(surveyPathAllowed("/help/x/", patterns)).toBe(true);
    expect(surveyPathAllowed("/faq/12/", patterns)).toBe(true);
    expect(surveyPathAllowed("/other/", patterns)).toBe(false);
    expect(surveyPathAllowed("/help/x", patterns)).toBe(false);
  });
  it("an invalid pattern matches nothing", () => {
    expect(surveyPathAllowed("/x/", ["("])).toBe(false);
  });
});

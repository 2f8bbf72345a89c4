import { describe, expect, it } from "vitest";
import { readPage } from "../../../../runtime-modules/core/page";

describe("readPage", () => {
  it("takes host, path, query, hash, referrer and href from location and document", () => {
    const url = new URL("https://scores.kiwi.example/scores/details?cb-disable-chat&tab=2#top");
    const page = readPage(url, { referrer: "https://www.kiwi.example/" });
    expect(page.host).toBe("scores.kiwi.example");
    expect(page.path).toBe("/scores/details");
    expect(page.query.get("tab")).toBe("2");
    expect(page.query.has("cb-disable-chat")).toBe(true);
    expect(page.hash).toBe("#top");
    expect(page.referrer).toBe("https://www.kiwi.example/");
    expect(page.href).toBe(url.href);
  });
});

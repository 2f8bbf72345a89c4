import { describe, expect, it } from "vitest";
import { findDomain, hostOf, onDomain, own } from "../../../../runtime-modules/analytics/lookup";

describe("lookup helpers", () => {
  it("own: a table's own entries only, never Object.prototype's", () => {
    const table = { em: "Email" };
    expect(own(table, "em")).toBe("Email");
    expect(own(table, "constructor")).toBeUndefined();
    expect(own(table, "__proto__")).toBeUndefined();
  });
  it.each([
    ["https://WWW.Google.com/search?q=sat", undefined, "www.google.com"],
    ["/college/1", "https://bigfuture.kiwi.example/start", "bigfuture.kiwi.example"],
    ["", "https://bigfuture.kiwi.example/start", "bigfuture.kiwi.example"],
    ["", undefined, ""],
    ["not a url", undefined, ""],
    ["https://", undefined, ""],
  ])("hostOf(%j, %j) is %j (lower case; empty when it does not parse)", (url, base, host) => {
    expect(hostOf(url, base)).toBe(host);
  });
  it("onDomain: the domain or below it, not a look-alike; findDomain: the first such domain", () => {
    expect(onDomain("a.kiwi.example", "kiwi.example")).toBe(true);
    expect(onDomain("kiwi.example", "kiwi.example")).toBe(true);
    expect(onDomain("evilkiwi.example", "kiwi.example")).toBe(false);
    expect(onDomain("a.kiwi.example", "")).toBe(false);
    expect(findDomain("mail.google.com", ["bing.com", "google.com"])).toBe("google.com");
    expect(findDomain("example.org", ["bing.com"])).toBeUndefined();
  });
});

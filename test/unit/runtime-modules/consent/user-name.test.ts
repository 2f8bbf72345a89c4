import { describe, expect, it } from "vitest";
import { containsUserName } from "../../../../runtime-modules/consent/user-name";

describe("containsUserName", () => {
  it("email addresses, raw, encoded and double encoded", () => {
    expect(containsUserName("?email=jane@school.org")).toBe(true);
    expect(containsUserName("?email=jane%40school.org")).toBe(true);
    expect(containsUserName("?email=jane%2540school.org")).toBe(true);
    expect(containsUserName("?e=jane.doe+x%40mail.school.edu&x=1")).toBe(true);
  });
  it("malformed encodings do not hide an address", () => {
    expect(containsUserName("?bad=%E0%A4%A&email=jane%40school.org")).toBe(true);
  });
  it("the sign-in user id, any case, only non-empty ids", () => {
    expect(containsUserName("https://x.example/p?user=JDOE42", ["jdoe42"])).toBe(true);
    expect(containsUserName("?user=someone", ["", "  "])).toBe(false);
  });
  it("ordinary addresses are not user names", () => {
    expect(containsUserName("")).toBe(false);
    expect(containsUserName("?q=sat+scores&page=2")).toBe(false);
    expect(containsUserName("https://www.kiwi.example/path/@handle")).toBe(false);
  });
});

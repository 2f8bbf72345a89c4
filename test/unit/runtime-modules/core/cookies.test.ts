import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cookieDomain, cookieString, createCookieJar, createCookies, readCookie, readCookies } from "../../../../runtime-modules/core/cookies";
import { fakePage } from "../helpers/fake-page";

const site = { hostname: "bigfuture.kiwi.example", protocol: "https:", apexDomain: "kiwi.example" };
const local = { hostname: "localhost", protocol: "http:", apexDomain: "kiwi.example" };

describe("cookieDomain", () => {
  it('cookies are "Scoped to parent domain": the apex domain on it and below it', () => {
    expect(cookieDomain(site)).toBe("kiwi.example");
    expect(cookieDomain({ ...site, hostname: "kiwi.example" })).toBe("kiwi.example");
    expect(cookieDomain({ ...site, hostname: "a.b.kiwi.example" })).toBe("kiwi.example");
  });
  it("no domain attribute on localhost, 127.0.0.1 or hosts outside the apex domain", () => {
    expect(cookieDomain(local)).toBeUndefined();
    expect(cookieDomain({ ...local, hostname: "127.0.0.1" })).toBeUndefined();
    expect(cookieDomain({ ...site, hostname: "notkiwi.example" })).toBeUndefined();
    expect(cookieDomain({ ...site, hostname: "partner.example" })).toBeUndefined();
  });
});

describe("cookieString", () => {
  it('defaults: path /, apex domain, "secure, lax same-site"', () => {
    expect(cookieString("s_tbm", "1", {}, site)).toBe("s_tbm=1; path=/; domain=kiwi.example; SameSite=Lax; Secure");
  });
  it("encodes the value and writes max-age, an explicit domain and SameSite", () => {
    expect(cookieString("widget_shown", "a b;c", { maxAgeSeconds: 86400, domain: "x.kiwi.example", sameSite: "Strict" }, site)).toBe(
      "widget_shown=a%20b%3Bc; path=/; domain=x.kiwi.example; max-age=86400; SameSite=Strict; Secure",
    );
  });
  it("on http://localhost: no domain attribute and no Secure", () => {
    expect(cookieString("a", "1", { maxAgeSeconds: 1800 }, local)).toBe("a=1; path=/; max-age=1800; SameSite=Lax");
  });
});

describe("readCookie", () => {
  it("finds one cookie by exact name and decodes it", () => {
    const header = "xs_tbm=0; s_tbm=a%20b; other=1=2";
    expect(readCookie(header, "s_tbm")).toBe("a b");
    expect(readCookie(header, "other")).toBe("1=2");
    expect(readCookie(header, "missing")).toBeUndefined();
    expect(readCookie("", "a")).toBeUndefined();
  });
  it("a value that is not valid percent-encoding does not throw and is read as absent", () => {
    expect(readCookie("a=%E0%A4%A", "a")).toBeUndefined();
  });
});

describe("readCookies (the runtime's one cookie reader: boot's cookies, rules and the Edge client)", () => {
  it("decodes names and values, keeps the first of a name, skips parts without '='", () => {
    expect({ ...readCookies("AMCV_ABC%40AdobeOrg=MCMID%7C42; a=1; a=2; b=x=y; flag") }).toEqual({ "AMCV_ABC@AdobeOrg": "MCMID|42", a: "1", b: "x=y" });
    expect({ ...readCookies("") }).toEqual({});
  });
  it("an undecodable value (%E0%A4%A) never throws and is never mis-attributed: its cookie is absent and a later cookie of the same name is not read in its place", () => {
    const header = "kndctr_ABC_AdobeOrg_identity=%E0%A4%A; kndctr_ABC_AdobeOrg_identity=someone-else; b=2";
    expect({ ...readCookies(header) }).toEqual({ b: "2" });
    expect(readCookie(header, "kndctr_ABC_AdobeOrg_identity")).toBeUndefined();
    expect(readCookie("x=%E0%A4%A; y=%E0%A4%A", "y")).toBeUndefined();
  });
  it("a name that does not decode is kept as written; names from Object.prototype are cookies like any other", () => {
    expect(readCookie("%E0%A4%A=v", "%E0%A4%A")).toBe("v");
    expect(readCookie("a=1", "constructor")).toBeUndefined();
    expect(readCookie("a=1", "toString")).toBeUndefined();
    expect(readCookie("constructor=1; __proto__=2", "constructor")).toBe("1");
    expect(readCookie("constructor=1; __proto__=2", "__proto__")).toBe("2");
  });
  it("property: for any cookies, each name reads as its first cookie's value, decoded; any header reads without throwing, every value its own cookie's", () => {
    const name = fc.stringMatching(/^[A-Za-z0-9_@.|-]{1,8}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(name, fc.string({ maxLength: 12 }))), (pairs) => {
        const header = pairs.map(([n, v]) => encodeURIComponent(n) + "=" + encodeURIComponent(v)).join("; ");
        const first = new Map<string, string>();
        for (const [n, v] of pairs) if (!first.has(n)) first.set(n, v);
        for (const [n, v] of first) expect(readCookie(header, n)).toBe(v);
        expect(Object.keys(readCookies(header)).sort()).toEqual([...first.keys()].sort());
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.stringMatching(/^[a-z%0-9A-F]{1,6}$/), fc.stringMatching(/^[a-z%0-9A-F=]{0,8}$/))), (parts) => {
        const header = parts.map(([n, v]) => n + "=" + v).join("; ");
        const cookies = readCookies(header);
        for (const key of Object.keys(cookies)) {
          // The first part of that name, and it decodes to exactly this value.
          const firstPart = parts.find(([n]) => {
            try {
              return decodeURIComponent(n) === key;
            } catch (e) {
              return n === key;
            }
          })!;
          expect(decodeURIComponent(firstPart[1])).toBe(cookies[key]);
        }
      }),
    );
  });
});

describe("createCookies", () => {
  it("sets, gets and removes through document.cookie", () => {
    const page = fakePage();
    const cookies = createCookies(page.document, site);
    cookies.set("session", '{"c":"em"}');
    expect(cookies.get("session")).toBe('{"c":"em"}');
    cookies.remove("session");
    expect(cookies.get("session")).toBeUndefined();
    expect(page.cookieWrites[1]).toBe("session=; path=/; domain=kiwi.example; max-age=0; SameSite=Lax; Secure");
  });
});

describe("createCookieJar: document.cookie read once per held section", () => {
  /** A document whose cookie reads are counted. */
  function countingDoc(initial: string) {
    const doc = {
      text: initial,
      reads: 0,
      writes: [] as string[],
      get cookie() {
        doc.reads++;
        return doc.text;
      },
      set cookie(v: string) {
        doc.writes.push(v);
        doc.text = `${doc.text}; ${v.split(";")[0]}`;
      },
    };
    return doc;
  }

  it("unheld, every read goes to document.cookie (a cookie the page writes is seen at once)", () => {
    const doc = countingDoc("a=1");
    const jar = createCookieJar(doc);
    expect(jar.cookie).toBe("a=1");
    doc.text = "a=2";
    expect(jar.cookie).toBe("a=2");
    expect(doc.reads).toBe(2);
  });

  it("held, reads share one snapshot; a write through the jar updates it without reading again (batched cookie writes, issue #21); the end of the outermost hold drops it", () => {
    const doc = countingDoc("a=1");
    const jar = createCookieJar(doc);
    const cookies = createCookies(jar, site);
    const release = jar.hold();
    expect([cookies.get("a"), cookies.get("a"), jar.cookie]).toEqual(["1", "1", "a=1"]);
    expect(doc.reads).toBe(1);
    cookies.set("b", "2 3");
    expect(doc.writes).toEqual(["b=2%203; path=/; domain=kiwi.example; SameSite=Lax; Secure"]);
    expect(cookies.get("b")).toBe("2 3");
    expect(jar.cookie).toBe("b=2%203; a=1");
    expect(doc.reads).toBe(1);
    const inner = jar.hold();
    inner();
    doc.text = "a=changed";
    expect(cookies.get("a")).toBe("1");
    release();
    expect(cookies.get("a")).toBe("changed");
    expect(doc.reads).toBe(2);
  });

  it("a removal or an expires attribute drops the snapshot: the next read asks the browser", () => {
    const doc = countingDoc("a=1");
    const jar = createCookieJar(doc);
    const release = jar.hold();
    expect(jar.cookie).toBe("a=1");
    jar.cookie = "c=1; path=/; expires=Thu, 01 Jan 2099 00:00:00 GMT";
    expect(jar.cookie).toBe("a=1; c=1");
    expect(doc.reads).toBe(2);
    release();
  });

  it("property: held, whatever we write through the jar, cookies.get reads what the browser would (unique names)", () => {
    const name = fc.stringMatching(/^[a-z_]{1,6}$/);
    fc.assert(
      fc.property(
        fc.dictionary(name, fc.string({ maxLength: 5 })),
        fc.array(fc.tuple(name, fc.string({ maxLength: 5 }), fc.boolean()), { maxLength: 4 }),
        (start, writes) => {
          const browser: Record<string, string> = { ...start };
          const doc = {
            get cookie() {
              return Object.keys(browser)
                .map((k) => `${k}=${encodeURIComponent(browser[k])}`)
                .join("; ");
            },
            set cookie(text: string) {
              const [pair] = text.split(";");
              const k = pair.slice(0, pair.indexOf("="));
              if (/max-age=0/.test(text)) delete browser[k];
              else browser[k] = decodeURIComponent(pair.slice(pair.indexOf("=") + 1));
            },
          };
          const jar = createCookieJar(doc);
          const cookies = createCookies(jar, site);
          const release = jar.hold();
          for (const [k, value, remove] of writes) {
            if (remove) cookies.remove(k);
            else cookies.set(k, value);
            for (const key of Object.keys({ ...start, [k]: "" })) expect(cookies.get(key)).toBe(browser[key]);
          }
          release();
        },
      ),
    );
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DataElementSchema } from "../../../../generator/config/schemas/rules.js";
import { createDataElements, lists, MAX_DEPTH } from "../../../../runtime-modules/rules/data-elements";
import { createDataLayer, readPath } from "../../../../runtime-modules/rules/data-layer";
import { matchValue } from "../../../../runtime-modules/rules/match";
import { evaluate, type ConditionContext } from "../../../../runtime-modules/rules/conditions";
import { DATA_ELEMENT_CIRCULAR, DATA_ELEMENT_UNKNOWN } from "../../../../runtime-modules/core/messages";
import { allRuleFeatures } from "../../../../runtime-modules/rules/features";

function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, v),
    removeItem: (k) => void m.delete(k),
    clear: () => m.clear(),
    key: () => null,
    get length() {
      return m.size;
    },
  } as Storage;
}

function logger() {
  const logs: Array<{ level: string; message: string; data?: unknown }> = [];
  const at = (level: string) => (message: string, data?: unknown) => void logs.push({ level, message, data });
  return { logs, log: { enabled: false, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") } };
}

function elements(
  defs: Record<string, unknown>,
  opts: { query?: string; cookies?: Record<string, string>; state?: Record<string, unknown>; win?: Record<string, unknown>; noLists?: boolean } = {},
) {
  const parsed = Object.fromEntries(Object.entries(defs).map(([k, v]) => [k, DataElementSchema.parse(v)]));
  const { logs, log } = logger();
  const win = {
    localStorage: memoryStorage(),
    sessionStorage: memoryStorage(),
    document: { title: "Scores", querySelector: () => null },
    ...opts.win,
  } as unknown as Window;
  const query = new URLSearchParams(opts.query ?? "");
  const de = createDataElements(parsed, {
    page: () => ({ host: "scores.kiwi.example", path: "/scores/", query, hash: "", referrer: "", href: "https://scores.kiwi.example/scores/" }),
    cookies: { get: (n) => opts.cookies?.[n] },
    dataLayer: { get: (p) => readPath(opts.state ?? {}, p) },
    win,
    provided: (n) => (n === "site" ? "scores" : undefined),
    log,
    lists: opts.noLists ? undefined : lists,
  });
  return { de, logs, win };
}

describe("data elements", () => {
  describe("join, fields and truncate (issue 18: joins and truncation)", () => {
    const cases: Array<[string, Record<string, unknown>, unknown, unknown]> = [
      ["a list joined by |", { join: "|" }, ["gm-1", "gm-2"], "gm-1|gm-2"],
      ["numbers joined; blank and object items left out", { join: "," }, [1, "", null, { a: 1 }, 2], "1,2"],
      ["an empty list is an empty text (so exists: true fails)", { join: "|" }, [], ""],
      [
        "objects by their fields, joined by ':'",
        { join: "|", fields: ["schoolId", "schoolName"] },
        [{ schoolId: "3456", schoolName: "Kiwi U" }, { schoolId: 7 }],
        "3456:Kiwi U|7:",
      ],
      ["an item with none of the fields is left out", { join: "|", fields: ["id"] }, [{ name: "x" }, { id: "a" }], "a"],
      ["a value that is not a list is left as it is", { join: "|" }, "solo", "solo"],
      ["fields without join change nothing", { fields: ["id"] }, [{ id: "a" }], [{ id: "a" }]],
      ["truncate cuts a text after clean and lowercase", { truncate: 5, clean: true, lowercase: true }, "  Kiwi   College ", "kiwi "],
      ["truncate cuts a joined list", { join: "|", truncate: 7 }, ["abc", "def", "ghi"], "abc|def"],
      ["truncate leaves a number alone", { truncate: 1 }, 12345, 12345],
    ];
    for (const [what, options, value, expected] of cases)
      it(what, () => {
        const { de } = elements({ v: { push: "v", ...options } });
        expect(de.forPush({ v: value }).get("v")).toEqual(expected);
      });
  });

  describe("unique, sort and reduce (issue 18: the score portal's totals, codes once each, and latest year; spec section 3)", () => {
    const cases: Array<[string, Record<string, unknown>, unknown, unknown]> = [
      ['"AP score send: total sent, DI codes": each code once', { join: "|", unique: true }, ["1234", "5678", "1234"], "1234|5678"],
      ['"Score sends: ... dedupe key": the codes sorted', { join: "|", unique: true, sort: true }, ["8765", "4321", "8765"], "4321|8765"],
      ['"total sent": count, blank items left out, each once', { reduce: "count", unique: true }, ["1234", "", null, "5678", "1234"], 2],
      ["count of an empty list is 0", { reduce: "count" }, [], 0],
      ['"AP score view: maxApTestYear": the largest number among numbers and numeric texts', { reduce: "max" }, [2023, "2024", "n/a"], 2024],
      ["max of a list without numbers: no value", { reduce: "max" }, ["n/a", ""], undefined],
      ["reduce wins over join", { reduce: "count", join: "|" }, ["a", "b"], 2],
      ["reduce leaves a value that is not a list alone", { reduce: "max" }, "2024", "2024"],
      ["unique and sort without join or reduce change nothing", { unique: true, sort: true }, ["b", "a", "b"], ["b", "a", "b"]],
    ];
    for (const [what, options, value, expected] of cases)
      it(what, () => {
        const { de } = elements({ v: { push: "v", ...options } });
        expect(de.forPush({ v: value }).get("v")).toEqual(expected);
      });
    it("a bundle without the list options (no data element uses them: features.ts) still joins", () => {
      const { de } = elements({ v: { push: "v", join: "|" } }, { noLists: true });
      expect(de.forPush({ v: ["a", "", "b"] }).get("v")).toBe("a|b");
    });
    it("the schema takes unique, sort and reduce (count or max) and refuses another reduce", () => {
      expect(DataElementSchema.safeParse({ push: "v", join: "|", unique: true, sort: true }).success).toBe(true);
      expect(DataElementSchema.safeParse({ push: "v", reduce: "max" }).success).toBe(true);
      expect(DataElementSchema.safeParse({ push: "v", reduce: "sum" }).success).toBe(false);
    });
  });

  it("sources: cookie, query parameter, data-layer path, page global path, page info, constant, provided", () => {
    const { de } = elements(
      {
        c: { cookie: "kc" },
        q: { query: "tab" },
        d: { dataLayer: "search.term" },
        g: { global: "kiwi.user.id" },
        p: { page: "path" },
        t: { page: "title" },
        k: { constant: 7 },
        s: { provided: "site" },
      },
      { cookies: { kc: "v1" }, query: "tab=Scores", state: { search: { term: "SAT dates" } }, win: { kiwi: { user: { id: "u9" } } } },
    );
    expect(["c", "q", "d", "g", "p", "t", "k", "s"].map(de.get)).toEqual(["v1", "Scores", "SAT dates", "u9", "/scores/", "Scores", 7, "scores"]);
  });

  it("push: reads the push that triggered the rule (forPush), not the merged state; no value outside a push rule; tokens and constants too", () => {
    const { de } = elements(
      { code: { push: "code", default: "none" }, where: { push: "error.page" }, merged: { dataLayer: "code" }, label: { constant: "%code%@%where%" } },
      { state: { code: "E1" } },
    );
    const second = de.forPush({ event: "application-error", error: { page: "checkout" } });
    expect(second.get("code")).toBe("none"); // this push has no code: the merged state's E1 is not its code
    expect(second.get("merged")).toBe("E1");
    expect(second.resolve("%label%")).toBe("none@checkout");
    expect(second.resolveDeep({ v: ["%code%"] })).toEqual({ v: ["none"] });
    expect(de.forPush({ code: 404 }).get("code")).toBe(404);
    expect(de.get("code")).toBe("none");
    expect(de.forPush(undefined).get("where")).toBeUndefined();
  });

  it('"Default value, clean text, lowercase"', () => {
    const { de } = elements(
      { missing: { cookie: "none", default: "Not Logged In" }, term: { dataLayer: "t", clean: true, lowercase: true } },
      { state: { t: "  SAT   Test\nDates " } },
    );
    expect(de.get("missing")).toBe("Not Logged In");
    expect(de.get("term")).toBe("sat test dates");
  });

  it('"references to other data elements as %name% tokens"', () => {
    const { de } = elements({ site: { provided: "site" }, tab: { query: "tab" }, label: { constant: "%site%:%tab%" } }, { query: "tab=overview" });
    expect(de.get("label")).toBe("scores:overview");
    expect(de.resolve("page %label% / %unknown%")).toBe("page scores:overview / %unknown%");
    expect(de.resolveDeep({ a: ["%site%"], b: 1 })).toEqual({ a: ["scores"], b: 1 });
  });

  it('property: "references to other data elements as %name% tokens": a text split once and reused resolves as a regular-expression replace of each token would (issue #21)', () => {
    const values: Record<string, string | number | undefined> = { a: "x", b: 7, c: "", d: undefined };
    const { de } = elements({ a: { constant: "x" }, b: { constant: 7 }, c: { cookie: "none" }, d: { cookie: "none" } });
    const model = (text: string) =>
      text.replace(/%([A-Za-z][A-Za-z0-9_.-]*)%/g, (whole, name: string) => (name in values ? String(values[name] ?? "") : whole));
    const piece = fc.constantFrom("%a%", "%b%", "%c%", "%d%", "%zz%", "%", "%%", "a", " - ", "%1%", "%a", "b%", "%a.b%");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (parts) => {
        const text = parts.join("");
        // Twice: the second resolve reuses the split pieces.
        expect(de.resolve(text)).toBe(model(text));
        expect(de.resolve(text)).toBe(model(text));
      }),
      { numRuns: 300 },
    );
  });

  it(`"circular-reference depth ${MAX_DEPTH}": the runtime's last line of defence logs and stops`, () => {
    const { de, logs } = elements({ a: { constant: "%b%" }, b: { constant: "%c%" }, c: { constant: "%a%" } });
    expect(() => de.get("a")).not.toThrow();
    expect(logs).toContainEqual(expect.objectContaining({ level: "error", message: DATA_ELEMENT_CIRCULAR }));
  });

  it('"storage duration (page view, session, visitor)": a found value is remembered for its duration', () => {
    const state: Record<string, unknown> = { campaign: "em_spring" };
    const { de } = elements(
      {
        none: { dataLayer: "campaign" },
        pv: { dataLayer: "campaign", storage: "pageView" },
        ses: { dataLayer: "campaign", storage: "session" },
        vis: { dataLayer: "campaign", storage: "visitor" },
      },
      { state },
    );
    expect([de.get("none"), de.get("pv"), de.get("ses"), de.get("vis")]).toEqual(["em_spring", "em_spring", "em_spring", "em_spring"]);
    delete state.campaign;
    expect([de.get("none"), de.get("pv"), de.get("ses"), de.get("vis")]).toEqual([undefined, "em_spring", "em_spring", "em_spring"]);
    de.newPageView();
    expect([de.get("pv"), de.get("ses"), de.get("vis")]).toEqual([undefined, "em_spring", "em_spring"]);
  });

  it("exactly one source per data element (the compiler's check)", () => {
    expect(DataElementSchema.safeParse({ cookie: "a", query: "b" }).success).toBe(false);
    expect(DataElementSchema.safeParse({ default: "x" }).success).toBe(false);
  });
});

describe("the data layer", () => {
  function layer(preloaded: unknown[] = []) {
    const win: Record<string, unknown> = { kiwiDataLayer: preloaded };
    const { logs, log } = logger();
    const dl = createDataLayer(win, "kiwiDataLayer", log, { emit() {} });
    const seen: Array<string | undefined> = [];
    dl.on((push, event) => {
      seen.push(event);
      if (event === "first") (win.kiwiDataLayer as unknown[]).push({ event: "nested" });
    });
    return { win, dl, seen, logs };
  }

  it('"Pushes made before the bundle loads are processed in order on load; later pushes are processed as they come"', () => {
    const { win, dl, seen } = layer([{ page: { name: "a" } }, { event: "search", search: { term: "x" } }]);
    expect(seen).toEqual([]);
    dl.start();
    expect(seen).toEqual([undefined, "search"]);
    (win.kiwiDataLayer as unknown[]).push({ event: "later" });
    expect(seen).toEqual([undefined, "search", "later"]);
  });

  it("a push made after the bundle loaded but before the data layer starts (the startup wait) is processed once, after the earlier ones", () => {
    const { win, dl, seen } = layer([{ event: "before-load" }]);
    (win.kiwiDataLayer as unknown[]).push({ event: "during-startup" });
    dl.start();
    expect(seen).toEqual(["before-load", "during-startup"]);
  });

  it("queue semantics: a push made while another is processed waits its turn", () => {
    const { win, dl, seen } = layer();
    dl.start();
    (win.kiwiDataLayer as unknown[]).push({ event: "first" }, { event: "second" });
    expect(seen).toEqual(["first", "second", "nested"]);
  });

  it('"Computed state: the deep merge of all data pushes"', () => {
    const { win, dl } = layer([{ user: { type: "student", grade: 11 } }]);
    dl.start();
    (win.kiwiDataLayer as unknown[]).push({ event: "update", user: { grade: 12 }, list: [1, 2] }, { list: [3] });
    expect(dl.state()).toEqual({ user: { type: "student", grade: 12 }, list: [3] });
    expect(dl.get("user.grade")).toBe(12);
  });

  it("the global array keeps the last 100 processed pushes (bounded memory); the computed state keeps everything", () => {
    const { win, dl } = layer();
    dl.start();
    for (let i = 0; i < 250; i++) (win.kiwiDataLayer as unknown[]).push({ event: "tick", ["k" + i]: i });
    expect((win.kiwiDataLayer as unknown[]).length).toBe(100);
    expect(dl.get("k0")).toBe(0);
    expect(dl.get("k249")).toBe(249);
  });

  it("a push holding a cycle, a DOM-like object or a throwing getter never stops the data layer: made before load or after, the pushes after it go on", () => {
    const cyclic: Record<string, unknown> = { name: "card" };
    cyclic.self = cyclic;
    class Node {
      parent = this;
    }
    const node = new Node();
    const bad = { event: "bad" } as Record<string, unknown>;
    Object.defineProperty(bad, "target", {
      enumerable: true,
      get: () => {
        throw new Error("getter");
      },
    });
    const { win, dl, seen, logs } = layer([{ event: "modal", target: cyclic, el: node }, bad, { event: "after" }]);
    dl.start();
    expect(seen).toEqual(["modal", "after"]);
    expect(dl.get("target.name")).toBe("card");
    expect(dl.get("el")).toBe(node);
    expect(logs).toContainEqual(expect.objectContaining({ level: "warn" }));
    (win.kiwiDataLayer as unknown[]).push(bad, { event: "later", target: cyclic });
    expect(seen).toEqual(["modal", "after", "later"]);
  });
  it("a push that is not an object is ignored with a warning; no prototype pollution", () => {
    const { win, dl, logs } = layer();
    dl.start();
    (win.kiwiDataLayer as unknown[]).push("oops", JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(logs[0]).toMatchObject({ level: "warn" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("conditions", () => {
  const ctx = (over: Partial<ConditionContext> = {}): ConditionContext => ({
    page: () => ({
      host: "satreg.kiwi.example",
      path: "/register/paymentConfirmation",
      query: new URLSearchParams("flow=new&x="),
      hash: "",
      referrer: "",
      href: "",
    }),
    cookie: (n) => (n === "kiwi_session" ? "abc" : undefined),
    dataElement: (n) => ({ count: "7", term: "SAT" })[n],
    consent: (c) => c === "performance",
    env: "prod",
    loggedIn: () => true,
    random: () => 0.42,
    table: allRuleFeatures().conditions,
    ...over,
  });
  it.each([
    [{ type: "host", equals: "satreg.kiwi.example" }, true],
    [{ type: "host", matches: "^scores\\." }, false],
    [{ type: "path", startsWith: "/register/" }, true],
    [{ type: "query", name: "flow", equals: "new" }, true],
    [{ type: "query", name: "x", exists: true }, false],
    [{ type: "query", name: "missing", exists: false }, true],
    [{ type: "cookie", name: "kiwi_session", exists: true }, true],
    [{ type: "dataElement", name: "count", gt: 5, lt: 10 }, true],
    [{ type: "dataElement", name: "term", matches: "^S" }, true],
    [{ type: "consent", category: "marketing" }, false],
    [{ type: "sampling", percent: 50 }, true],
    [{ type: "sampling", percent: 40 }, false],
    [{ type: "loggedIn", value: true }, true],
    [{ type: "env", in: ["qa", "dev"] }, false],
    [{ type: "not", condition: { type: "env", in: ["qa"] } }, true],
    [
      {
        type: "allOf",
        conditions: [
          { type: "env", in: ["prod"] },
          { type: "consent", category: "marketing" },
        ],
      },
      false,
    ],
    [
      {
        type: "anyOf",
        conditions: [
          { type: "env", in: ["qa"] },
          { type: "consent", category: "performance" },
        ],
      },
      true,
    ],
  ] as const)("%j → %s", (condition, expected) => {
    expect(evaluate(condition as never, ctx())).toBe(expected);
  });
  it('integer: true passes an integer number only ("List change needs ... an integer newTotalItemsInList"); false the opposite; with equals both apply', () => {
    const values: Record<string, unknown> = { n: 3, s: "3", f: 3.5, z: 0, neg: -2, inf: Infinity, nan: NaN, none: undefined, b: true };
    const with_ = (condition: Record<string, unknown>, name: string) =>
      evaluate({ type: "dataElement", name, ...condition } as never, ctx({ dataElement: (n) => values[n] }));
    expect(Object.keys(values).filter((name) => with_({ integer: true }, name))).toEqual(["n", "z", "neg"]);
    expect(Object.keys(values).filter((name) => with_({ integer: false }, name))).toEqual(["s", "f", "inf", "nan", "none", "b"]);
    expect(with_({ integer: true, equals: 3 }, "n")).toBe(true);
    expect(with_({ integer: true, equals: 3 }, "s")).toBe(false);
    expect(with_({ integer: true, equals: 6 }, "n")).toBe(false);
  });
});

describe("readPath (issue #21: each path split once)", () => {
  it("reads the same path twice alike, and paths named like Object's own properties are paths, not the cache's", () => {
    const root = { a: { b: 1 }, constructor: { x: 2 }, hasOwnProperty: 3, length: 4, ["__proto__"]: 5 };
    Object.defineProperty(root, "__proto__", { value: { y: 6 }, enumerable: true });
    for (let i = 0; i < 2; i++) {
      expect(readPath(root, "a.b")).toBe(1);
      expect(readPath(root, "constructor.x")).toBe(2);
      expect(readPath(root, "constructor")).toEqual({ x: 2 });
      expect(readPath(root, "hasOwnProperty")).toBe(3);
      expect(readPath(root, "length")).toBe(4);
      expect(readPath(root, "__proto__.y")).toBe(6);
      expect(readPath(root, "a.missing.deeper")).toBeUndefined();
    }
  });
});

describe("names like Object's own properties", () => {
  it('"references to other data elements as %name% tokens": %toString% with no such element stays as written; an element named constructor reads its own source; asking for valueOf warns it is unknown', () => {
    const { de, logs } = elements({ constructor: { query: "c" }, site: { provided: "site" } }, { query: "c=7" });
    expect(de.resolve("%toString%/%hasOwnProperty%/%site%")).toBe("%toString%/%hasOwnProperty%/scores");
    expect(de.get("constructor")).toBe("7");
    expect(de.get("valueOf")).toBeUndefined();
    // Only the element asked for by name that does not exist is reported.
    expect(logs.map((l) => [l.message, l.data])).toEqual([[DATA_ELEMENT_UNKNOWN, { name: "valueOf" }]]);
  });

  it("a data-layer element named constructor, held for a push's rules, is read from the data layer, not from the held table's prototype", () => {
    const { de } = elements({ constructor: { dataLayer: "k" } }, { state: { k: "v" } });
    const release = de.hold!();
    expect(de.get("constructor")).toBe("v");
    release();
  });

  it("a condition's pattern named like an Object member is compiled, not found in the pattern cache", () => {
    expect(matchValue("constructor", { matches: "constructor" })).toBe(true);
    expect(matchValue("x", { matches: "toString" })).toBe(false);
    expect(matchValue("toString", { matches: "^toString$" })).toBe(true);
  });
});

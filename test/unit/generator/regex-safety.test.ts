/**
 * "Regular expressions in the config run in students' browsers, against
 * every URL and host": catastrophic backtracking is refused at build time
 * (recheck), slash-wrapped patterns are a warning.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { hasNoQuantifier, regexVerdict } from "../../../generator/config/regex-safety.js";
import { looksSlashWrapped } from "../../../generator/config/regex-literal.js";
import { RegexString, SettingsSchema, OrgFileSchema } from "../../../generator/config/schema.js";

describe('"Reject a pattern with catastrophic backtracking"', () => {
  it("the issue's patterns are exponential: ^(a+)+$ and (x+x+)+y", () => {
    for (const src of ["^(a+)+$", "(x+x+)+y"]) {
      const verdict = regexVerdict(src);
      expect(verdict, src).toMatchObject({ kind: "unsafe", growth: "exponential time" });
      // The attack string shown is one that makes the pattern backtrack.
      if (verdict.kind === "unsafe") expect(verdict.attack.length).toBeGreaterThan(10);
    }
  });

  it("polynomial growth of degree 3 or more is refused too (a*a*a*b)", () => {
    expect(regexVerdict("a*a*a*b")).toMatchObject({ kind: "unsafe" });
  });

  it("quadratic patterns, common in path patterns and harmless on URL-sized input, are accepted (/scores/.*/details, \\d+\\.\\d+)", () => {
    expect(regexVerdict("/scores/.*/details")).toEqual({ kind: "safe" });
    expect(regexVerdict("\\d+\\.\\d+")).toEqual({ kind: "safe" });
  });

  it("a pattern without any quantifier is safe without running the checker", () => {
    expect(hasNoQuantifier("-dev\\.kiwi\\.example$")).toBe(true);
    expect(hasNoQuantifier("^(localhost|127\\.0\\.0\\.1)$")).toBe(true);
    expect(hasNoQuantifier("^privacy(-[a-z0-9]+)?\\.")).toBe(false);
    expect(hasNoQuantifier("a{2}")).toBe(false);
  });

  it("the verdict does not vary between calls (a fixed seed; kept per pattern)", () => {
    expect(regexVerdict("(x+x+)+y")).toEqual(regexVerdict("(x+x+)+y"));
  });

  it("every regular-expression default of the schema is safe and no literal", () => {
    const defaults = regexDefaults(SettingsSchema).concat(regexDefaults(OrgFileSchema));
    expect(defaults.length).toBeGreaterThanOrEqual(3);
    for (const src of new Set(defaults)) {
      expect(regexVerdict(src), src).toEqual({ kind: "safe" });
      expect(looksSlashWrapped(src), src).toBe(false);
    }
  });
});

describe('"warn on slash-wrapped patterns"', () => {
  it("slashes with flags, or an anchor just inside a slash, make a JavaScript literal", () => {
    expect(looksSlashWrapped("/-dev\\.kiwi\\.example$/i")).toBe(true);
    expect(looksSlashWrapped("/^/scores/")).toBe(true);
    expect(looksSlashWrapped("/scores$/")).toBe(true);
    expect(looksSlashWrapped("/x/gi")).toBe(true);
  });

  it("a path pattern that starts and ends with a slash is no literal (/sat/, /a\\$/)", () => {
    expect(looksSlashWrapped("/sat/")).toBe(false);
    expect(looksSlashWrapped("/a\\$/")).toBe(false);
    expect(looksSlashWrapped("^/sat/.*$")).toBe(false);
    expect(looksSlashWrapped("-dev\\.kiwi\\.example$")).toBe(false);
  });
});

type Def = {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  options?: z.ZodType[];
  in?: z.ZodType;
  out?: z.ZodType;
  getter?: () => z.ZodType;
  defaultValue?: unknown;
};
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The default values of every RegexString wrapped in a default, anywhere in a schema. */
function regexDefaults(schema: z.ZodType, seen = new Set<z.ZodType>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = defOf(schema);
  const out: string[] = [];
  if (def.type === "default" && def.innerType === RegexString && typeof def.defaultValue === "string") out.push(def.defaultValue);
  const children = [
    def.innerType,
    def.element,
    def.valueType,
    def.in,
    def.out,
    ...(def.options ?? []),
    ...Object.values(def.shape ?? {}),
    def.type === "lazy" && def.getter ? def.getter() : undefined,
  ];
  for (const child of children) if (child) out.push(...regexDefaults(child, seen));
  return out;
}

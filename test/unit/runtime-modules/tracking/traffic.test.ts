import { describe, expect, it, vi } from "vitest";
import { AnalyticsRulesSchema } from "../../../../generator/config/schemas/analytics.js";
import { decodeHistory, encodeHistory, DAY_MS } from "../../../../runtime-modules/analytics/traffic-source";
import { HISTORY_COOKIE, LIFETIME_COOKIE, trafficVariables } from "../../../../runtime-modules/tracking/traffic";
import { memoryCookies } from "./recorder";
import { ORG_VARIABLES } from "../helpers/variables";

const rules = AnalyticsRulesSchema.parse({});
const NOW = Date.UTC(2026, 2, 1);

function deps(jar: Record<string, string> = {}, consent = true) {
  const c = memoryCookies(jar);
  const granted: Array<() => void> = [];
  const whenAllowed = vi.fn((_category: string, cb: () => void) => (consent ? cb() : granted.push(cb)));
  return { c, granted, whenAllowed, deps: { cookies: c.cookies, consent: { whenAllowed }, rules, apexDomain: "kiwi.example", names: ORG_VARIABLES.traffic } };
}

describe("trafficVariables", () => {
  it("a campaign visit: the variables, the session history, s_tbm (1800 s), s_gvo_cm and, with performance consent, the lifetime cookie (60 days)", () => {
    const d = deps();
    const vars = trafficVariables("https://bigfuture.kiwi.example/?excmpid=em-2026-spring&sfmc_mid=M1", "", NOW, d.deps);
    expect(vars).toEqual({ eVar80: "em-2026-spring", eVar81: "Email", eVar86: "em-2026-spring", eVar87: "M1", eVar90: "Email", eVar91: "Email" });
    expect(decodeHistory(d.c.jar[HISTORY_COOKIE])).toEqual({ channels: ["Email"], campaigns: ["em-2026-spring"], first: "Email", latest: "Email", t: NOW });
    expect(d.c.writes.find((w) => w.name === HISTORY_COOKIE)!.options).toBeUndefined();
    expect(d.whenAllowed).toHaveBeenCalledWith("performance", expect.any(Function));
    expect(d.c.writes.find((w) => w.name === LIFETIME_COOKIE)).toMatchObject({ value: d.c.jar[HISTORY_COOKIE], options: { maxAgeSeconds: 60 * 86400 } });
    expect(d.c.writes.find((w) => w.name === "s_tbm")).toEqual({ name: "s_tbm", value: "Email", options: { maxAgeSeconds: 1800 } });
    expect(d.c.jar.s_gvo_cm).toBe("em-2026-spring");
  });
  it("every cookie read comes before the first write (a write drops boot's cookie snapshot; a read after it is another round trip)", () => {
    for (const jar of [{}, { s_gvo_cm: "em-1", s_tbm: "Email" }] as Array<Record<string, string>>) {
      const d = deps(jar);
      const ops: string[] = [];
      const { get, set } = d.c.cookies;
      d.c.cookies.get = (name: string) => (ops.push(`get ${name}`), get(name));
      d.c.cookies.set = (name: string, value: string, options?: { maxAgeSeconds?: number }) => (ops.push(`set ${name}`), set(name, value, options));
      trafficVariables("https://bigfuture.kiwi.example/?excmpid=em-2026-spring", "", NOW, d.deps);
      const firstWrite = ops.findIndex((op) => op.startsWith("set "));
      expect(firstWrite).toBeGreaterThan(0);
      expect(ops.slice(firstWrite).filter((op) => op.startsWith("get "))).toEqual([]);
    }
  });
  it("value once: the same campaign again is not sent as campaign, and s_gvo_cm is not rewritten", () => {
    const d = deps({ s_gvo_cm: "em-2026-spring" });
    const vars = trafficVariables("https://bigfuture.kiwi.example/?excmpid=em-2026-spring", "", NOW, d.deps);
    expect(vars.eVar80).toBeUndefined();
    expect(vars.eVar81).toBe("Email");
    expect(d.c.writes.filter((w) => w.name === "s_gvo_cm")).toEqual([]);
  });
  it("the lifetime cookie only with performance consent (written when consent comes)", () => {
    const d = deps({}, false);
    trafficVariables("https://www.kiwi.example/", "https://www.google.com/search?q=SAT+dates", NOW, d.deps);
    expect(d.c.jar[LIFETIME_COOKIE]).toBeUndefined();
    expect(d.c.jar[HISTORY_COOKIE]).toBeDefined();
    d.granted.forEach((cb) => cb());
    expect(d.c.jar[LIFETIME_COOKIE]).toBe(d.c.jar[HISTORY_COOKIE]);
  });
  it("an organic search visit: referrer (redacted), referring domain, keywords", () => {
    const d = deps();
    expect(trafficVariables("https://www.kiwi.example/", "https://www.google.com/search?q=SAT+Dates&u=me", NOW, d.deps)).toEqual({
      eVar81: "Organic Search",
      eVar82: "https://www.google.com/search?q=SAT+Dates&u=[redacted]",
      eVar83: "google.com",
      eVar85: "sat dates",
      eVar90: "Organic Search",
      eVar91: "Organic Search",
    });
  });
  it("within a visit (s_tbm set) an internal page view starts no touch and changes no history; s_tbm slides", () => {
    const history = encodeHistory({ channels: ["Email"], campaigns: ["em-1"], first: "Email", latest: "Email", t: NOW - DAY_MS });
    const d = deps({ [HISTORY_COOKIE]: history, [LIFETIME_COOKIE]: history, s_tbm: "Email" });
    const vars = trafficVariables("https://www.kiwi.example/b", "https://www.kiwi.example/a", NOW, d.deps);
    expect(vars).toEqual({ eVar86: "em-1", eVar90: "Email", eVar91: "Email" });
    expect(d.c.writes.map((w) => w.name)).toEqual(["s_tbm"]);
  });
  it("a new session reads the lifetime cookie; direct visits do not overwrite an earlier non-direct one; history expires after 60 days", () => {
    const history = encodeHistory({ channels: ["Social Media"], campaigns: ["sm-1"], first: "Social Media", latest: "Social Media", t: NOW - 10 * DAY_MS });
    const d = deps({ [LIFETIME_COOKIE]: history });
    expect(trafficVariables("https://www.kiwi.example/", "", NOW, d.deps)).toMatchObject({ eVar81: "Direct", eVar90: "Social Media", eVar91: "Social Media" });
    const old = encodeHistory({ channels: ["Social Media"], campaigns: ["sm-1"], first: "Social Media", latest: "Social Media", t: NOW - 61 * DAY_MS });
    const e = deps({ [LIFETIME_COOKIE]: old });
    expect(trafficVariables("https://www.kiwi.example/", "", NOW, e.deps)).toMatchObject({ eVar81: "Direct", eVar90: "Direct", eVar91: "Direct" });
  });
});

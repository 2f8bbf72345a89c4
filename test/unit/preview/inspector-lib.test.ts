import { describe, expect, it } from "vitest";
import { cookieWrites, latestJar, parseCookieWrite } from "../../../preview/src/lib/cookies";
import { computedState, pushesOf } from "../../../preview/src/lib/data-layer";
import { detailOf, eventSummary } from "../../../preview/src/lib/events";
import { deepMerge, jsonDiff, stableStringify, toJson } from "../../../preview/src/lib/json";
import { catalogue, isCatalogued, logRows } from "../../../preview/src/lib/log";
import { findTemplate, PAGE_TEMPLATES, querySwitches, templateGroups } from "../../../preview/src/lib/pages";
import type { Entry } from "../../../preview/src/lib/protocol";
import { ruleTemplates, templatesFromDocs } from "../../../preview/src/lib/templates";
import * as eventDocs from "../../../runtime-modules/data-layer-events/event-docs";
import { validatePush } from "../../../runtime-modules/data-layer-events/validate-push";
import { MOCK_PUSHES } from "../../../preview/server/mock-page";

const push = (at: number, data: Record<string, unknown>, page = 1): Entry => ({
  kind: "monitor",
  page,
  at,
  event: { type: "dataLayer", t: at, event: data.event, push: data },
});

describe("data layer", () => {
  it("computes the state as the runtime does: deep merge, lists replace, event left out", () => {
    const entries = [
      push(1, { event: "search", search: { term: "a", tags: [1, 2] } }),
      push(2, { search: { type: "site", tags: [3] }, user: { id: 1 } }),
      push(3, { event: "x", user: "replaced" }, 2),
    ];
    expect(pushesOf(entries).map((p) => p.event)).toEqual(["search", undefined, "x"]);
    expect(computedState(pushesOf(entries, 1))).toEqual({ search: { term: "a", tags: [3], type: "site" }, user: { id: 1 } });
    expect(computedState(pushesOf(entries))).toEqual({ search: { term: "a", tags: [3], type: "site" }, user: "replaced" });
  });
});

describe("cookies", () => {
  it("parses writes with attributes and deletions", () => {
    expect(parseCookieWrite("a=1; Path=/; Domain=kiwi.example; Max-Age=60; Secure; SameSite=Lax")).toMatchObject({
      name: "a",
      value: "1",
      attributes: { path: "/", domain: "kiwi.example", "max-age": "60", secure: "", samesite: "Lax" },
      deletion: false,
    });
    expect(parseCookieWrite("a=; max-age=0").deletion).toBe(true);
    expect(parseCookieWrite("a=; expires=Thu, 01 Jan 1970 00:00:00 GMT").deletion).toBe(true);
    const entries: Entry[] = [
      { kind: "cookie", page: 1, at: 1, text: "s=1", by: "setup" },
      {
        kind: "snapshot",
        page: 1,
        at: 2,
        snapshot: { href: "", cookies: "s=1; t=2", consentGroups: null, gpc: false, dataLayerLength: 0, storage: {}, thirdParty: [] },
      },
    ];
    expect(cookieWrites(entries).map((c) => [c.name, c.by])).toEqual([["s", "setup"]]);
    expect(latestJar(entries)).toEqual({ s: "1", t: "2" });
  });
});

describe("log and events", () => {
  it("marks the catalogue's messages, templated ones by their fixed start", () => {
    const cat = catalogue({ A: "not authorized for this domain", f: (n: string) => `timed out after ${n} attempts`, short: (n: string) => `${n}x` });
    expect(isCatalogued("not authorized for this domain", cat)).toBe(true);
    expect(isCatalogued("timed out after 3 attempts", cat)).toBe(true);
    expect(isCatalogued("something else", cat)).toBe(false);
    expect(isCatalogued("not authorized for this domain")).toBe(true);
    const rows = logRows([
      { kind: "monitor", page: 1, at: 5, event: { type: "log", t: 5, level: "error", message: "my own words", code: "x", data: { a: 1 } } },
    ]);
    expect(rows).toEqual([{ page: 1, at: 5, t: 5, level: "error", message: "my own words", code: "x", data: { a: 1 }, catalogued: false }]);
  });

  it("summarises known event types and shows any other as JSON", () => {
    expect(eventSummary({ type: "boot", t: 1, version: "1", site: "s", env: "qa", bundleEnv: "qa" })).toBe("version 1 · site s · env qa (built for qa)");
    expect(eventSummary({ type: "rule", t: 1, rule: "r", event: "click", action: 1, actionType: "pixel", outcome: "timed out" })).toBe(
      "r on click: action 1 pixel timed out",
    );
    expect(eventSummary({ type: "tag", t: 1, tag: "chat", state: "waiting", consent: "functional" })).toBe("chat: waiting (consent functional)");
    expect(eventSummary({ type: "brandNew", t: 1, answer: 42 })).toBe('{"answer":42}');
    expect(detailOf({ type: "x", t: 1, a: 1 })).toEqual({ a: 1 });
  });
});

describe("page templates and push templates", () => {
  it("cover the spec's pages, each id once, grouped", () => {
    const ids = PAGE_TEMPLATES.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(templateGroups().map((g) => g.group)).toEqual(["General", "SAT registration", "Scores", "Sign-in", "Error pages", "Test-day tool", "Hub embeds"]);
    expect(findTemplate("payment-confirmation")?.path).toBe("/register/paymentConfirmation");
    for (const t of PAGE_TEMPLATES) expect(t.path.startsWith("/")).toBe(true);
    expect(querySwitches(["chat"])[0]).toEqual({ flag: "cb-disable-chat", label: "cb-disable-chat" });
  });

  it("turn the documented events' examples into pushes; anything else gives none", () => {
    expect(templatesFromDocs({ EVENT_DOCS: { search: { when: "w", example: { term: "t" } }, broken: { when: "x" } } })).toEqual([
      { id: "doc:search", label: "search", group: "documented events", when: "w", push: { event: "search", term: "t" } },
    ]);
    expect(templatesFromDocs(undefined)).toEqual([]);
  });

  it("the preview's own pushes are well-formed: every template, every page template's push and every mock-page push passes the data-layer checks", () => {
    const docs = templatesFromDocs(eventDocs);
    const rules = ruleTemplates({ rules: [{ id: "modal", events: [{ type: "dataLayerPush", event: "modal" }], conditions: [], actions: [] }] }, docs);
    expect(rules.map((t) => t.push.event)).toEqual(["modal"]);
    const pushes: unknown[] = [...docs, ...rules].map((t) => t.push);
    for (const t of PAGE_TEMPLATES) pushes.push(...(t.dataLayer ?? []));
    pushes.push(...Object.values(MOCK_PUSHES));
    // What site-app.js changes in them: the modal's state, the search's term and count, the video's events.
    pushes.push({ ...MOCK_PUSHES.modal, modalState: "hidden" }, { ...MOCK_PUSHES.search, term: "", count: 0 });
    for (const videoEvent of ["started", "paused", "resumed", "ended"])
      pushes.push({ ...MOCK_PUSHES.video, videoEvent, videoMilestone: undefined, videoCurrentTime: 30 });
    const warnings: string[] = [];
    const log = { warn: (m: string) => warnings.push(m), info: () => undefined, error: (m: string) => warnings.push(m), debug: () => undefined };
    for (const p of pushes) validatePush(p as Record<string, unknown>, log as never);
    expect(warnings).toEqual([]);
    expect(docs.length).toBeGreaterThanOrEqual(20);
  });
});

describe("json helpers", () => {
  it("stable text, merge, diff, safe copies", () => {
    expect(stableStringify({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}');
    expect(deepMerge({ a: { b: 1 } }, { a: { c: 2 } })).toEqual({ a: { b: 1, c: 2 } });
    expect(jsonDiff({ a: 1, b: { c: [1] } }, { a: 1, b: { c: [2] }, d: true })).toEqual([
      { path: "b.c", a: [1], b: [2] },
      { path: "d", a: undefined, b: true },
    ]);
    const cyclic: Record<string, unknown> = { f: () => 1 };
    cyclic.self = cyclic;
    expect(toJson(cyclic)).toEqual({ f: "[function]", self: "[circular]" });
  });
});

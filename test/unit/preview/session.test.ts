import { describe, expect, it } from "vitest";
import type { Entry } from "../../../preview/src/lib/protocol";
import { diffSessions, exportSession, makeSession, parseSession, SESSION_FORMAT, summarize, type BundleInfo } from "../../../preview/src/lib/session";
import { normalizeConfig } from "../../../preview/src/lib/bundle-config";
import { DEFAULT_STATE } from "../../../preview/src/lib/state";

function bundle(env: string): BundleInfo {
  return {
    key: `dist:${env}/bigfuture`,
    dist: "dist",
    site: "bigfuture",
    env,
    file: `${env}/bigfuture/sitetags.abc.min.js`,
    alias: `${env}/bigfuture/sitetags.min.js`,
    bytes: 1000,
    gzipBytes: 500,
    brotliBytes: 450,
    integrity: "sha384-x",
    modules: ["survey"],
    inputsHash: env,
  };
}

function entries(env: string, suite: string): Entry[] {
  const requestId = `${env}-1`;
  const body = JSON.stringify({
    events: [{ xdm: { eventType: "web.webpagedetails.pageViews", web: { webPageDetails: { name: "bigfuture/home" } } } }],
    meta: { configOverrides: { com_adobe_analytics: { reportSuites: [suite] } } },
  });
  const url = `https://edge.kiwi.example/ee/v1/interact?configId=ds-${env}&requestId=${requestId}`;
  return [
    { kind: "page", page: 1, at: 1, href: `https://bigfuture${env === "prod" ? "" : `-${env}`}.kiwi.example/`, title: "t", timeOrigin: 0, csp: "strict" },
    { kind: "monitor", page: 1, at: 2, event: { type: "boot", t: 2, version: "0.1.0", site: "bigfuture", env, bundleEnv: env } },
    { kind: "monitor", page: 1, at: 3, event: { type: "rule", t: 3, rule: "page-view", event: "libraryLoaded", state: "triggered" } },
    { kind: "monitor", page: 1, at: 3, event: { type: "rule", t: 3, rule: "page-view", event: "libraryLoaded", state: "fired" } },
    { kind: "monitor", page: 1, at: 4, event: { type: "beacon", t: 4, url, requestId, eventType: "web.webpagedetails.pageViews", body } },
    {
      kind: "network",
      page: 1,
      at: 5,
      request: {
        seq: 1,
        time: 5,
        kind: "edge",
        host: "edge.kiwi.example",
        method: "POST",
        url,
        path: "/ee/v1/interact",
        query: { requestId },
        status: 200,
        body,
      },
    },
    { kind: "monitor", page: 1, at: 6, event: { type: "log", t: 6, level: "info", message: env === "qa" ? "sampled out" : "Consent is pending." } },
    { kind: "monitor", page: 1, at: 7, event: { type: "dataLayer", t: 7, event: "search", push: { event: "search", search: { term: env } } } },
    { kind: "cookie", page: 1, at: 8, by: "page", text: "kndctr_ORG_identity=abc; path=/; domain=kiwi.example; max-age=100" },
  ];
}

const config = normalizeConfig({
  site: { code: "bigfuture" },
  env: "prod",
  rules: [{ id: "page-view", events: [], conditions: [], actions: [{ type: "sendPageView" }] }],
});
const meta = (env: string) => ({
  label: env,
  startedAt: "2026-01-01T00:00:00.000Z",
  previewUrl: "https://preview.kiwi.example/",
  pageUrl: "https://bigfuture.kiwi.example/",
  host: "bigfuture.kiwi.example",
  bundle: bundle(env),
});

describe("sessions", () => {
  it("export as JSON with a summary, and read back", () => {
    const s = makeSession(meta("prod"), { ...DEFAULT_STATE, site: "bigfuture", env: "prod" }, entries("prod", "kiwiglobalprod"), config);
    const text = exportSession(s, new Date("2026-02-03T04:05:06.000Z"));
    const back = parseSession(text);
    expect(back.format).toBe(SESSION_FORMAT);
    expect(back.meta.exportedAt).toBe("2026-02-03T04:05:06.000Z");
    expect(back.entries).toEqual(s.entries);
    expect(back.summary?.beacons).toEqual(
      [
        {
          key: "page view · bigfuture/home",
          page: 1,
          unload: false,
          title: "page view · bigfuture/home",
          eventType: "page view",
          name: "bigfuture/home",
          linkType: undefined,
          variables: {},
          reportSuites: ["kiwiglobalprod"],
          configId: "ds-prod",
          status: "ok",
          attempts: 1,
        },
      ].map((b) => JSON.parse(JSON.stringify(b))),
    );
    expect(back.summary?.rules).toEqual([
      { key: "page-view on libraryLoaded", rule: "page-view", event: "libraryLoaded", state: "fired", conditions: [], actions: ["sendPageView: done"] },
    ]); // settled by its beacon (lib/verdicts.ts)
    expect(() => parseSession("{}")).toThrow(/not a preview session/);
    expect(() => parseSession("nope")).toThrow(/not JSON/);
  });

  it("diff two environments of the same page: what differs, nothing that always differs", () => {
    const a = makeSession(meta("prod"), DEFAULT_STATE, entries("prod", "kiwiglobalprod"), config);
    const b = makeSession(meta("qa"), DEFAULT_STATE, entries("qa", "kiwiglobaldev"), config);
    const rows = diffSessions(a, b);
    const text = rows.map((r) => `${r.section}|${r.key}|${r.change}|${r.field ?? ""}|${r.a ?? ""}|${r.b ?? ""}`);
    expect(text).toContain("bundle|env|changed||prod|qa");
    expect(text).toContain('beacons|page view · bigfuture/home|changed|reportSuites|["kiwiglobalprod"]|["kiwiglobaldev"]');
    expect(text).toContain("beacons|page view · bigfuture/home|changed|configId|ds-prod|ds-qa");
    expect(text).toContain("log|info: Consent is pending.|only in A||1|");
    expect(text).toContain("log|info: sampled out|only in B|||1");
    expect(text).toContain("data layer|search.term|changed||prod|qa");
    expect(rows.some((r) => r.section === "rules" || r.section === "cookies" || r.section === "pages")).toBe(false);
    expect(diffSessions(a, a)).toEqual([]);
  });

  it("summarize works without a config (a session file from elsewhere)", () => {
    const s = summarize({ format: SESSION_FORMAT, meta: meta("prod"), state: DEFAULT_STATE, entries: entries("prod", "s") });
    expect(s.rules[0].actions).toEqual([]);
    expect(s.cookies).toEqual([{ name: "kndctr_ORG_identity", by: "page", attributes: "domain=kiwi.example; max-age=100; path=/", deletion: false }]);
  });
});

import { describe, expect, it } from "vitest";
import { bundleFileLoads } from "../../../preview/src/lib/bundle-files";
import type { Entry, NetworkRecord } from "../../../preview/src/lib/protocol";

const bundle = {
  file: "prod/bigfuture/sitetags.0123456789.min.js",
  alias: "prod/bigfuture/sitetags.min.js",
  deferred: { file: "prod/bigfuture/sitetags.defer.abcdef0123.min.js", bytes: 11000, gzipBytes: 4500, brotliBytes: 4100, integrity: "sha384-x" },
};

let seq = 0;
const request = (page: number, path: string, kind: NetworkRecord["kind"] = "bundle", status = 200): Entry => ({
  kind: "network",
  page,
  at: ++seq,
  request: { seq, time: seq, kind, host: "cdn.kiwi.example", method: "GET", url: `https://cdn.kiwi.example${path}`, path, query: {}, status },
});

describe("the bundle's files the pages fetched (#21: the first file plus the deferred file)", () => {
  it("counts the first file by alias or hashed name and the deferred file, per page, with the last status", () => {
    const entries = [
      request(1, "/prod/bigfuture/sitetags.min.js"),
      request(1, "/prod/bigfuture/sitetags.defer.abcdef0123.min.js"),
      request(1, "/prod/bigfuture/sitetags.defer.abcdef0123.min.js", "page"),
      request(2, "/prod/bigfuture/sitetags.0123456789.min.js"),
      request(2, "/prod/bigfuture/sitetags.defer.abcdef0123.min.js", "bundle", 404),
      request(2, "/prod/satreg/sitetags.min.js"),
    ];
    expect(bundleFileLoads(entries, bundle)).toEqual([
      { role: "first", file: bundle.file, requests: 2, pages: [1, 2], status: 200 },
      { role: "deferred", file: bundle.deferred.file, requests: 2, pages: [1, 2], status: 404 },
    ]);
  });

  it("matches a compared dist's files under its label, and names no deferred file for a bundle without one", () => {
    const entries = [request(1, "/other/prod/bigfuture/sitetags.min.js")];
    expect(bundleFileLoads(entries, { file: bundle.file, alias: bundle.alias })).toEqual([
      { role: "first", file: bundle.file, requests: 1, pages: [1], status: 200 },
    ]);
    expect(bundleFileLoads([], bundle).map((l) => [l.role, l.requests, l.status])).toEqual([
      ["first", 0, undefined],
      ["deferred", 0, undefined],
    ]);
  });
});

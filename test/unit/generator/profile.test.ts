/**
 * Issue #21: "the closing note ... shows, with a measured profile, where the
 * remaining bytes ... go". The size profile (generator/bundle/profile.ts,
 * `node scripts/bench.js size`) attributes each character of a first file to
 * a source through the pieces' source maps; these tests prove the decoding
 * and the attribution on hand-made maps (the bench proves the whole on the
 * real bundles: the profiled code must equal the built file).
 */
import { describe, expect, it } from "vitest";
import { attributePiece, decodeMappings, partOf } from "../../../generator/bundle/profile.js";

describe('"shows, with a measured profile, where the remaining bytes go": the size profile', () => {
  it("decodes a version-3 map's segments to generated columns and source indexes (unmapped segments: -1)", () => {
    // "AAAA": column 0 source 0; "CAAC": column +1, source +0; "ECAA": column +2, source +1; "C": column +1, no source.
    expect(decodeMappings("AAAA,CAAC,ECAA,C;AAAA")).toEqual([
      [
        [0, 0],
        [1, 0],
        [3, 1],
        [4, -1],
      ],
      [[0, 1]],
    ]);
    // A multi-digit value ("gB": 16) and a negative one ("D": -1; columns restart at 0 on each line).
    expect(decodeMappings("gBAAA;DAAA")).toEqual([[[16, 0]], [[-1, 0]]]);
  });

  it("attributes each character to its segment's source, skipping an expression's stripped head, and what no segment maps to the fallback", () => {
    // Minified "var P=ab+cd": the head "var P=" (6) was stripped; "ab" from source 0 (column 6), "+" (column 8) still source 0, "cd" from source 1 (column 9).
    const piece = { key: "k", name: "n", code: "ab+cd", map: { sources: ["x.js", "y.js"], mappings: "MAAA,EAAA,CCAA" }, mapOffset: 6 };
    expect(decodeMappings(piece.map.mappings)[0]).toEqual([
      [6, 0],
      [8, 0],
      [9, 1],
    ]);
    const ids = { "x.js": 2, "y.js": 3 } as Record<string, number>;
    expect([...attributePiece(piece, (s) => ids[s], 9)]).toEqual([2, 2, 2, 3, 3]);
    const unmapped = { ...piece, map: { sources: ["x.js", "y.js"], mappings: "MAAA,E,CCAA" } };
    expect([...attributePiece(unmapped, (s) => ids[s], 9)]).toEqual([2, 2, 9, 3, 3]);
    // Before the first segment of a line: the fallback; no map at all: all fallback.
    expect([...attributePiece({ ...piece, mapOffset: 4, code: "__ab+cd", map: { sources: ["x.js"], mappings: "MAAA" } }, () => 5, 9)]).toEqual([
      9, 9, 5, 5, 5, 5, 5,
    ]);
    expect([...attributePiece({ key: "k", name: "n", code: "abc" }, () => 5, 9)]).toEqual([9, 9, 9]);
  });

  it("groups sources into parts: a runtime folder, a feature module, an npm package, the config and the entry", () => {
    expect(partOf("runtime-modules/edge/protocol.ts")).toBe("edge");
    expect(partOf("runtime-modules/modules/sat-funnel/create.ts")).toBe("modules/sat-funnel");
    expect(partOf("node_modules/web-vitals/dist/web-vitals.js")).toBe("npm web-vitals");
    expect(partOf("node_modules/@scope/pkg/index.js")).toBe("npm @scope/pkg");
    expect(partOf("(inlined config)")).toBe("(inlined config)");
  });
});

import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { looksRendered, pngStats } from "../../../preview/server/png-check";

/** A minimal RGB PNG encoder (filter type per row as given). */
function png(width: number, height: number, pixel: (x: number, y: number) => [number, number, number], filter = 0): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    row[0] = filter;
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      const left = x > 0 ? pixel(x - 1, y) : [0, 0, 0];
      const raw = [r, g, b];
      for (let i = 0; i < 3; i++) row[1 + x * 3 + i] = filter === 1 ? (raw[i] - left[i]) & 0xff : raw[i];
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("pngStats", () => {
  it("a blank render is one colour with no spread", () => {
    const s = pngStats(png(64, 48, () => [255, 255, 255]));
    expect(s).toMatchObject({ width: 64, height: 48, colours: 1, dominantShare: 1 });
    expect(s.luminanceSpread).toBeLessThan(0.01);
    expect(looksRendered(s)).toBe(false);
  });

  it("a busy render (and the Sub filter) reads as rendered", () => {
    const s = pngStats(png(200, 120, (x, y) => [(x * 7) & 255, (y * 13) & 255, (x * y) & 255], 1));
    expect(s.colours).toBeGreaterThan(50);
    expect(looksRendered(s)).toBe(true);
  });

  it("refuses what it cannot read", () => {
    expect(() => pngStats(Buffer.from("GIF89a"))).toThrow(/not a PNG/);
  });
});

/**
 * Is a screenshot blank? Decodes an 8-bit RGB or RGBA PNG (what Chromium
 * writes) with node:zlib and measures it: distinct colours and the spread
 * of luminance. A blank or single-colour render has one colour and no
 * spread; a rendered preview has hundreds of colours.
 */
import { inflateSync } from "node:zlib";

export interface PngStats {
  width: number;
  height: number;
  /** Distinct colours among the sampled pixels (every pixel of every 4th row and column). */
  colours: number;
  /** Standard deviation of luminance (0–255) over the sampled pixels. */
  luminanceSpread: number;
  /** The most common colour's share of the sampled pixels (0–1). */
  dominantShare: number;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function pngStats(png: Buffer): PngStats {
  if (png.length < 8 || !png.subarray(0, 8).equals(SIGNATURE)) throw new Error("not a PNG");
  let offset = 8;
  let width = 0;
  let height = 0;
  let bitDepth = 0;
  let colourType = 0;
  let interlace = 0;
  const idat: Buffer[] = [];
  while (offset + 8 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString("latin1", offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      bitDepth = data[8];
      colourType = data[9];
      interlace = data[12];
    } else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    offset += 12 + length;
  }
  if (bitDepth !== 8 || (colourType !== 2 && colourType !== 6) || interlace !== 0)
    throw new Error(`unsupported PNG (bit depth ${bitDepth}, colour type ${colourType}, interlace ${interlace})`);
  const channels = colourType === 6 ? 4 : 3;
  const stride = width * channels;
  const raw = inflateSync(Buffer.concat(idat));
  const pixels = Buffer.alloc(stride * height);
  let prev = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = pixels.subarray(y * stride, (y + 1) * stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[x - channels] : 0;
      const b = prev[x];
      const c = x >= channels ? prev[x - channels] : 0;
      let v = line[x];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else if (filter !== 0) throw new Error(`bad PNG filter ${filter} on row ${y}`);
      out[x] = v & 0xff;
    }
    prev = out;
  }
  const counts = new Map<number, number>();
  let n = 0;
  let sum = 0;
  let sumSq = 0;
  for (let y = 0; y < height; y += 4)
    for (let x = 0; x < width; x += 4) {
      const i = y * stride + x * channels;
      const r = pixels[i];
      const g = pixels[i + 1];
      const b = pixels[i + 2];
      const key = (r << 16) | (g << 8) | b;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
      sum += lum;
      sumSq += lum * lum;
      n++;
    }
  const mean = sum / n;
  return {
    width,
    height,
    colours: counts.size,
    luminanceSpread: Math.sqrt(Math.max(0, sumSq / n - mean * mean)),
    dominantShare: Math.max(...counts.values()) / n,
  };
}

/** A render with content: many colours, visible contrast, not one flat colour. */
export function looksRendered(stats: PngStats): boolean {
  return stats.colours >= 50 && stats.luminanceSpread >= 15 && stats.dominantShare < 0.9;
}

/**
 * Demo project photos for the seed: small real PNGs drawn here, so a fresh install shows a
 * believable gallery with no image files in the repository and no network. A grimy pavement of
 * square slabs; "during" has the stencil plate down and half the design cleaned; "after" shows
 * the brand mark cleaned pale into the grime. Deterministic: the same seed draws the same bytes.
 */
import { deflateSync } from 'node:zlib';

export type DemoPhotoKind = 'before' | 'during' | 'after';

/** Drawn on a 480 × 360 plan, stored at 360 × 270 (small files, still sharp as thumbnails). */
const PLAN_WIDTH = 480;
const PLAN_HEIGHT = 360;
const WIDTH = 360;
const HEIGHT = 270;
const SCALE = PLAN_WIDTH / WIDTH;

/** Mulberry32: a tiny seeded generator, enough for texture. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Inside the brand mark: a ring with a leaf through it and three "letters" bars under it. */
function inMark(x: number, y: number): boolean {
  const cx = PLAN_WIDTH / 2;
  const cy = PLAN_HEIGHT / 2 - 24;
  const r = Math.hypot(x - cx, y - cy);
  const ring = r > 78 && r < 96;
  // A leaf: the overlap of two discs, tilted along the diagonal.
  const u = (x - cx + (y - cy)) / Math.SQRT2;
  const v = (x - cx - (y - cy)) / Math.SQRT2;
  const leaf = Math.hypot(u, v - 36) < 62 && Math.hypot(u, v + 36) < 62;
  const bars = y > cy + 118 && y < cy + 140 && [-110, -30, 50].some((left) => x > cx + left && x < cx + left + 60);
  return ring || leaf || bars;
}

export function drawDemoPhoto(kind: DemoPhotoKind, seed: number): Uint8Array {
  const next = random(seed);
  const tint = Math.floor(next() * 14) - 7;
  const rgb = new Uint8Array(WIDTH * HEIGHT * 3);
  // Grime in blotches: a coarse grid of darker and lighter patches, smoothed by distance.
  const blotches = Array.from({ length: 18 }, () => ({ x: next() * PLAN_WIDTH, y: next() * PLAN_HEIGHT, r: 40 + next() * 90, d: next() * 26 - 13 }));
  for (let row = 0; row < HEIGHT; row += 1) {
    for (let column = 0; column < WIDTH; column += 1) {
      const x = column * SCALE;
      const y = row * SCALE;
      let shade = 86 + tint;
      for (const blotch of blotches) {
        const distance = Math.hypot(x - blotch.x, y - blotch.y);
        if (distance < blotch.r) shade += blotch.d * (1 - distance / blotch.r);
      }
      // Slab joints every 120 px.
      if (x % 120 < 3 || y % 120 < 3) shade -= 30;
      const cleaned = kind === 'after' ? inMark(x, y) : kind === 'during' ? inMark(x, y) && x < PLAN_WIDTH / 2 : false;
      if (cleaned) shade = 196 + tint;
      // The stencil plate during the work: a thin dark frame around the design.
      if (kind === 'during') {
        const fx = Math.abs(x - PLAN_WIDTH / 2);
        const fy = Math.abs(y - PLAN_HEIGHT / 2 + 6);
        if ((fx > 150 && fx < 160 && fy < 160) || (fy > 150 && fy < 160 && fx < 160)) shade = 34;
      }
      // Fine grain, in steps of 4 so the image stays small.
      const grain = next();
      if (grain < 0.2) shade -= 4;
      else if (grain > 0.8) shade += 4;
      const value = Math.max(0, Math.min(255, Math.round(shade)));
      const offset = (row * WIDTH + column) * 3;
      rgb[offset] = value;
      rgb[offset + 1] = Math.max(0, Math.min(255, value + 2));
      rgb[offset + 2] = Math.max(0, Math.min(255, value - 3));
    }
  }
  return encodePng(WIDTH, HEIGHT, rgb);
}

// ---------------------------------------------------------------- a minimal PNG encoder

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** 8-bit RGB, no interlace; each row uses the "up" filter, which suits soft texture. */
export function encodePng(width: number, height: number, rgb: Uint8Array): Uint8Array {
  const stride = width * 3;
  const raw = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y += 1) {
    raw[y * (stride + 1)] = 2;
    for (let i = 0; i < stride; i += 1) {
      const above = y ? rgb[(y - 1) * stride + i]! : 0;
      raw[y * (stride + 1) + 1 + i] = (rgb[y * stride + i]! - above) & 0xff;
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', new Uint8Array(deflateSync(raw, { level: 9 }))),
    chunk('IEND', new Uint8Array()),
  ];
  const png = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    png.set(part, offset);
    offset += part.length;
  }
  return png;
}

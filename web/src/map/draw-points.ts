import type { PointStore } from './point-store';
import type { View } from './map-view';

/**
 * A frame of the map as pixels: each point a small dot (see pointSize) written into one ImageData, and beside it
 * which point owns each pixel, so hovering finds a point by looking at the pixels round the cursor, not at every point.
 */
export interface Frame {
  image: ImageData;
  /** Point index + 1 per device pixel; 0 where none. */
  owner: Int32Array;
  ratio: number;
  drawn: number;
}

const BACKGROUND = 0xffffffff;

/** Points in a quick frame while the map moves: the first pages are an even sample of the map (random media-id order). */
export const QUICK_POINTS = 200_000;

/** Draws the first `limit` points (all by default). */
export function drawPoints(store: PointStore, view: View, width: number, height: number, ratio: number, previous?: Frame, limit = store.count): Frame {
  const w = Math.max(1, Math.round(width * ratio));
  const h = Math.max(1, Math.round(height * ratio));
  const reuse = previous && previous.image.width === w && previous.image.height === h;
  const image = reuse ? previous.image : new ImageData(w, h);
  const owner = reuse ? previous.owner : new Int32Array(w * h);
  const pixels = new Uint32Array(image.data.buffer);
  pixels.fill(BACKGROUND);
  owner.fill(0);
  const scale = view.scale * ratio;
  const ox = view.ox * ratio;
  const oy = view.oy * ratio;
  const size = pointSize(store.count, w * h);
  const disc = discOffsets(size, w);
  const half = size >> 1;
  const { x, y, color } = store;
  let drawn = 0;
  const n = Math.min(store.count, limit);
  for (let i = 0; i < n; i++) {
    const px = ((ox + x[i]! * scale) | 0) - half;
    const py = ((oy - y[i]! * scale) | 0) - half;
    if (px < 0 || py < 0 || px > w - size || py > h - size) continue;
    const at = py * w + px;
    const c = color[i]!;
    const o = i + 1;
    if (size === 2) {
      // A million points take this path: four writes, no loop.
      pixels[at] = pixels[at + 1] = pixels[at + w] = pixels[at + w + 1] = c;
      owner[at] = owner[at + 1] = owner[at + w] = owner[at + w + 1] = o;
    } else {
      for (let k = 0; k < disc.length; k++) {
        pixels[at + disc[k]!] = c;
        owner[at + disc[k]!] = o;
      }
    }
    drawn++;
  }
  return { image, owner, ratio, drawn };
}

/** Pixels a side: a few points get large dots, a million 2×2 squares (larger ones would cover each other). */
export function pointSize(count: number, area: number): number {
  return Math.max(2, Math.min(8, Math.round(Math.sqrt(area / Math.max(1, count)) / 3)));
}

/** The offsets (in an image `width` wide) of a dot `size` pixels across: a square up to 3, a disc past that. */
function discOffsets(size: number, width: number): number[] {
  const out: number[] = [];
  const c = (size - 1) / 2;
  for (let dy = 0; dy < size; dy++) {
    for (let dx = 0; dx < size; dx++) {
      if (size <= 3 || (dx - c) ** 2 + (dy - c) ** 2 <= (size / 2) ** 2) out.push(dy * width + dx);
    }
  }
  return out;
}

/** The point drawn nearest (sx, sy), in CSS pixels, within `radius`; -1 for none. */
export function pointAt(frame: Frame, sx: number, sy: number, radius = 5): number {
  const { owner, ratio } = frame;
  const w = frame.image.width;
  const h = frame.image.height;
  const cx = Math.round(sx * ratio);
  const cy = Math.round(sy * ratio);
  const r = Math.ceil(radius * ratio);
  let best = -1;
  let bestD = Infinity;
  for (let dy = -r; dy <= r; dy++) {
    const py = cy + dy;
    if (py < 0 || py >= h) continue;
    for (let dx = -r; dx <= r; dx++) {
      const px = cx + dx;
      if (px < 0 || px >= w) continue;
      const o = owner[py * w + px]!;
      const d = dx * dx + dy * dy;
      if (o > 0 && d < bestD && d <= r * r) {
        bestD = d;
        best = o - 1;
      }
    }
  }
  return best;
}

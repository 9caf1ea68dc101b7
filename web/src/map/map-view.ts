/**
 * Where the map is on screen: map coordinates (y up, the layout in about [0, 1]²) ↔ CSS pixels of the canvas.
 * Plain values and pure functions; the canvas keeps one View in a ref.
 */
export interface View {
  /** CSS pixels per map unit. */
  scale: number;
  /** Screen position of the map's origin. */
  ox: number;
  oy: number;
}

export interface Bounds {
  min_x: number;
  min_y: number;
  max_x: number;
  max_y: number;
}

export type Point = [number, number];

const PADDING = 16;
export const MIN_ZOOM = 0.5;
export const MAX_ZOOM = 2_000;

/** The whole map inside the canvas, centred, a margin round it. */
export function fitView(b: Bounds, width: number, height: number): View {
  const w = Math.max(b.max_x - b.min_x, 1e-9);
  const h = Math.max(b.max_y - b.min_y, 1e-9);
  const scale = Math.max(1e-9, Math.min((width - 2 * PADDING) / w, (height - 2 * PADDING) / h));
  return { scale, ox: width / 2 - ((b.min_x + b.max_x) / 2) * scale, oy: height / 2 + ((b.min_y + b.max_y) / 2) * scale };
}

export function toScreen(v: View, x: number, y: number): Point {
  return [v.ox + x * v.scale, v.oy - y * v.scale];
}

export function toMap(v: View, sx: number, sy: number): Point {
  return [(sx - v.ox) / v.scale, (v.oy - sy) / v.scale];
}

/** Zooms by `factor` keeping the map point under (sx, sy) where it is; held within MIN_ZOOM…MAX_ZOOM of `fit`. */
export function zoomAt(v: View, fit: View, factor: number, sx: number, sy: number): View {
  const scale = Math.min(fit.scale * MAX_ZOOM, Math.max(fit.scale * MIN_ZOOM, v.scale * factor));
  const [x, y] = toMap(v, sx, sy);
  return { scale, ox: sx - x * scale, oy: sy + y * scale };
}

export function panBy(v: View, dx: number, dy: number): View {
  return { ...v, ox: v.ox + dx, oy: v.oy + dy };
}

/** The wheel's zoom step: one notch (100 px, or 1 line, of deltaY) is ×1.25 or ÷1.25. */
export function wheelFactor(deltaY: number, deltaMode: number): number {
  const pixels = deltaMode === 1 ? deltaY * 33 : deltaMode === 2 ? deltaY * 800 : deltaY;
  return Math.pow(1.25, -pixels / 100);
}

/** The rectangle between two corners of a drag, as the selection route takes it. */
export function rectBetween(a: Point, b: Point): Bounds {
  return { min_x: Math.min(a[0], b[0]), min_y: Math.min(a[1], b[1]), max_x: Math.max(a[0], b[0]), max_y: Math.max(a[1], b[1]) };
}

export function rectCorners(r: Bounds): Point[] {
  return [[r.min_x, r.min_y], [r.max_x, r.min_y], [r.max_x, r.max_y], [r.min_x, r.max_y]];
}

/**
 * Lasso vertices sent: the API takes 1,000, but the shape also travels in Explore's URL and its GET query, which
 * Node caps at 16 KB of headers; 200 vertices of rounded numbers stay near 7 KB.
 */
export const MAX_LASSO_VERTICES = 200;

/** A lasso path thinned to every k-th vertex so it fits (a freehand path has far more than it needs). */
export function thinLasso(path: readonly Point[], max = MAX_LASSO_VERTICES): Point[] {
  if (path.length <= max) return [...path];
  const step = path.length / max;
  const out: Point[] = [];
  for (let i = 0; i < max; i++) out.push(path[Math.floor(i * step)]!);
  return out;
}

/** A map coordinate to the decimals a pixel needs at this zoom (one more), so a shape's JSON stays short. */
export function roundFor(scale: number): (v: number) => number {
  const decimals = Math.min(9, Math.max(2, Math.ceil(Math.log10(Math.max(1, scale))) + 1));
  const k = 10 ** decimals;
  return (v) => Math.round(v * k) / k;
}

/**
 * Every point of the map loaded so far, as typed arrays (a million points are 16 MB, not a million objects), each
 * with its cluster's colour; pages are appended as they arrive.
 */
export interface MapPage {
  total: number;
  clusters: string[];
  points: { media_id: string[]; x: number[]; y: number[]; cluster: number[] };
}

const NO_CLUSTER = rgba(140, 149, 159);

export class PointStore {
  count = 0;
  x: Float32Array;
  y: Float32Array;
  /** ABGR as an ImageData pixel read as a little-endian Uint32. */
  color: Uint32Array;
  mediaId: string[] = [];

  constructor(capacity: number) {
    this.x = new Float32Array(Math.max(1, capacity));
    this.y = new Float32Array(this.x.length);
    this.color = new Uint32Array(this.x.length);
  }

  append(page: MapPage): void {
    const n = page.points.x.length;
    if (this.count + n > this.x.length) this.grow(this.count + n);
    const colors = page.clusters.map(clusterColor);
    for (let i = 0; i < n; i++) {
      const k = this.count + i;
      this.x[k] = page.points.x[i]!;
      this.y[k] = page.points.y[i]!;
      const c = page.points.cluster[i]!;
      this.color[k] = c < 0 ? NO_CLUSTER : colors[c]!;
      this.mediaId.push(page.points.media_id[i]!);
    }
    this.count += n;
  }

  // Media attached after the first page was read make the map larger than its first `total`.
  private grow(min: number): void {
    const size = Math.max(min, this.x.length * 2);
    for (const key of ['x', 'y'] as const) {
      const next = new Float32Array(size);
      next.set(this[key]);
      this[key] = next;
    }
    const color = new Uint32Array(size);
    color.set(this.color);
    this.color = color;
  }
}

function rgba(r: number, g: number, b: number): number {
  return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

/** Twenty colours told apart at a glance (Tableau 10 and its light partners), all dark enough on white. */
const PALETTE = [
  [31, 119, 180], [255, 127, 14], [44, 160, 44], [214, 39, 40], [148, 103, 189], [140, 86, 75], [227, 119, 194], [188, 189, 34], [23, 190, 207], [78, 121, 167],
  [242, 142, 43], [225, 87, 89], [118, 183, 178], [89, 161, 79], [237, 201, 72], [176, 122, 161], [255, 157, 167], [156, 117, 95], [0, 98, 100], [120, 60, 160],
].map(([r, g, b]) => rgba(r!, g!, b!));

/** A steady colour per cluster id (its hash picks it), so a cluster keeps its colour across pages and visits. */
export function clusterColor(id: string): number {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return PALETTE[(h >>> 0) % PALETTE.length]!;
}

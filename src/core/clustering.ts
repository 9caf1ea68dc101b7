/**
 * Index math over a k-nearest-neighbour graph: clusters at five granularity levels, uniqueness,
 * outliers. Pure: arrays in, arrays out, no I/O, so it runs the same on 20 items and on a million.
 */

/** Row i holds item i's neighbours (best first) and their cosine similarities; -1 marks an empty slot. */
export interface NeighbourGraph {
  n: number;
  k: number;
  neighbours: Int32Array;
  similarities: Float32Array;
}

export const CLUSTER_LEVELS = 5;

export interface ClusterLevelRule {
  /** Edges at or above this cosine similarity (on mean-centred embeddings) join their ends. */
  minSimilarity: number;
  /** A merge that would make a cluster larger than max(minCap, capFraction × n) is refused (stops chaining). */
  capFraction: number;
  minCap: number;
}

/** Level 0 = near-duplicates … level 4 = broad similarity; thresholds measured by bench/index-quality.ts. */
export const DEFAULT_LEVEL_RULES: readonly ClusterLevelRule[] = [
  { minSimilarity: 0.8, capFraction: 0.01, minCap: 50 },
  { minSimilarity: 0.65, capFraction: 0.02, minCap: 100 },
  { minSimilarity: 0.5, capFraction: 0.05, minCap: 200 },
  { minSimilarity: 0.38, capFraction: 0.1, minCap: 400 },
  { minSimilarity: 0.28, capFraction: 0.2, minCap: 800 },
];

/** Two images whose 64-bit perceptual hashes differ in at most this many bits are near-duplicates. */
export const PHASH_MAX_DISTANCE = 10;

/** Fraction of items, those with the weakest best neighbour, flagged as outliers. */
export const OUTLIER_FRACTION = 0.05;

class DisjointSets {
  readonly parent: Int32Array;
  readonly size: Int32Array;
  constructor(n: number) {
    this.parent = new Int32Array(n);
    this.size = new Int32Array(n).fill(1);
    for (let i = 0; i < n; i++) this.parent[i] = i;
  }
  find(i: number): number {
    let root = i;
    while (this.parent[root] !== root) root = this.parent[root]!;
    while (this.parent[i] !== root) {
      const next = this.parent[i]!;
      this.parent[i] = root;
      i = next;
    }
    return root;
  }
  /** Joins the two sets unless the result would exceed `cap`; returns whether they are joined now. */
  union(a: number, b: number, cap: number): boolean {
    let ra = this.find(a);
    let rb = this.find(b);
    if (ra === rb) return true;
    if (this.size[ra]! + this.size[rb]! > cap) return false;
    if (this.size[ra]! < this.size[rb]!) [ra, rb] = [rb, ra];
    this.parent[rb] = ra;
    this.size[ra] = this.size[ra]! + this.size[rb]!;
    return true;
  }
}

/** The graph's edges (each pair once), strongest first. */
function sortedEdges(graph: NeighbourGraph): { from: Int32Array; to: Int32Array; sim: Float32Array } {
  const { n, k, neighbours, similarities } = graph;
  let count = 0;
  for (let i = 0; i < n * k; i++) if (neighbours[i]! >= 0) count++;
  const from = new Int32Array(count);
  const to = new Int32Array(count);
  const sim = new Float32Array(count);
  let e = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < k; j++) {
      const other = neighbours[i * k + j]!;
      if (other < 0 || other === i) continue;
      from[e] = Math.min(i, other);
      to[e] = Math.max(i, other);
      sim[e] = similarities[i * k + j]!;
      e++;
    }
  }
  const order = new Uint32Array(e);
  for (let i = 0; i < e; i++) order[i] = i;
  order.sort((a, b) => sim[b]! - sim[a]! || from[a]! - from[b]! || to[a]! - to[b]!);
  const sorted = { from: new Int32Array(e), to: new Int32Array(e), sim: new Float32Array(e) };
  for (let i = 0; i < e; i++) {
    const o = order[i]!;
    sorted.from[i] = from[o]!;
    sorted.to[i] = to[o]!;
    sorted.sim[i] = sim[o]!;
  }
  return sorted;
}

/**
 * Clusters at every level: Kruskal-style single linkage, strongest edges first, each level starting from
 * the finer level's clusters so levels nest. `extraLevel0Pairs` (flat i, j pairs, e.g. perceptual-hash
 * matches) join at level 0 regardless of similarity. Labels are the smallest item index of each cluster.
 */
export function clusterLevels(graph: NeighbourGraph, rules: readonly ClusterLevelRule[] = DEFAULT_LEVEL_RULES, extraLevel0Pairs?: Int32Array): Int32Array[] {
  const { n } = graph;
  const edges = sortedEdges(graph);
  const sets = new DisjointSets(n);
  const levels: Int32Array[] = [];
  for (const [level, rule] of rules.entries()) {
    const cap = Math.max(rule.minCap, Math.floor(rule.capFraction * n));
    if (level === 0 && extraLevel0Pairs) {
      for (let p = 0; p + 1 < extraLevel0Pairs.length; p += 2) sets.union(extraLevel0Pairs[p]!, extraLevel0Pairs[p + 1]!, cap);
    }
    for (let e = 0; e < edges.sim.length && edges.sim[e]! >= rule.minSimilarity; e++) sets.union(edges.from[e]!, edges.to[e]!, cap);
    levels.push(labelsOf(sets, n));
  }
  return levels;
}

/** Each item's cluster label: the smallest index in its set, so labels do not depend on merge order. */
function labelsOf(sets: DisjointSets, n: number): Int32Array {
  const smallest = new Int32Array(n).fill(-1);
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const root = sets.find(i);
    if (smallest[root] === -1) smallest[root] = i;
    labels[i] = smallest[root]!;
  }
  return labels;
}

/** Similarity to the best neighbour (NaN when an item has none). */
export function nearestSimilarity(graph: NeighbourGraph): Float32Array {
  const out = new Float32Array(graph.n).fill(Number.NaN);
  for (let i = 0; i < graph.n; i++) {
    for (let j = 0; j < graph.k; j++) {
      const other = graph.neighbours[i * graph.k + j]!;
      if (other >= 0 && other !== i) {
        const sim = graph.similarities[i * graph.k + j]!;
        if (!(out[i]! >= sim)) out[i] = sim;
      }
    }
  }
  return out;
}

/**
 * uniqueness_i = d_i / max_j d_j with d_i = 1 − (similarity to the nearest neighbour), clamped to [0, 1]:
 * the most isolated item scores 1, an exact duplicate 0. A lone item (no neighbour) scores 1.
 */
export function uniquenessScores(nearest: Float32Array): Float32Array {
  const n = nearest.length;
  const distance = new Float32Array(n);
  let max = 0;
  for (let i = 0; i < n; i++) {
    const d = Number.isNaN(nearest[i]!) ? Number.POSITIVE_INFINITY : Math.max(0, 1 - nearest[i]!);
    distance[i] = d;
    if (Number.isFinite(d)) max = Math.max(max, d);
  }
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const d = distance[i]!;
    out[i] = !Number.isFinite(d) ? 1 : max === 0 ? 0 : Math.min(1, d / max);
  }
  return out;
}

/** The best-neighbour similarity at or below which an item is an outlier: the floor(fraction × n)-th weakest; null when none. */
export function outlierCut(nearest: Float32Array, fraction = OUTLIER_FRACTION): number | null {
  const count = Math.floor(fraction * nearest.length);
  if (count === 0) return null;
  return Float32Array.from(nearest).sort()[count - 1]!;
}

/** Flags the items at or below the outlier cut (ties included). */
export function outlierFlags(nearest: Float32Array, fraction = OUTLIER_FRACTION): Uint8Array {
  const flags = new Uint8Array(nearest.length);
  const cut = outlierCut(nearest, fraction);
  if (cut === null) return flags;
  for (let i = 0; i < nearest.length; i++) if (nearest[i]! <= cut) flags[i] = 1;
  return flags;
}

/** The largest nearest-neighbour distance, which scales uniqueness (0 when there is none). */
export function uniquenessScale(nearest: Float32Array): number {
  let max = 0;
  for (const s of nearest) if (!Number.isNaN(s)) max = Math.max(max, 1 - s);
  return max;
}

/** Sizes of the clusters in `labels`, indexed by label. */
export function clusterSizes(labels: Int32Array): Int32Array {
  const sizes = new Int32Array(labels.length);
  for (const label of labels) sizes[label] = sizes[label]! + 1;
  return sizes;
}

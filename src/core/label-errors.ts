/**
 * Label errors (docs/curation.md "Label errors"): pure functions over labelled items given as positions 0..n-1,
 * each with a class number, their neighbour lists (positions of other labelled items, nearest first, -1 empty)
 * and their centred unit vectors.
 */

export const LABEL_ERROR_DEFAULTS = { k: 10, threshold: 0.7 } as const;
export const LABEL_ERROR_LIMITS = { kMin: 1, kMax: 50 } as const;

/** A class needs this many members before any of them can be its outlier: a median and MAD of fewer say little. */
export const OUTLIER_MIN_CLASS = 5;
/**
 * Robust z-score above which a member is a class outlier: distance > median + 3.5 · 1.4826 · MAD, Iglewicz and
 * Hoaglin's modified z-score cut (3.5), one-sided since only the far side is an outlier.
 */
export const OUTLIER_Z = 3.5;
/** 1.4826 · MAD estimates the standard deviation of normally distributed distances. */
const MAD_TO_SIGMA = 1.4826;
/** Floor of the spread (cosine distance), so a class of near-copies does not flag every small difference. */
export const OUTLIER_MIN_SPREAD = 0.02;
/**
 * A member still this close to its class's centroid (centred cosine ≥ 0.5, the index's level-2 cluster join) is never
 * its outlier, however tight the class: a crop among re-encodes of one photo lies at 0.36 (test/contract/label-errors.test.ts).
 */
export const OUTLIER_MIN_DISTANCE = 0.5;

/**
 * Whether a mislabel_score reaches the threshold. Scores are stored as float32, where 7/10 is 0.69999999: without the
 * tolerance a media with 7 of 10 neighbours disagreeing was not a mislabel at the default 0.7.
 */
export function reaches(score: number, threshold: number): boolean {
  return score >= threshold - 1e-6;
}

export interface MislabelScores {
  /** Share of the item's labelled neighbours with another class (NaN without neighbours). */
  score: Float32Array;
  /** The most frequent class among its neighbours (ties: the one met first, i.e. nearest), -1 without neighbours. */
  suggested: Int32Array;
}

/** mislabel_score and suggested class of each item from its k neighbour slots. */
export function mislabelScores(classOf: Int32Array, neighbours: Int32Array, k: number, nClasses: number): MislabelScores {
  const n = classOf.length;
  const score = new Float32Array(n);
  const suggested = new Int32Array(n);
  const votes = new Int32Array(nClasses);
  for (let i = 0; i < n; i++) {
    let found = 0;
    let other = 0;
    let best = -1;
    for (let j = 0; j < k; j++) {
      const o = neighbours[i * k + j]!;
      if (o < 0) break;
      const c = classOf[o]!;
      found++;
      if (c !== classOf[i]) other++;
      votes[c] = votes[c]! + 1;
      if (best < 0 || votes[c]! > votes[best]!) best = c;
    }
    for (let j = 0; j < found; j++) votes[classOf[neighbours[i * k + j]!]!] = 0;
    score[i] = found === 0 ? Number.NaN : other / found;
    suggested[i] = best;
  }
  return { score, suggested };
}

export interface ClassOutliers {
  /** 1 − cosine between the item and its class's centroid without it. NaN for a class of one. */
  distance: Float32Array;
  flagged: Uint8Array;
  /** Per class: the distance above which its members are outliers (NaN: too small a class to say). */
  cut: Float64Array;
}

/** Per-class sums of the unit vectors, for the leave-one-out centroids. */
export function classSums(vectors: Float32Array, d: number, classOf: Int32Array, nClasses: number): Float64Array {
  const sums = new Float64Array(nClasses * d);
  for (let i = 0; i < classOf.length; i++) {
    const c = classOf[i]!;
    for (let x = 0; x < d; x++) sums[c * d + x] = sums[c * d + x]! + vectors[i * d + x]!;
  }
  return sums;
}

/**
 * Distance of item i (unit vector v, class sum S of n members) from its class's centroid without it:
 * cos = (S·v − 1) / |S − v|, with |S − v|² = |S|² − 2 S·v + 1. Leaving the item out keeps a small class's
 * centroid from leaning toward the very member it is judged against.
 */
export function centroidDistances(vectors: Float32Array, d: number, classOf: Int32Array, sums: Float64Array, nClasses: number, into: Float32Array, from = 0): void {
  const norms2 = new Float64Array(nClasses);
  for (let c = 0; c < nClasses; c++) for (let x = 0; x < d; x++) norms2[c] = norms2[c]! + sums[c * d + x]! ** 2;
  const rows = vectors.length / d;
  for (let r = 0; r < rows; r++) {
    const c = classOf[from + r]!;
    let dot = 0;
    for (let x = 0; x < d; x++) dot += sums[c * d + x]! * vectors[r * d + x]!;
    const rest2 = norms2[c]! - 2 * dot + 1;
    into[from + r] = rest2 <= 1e-9 ? Number.NaN : 1 - Math.max(-1, Math.min(1, (dot - 1) / Math.sqrt(rest2)));
  }
}

/** The median of values (sorted in place). */
function median(values: Float64Array): number {
  values.sort();
  const m = values.length >> 1;
  return values.length % 2 === 1 ? values[m]! : (values[m - 1]! + values[m]!) / 2;
}

/**
 * Flags members farther from their centroid than max(OUTLIER_MIN_DISTANCE, median + OUTLIER_Z · max(1.4826 · MAD,
 * OUTLIER_MIN_SPREAD)) of their class.
 */
export function classOutliers(distance: Float32Array, classOf: Int32Array, nClasses: number): ClassOutliers {
  const counts = new Int32Array(nClasses);
  for (let i = 0; i < classOf.length; i++) if (!Number.isNaN(distance[i]!)) counts[classOf[i]!] = counts[classOf[i]!]! + 1;
  const starts = new Int32Array(nClasses + 1);
  for (let c = 0; c < nClasses; c++) starts[c + 1] = starts[c]! + counts[c]!;
  const grouped = new Float64Array(starts[nClasses]!);
  const fill = starts.slice(0, nClasses);
  for (let i = 0; i < classOf.length; i++) {
    if (Number.isNaN(distance[i]!)) continue;
    const c = classOf[i]!;
    grouped[fill[c]!] = distance[i]!;
    fill[c] = fill[c]! + 1;
  }
  const cut = new Float64Array(nClasses).fill(Number.NaN);
  for (let c = 0; c < nClasses; c++) {
    if (counts[c]! < OUTLIER_MIN_CLASS) continue;
    const values = grouped.subarray(starts[c]!, starts[c + 1]!);
    const med = median(values);
    const deviations = values.map((v) => Math.abs(v - med));
    const mad = median(deviations);
    cut[c] = Math.max(OUTLIER_MIN_DISTANCE, med + OUTLIER_Z * Math.max(MAD_TO_SIGMA * mad, OUTLIER_MIN_SPREAD));
  }
  const flagged = new Uint8Array(classOf.length);
  for (let i = 0; i < classOf.length; i++) flagged[i] = distance[i]! > cut[classOf[i]!]! ? 1 : 0;
  return { distance, flagged, cut };
}

/**
 * What a leakage run compares and what it reports (docs/curation.md, Leakage): sides numbered from 0 (the splits'
 * values, or the two datasets), comparisons as pairs of side numbers, counts per side.
 */

/** The default cosine threshold on centred vectors (docs/curation.md, Leakage, for the measurement behind it). */
export const DEFAULT_LEAKAGE_THRESHOLD = 0.7;
export const MIN_LEAKAGE_THRESHOLD = 0.5;
/** A split field with more values than this is no split field (and its pairs of values would be too many to compare). */
export const MAX_SPLIT_VALUES = 16;
export const PAIRS_PAGE_SIZE = 100;

/** A LEAKAGE task's config, as the request checked it. */
export interface LeakageConfig {
  threshold: number;
  tag: string | null;
  /** Two datasets: the other one, and whether the caller may change it (its media are tagged then). */
  other_dataset_id?: string;
  tag_other?: boolean;
  /** Splits: the field, its compared values (side numbers are their positions), the compared pairs of them. */
  split_field?: string;
  sides: string[];
  pairs: Array<[number, number]>;
}

export interface LeakageSide {
  name: string;
  dataset_id: string;
  /** The side's embedded media (those compared). */
  n_media: number;
  /** Its media with a near-duplicate on the other side at the threshold, and their share of the side. */
  n_leaked: number;
  percent_leaked: number;
  /** Media given the tag; null when no tag was asked for this side or its dataset could not be changed at the commit. */
  n_tagged: number | null;
}

export interface LeakageComparison {
  side_a: LeakageSide;
  side_b: LeakageSide;
  n_pairs: number;
}

/** Every pair of values in their order (most media first), or the two named. */
export function comparedPairs(count: number): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let x = 0; x < count; x++) for (let y = x + 1; y < count; y++) pairs.push([x, y]);
  return pairs;
}

/** A share in per cent, two decimals. */
export function percentOf(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((10_000 * part) / whole) / 100;
}

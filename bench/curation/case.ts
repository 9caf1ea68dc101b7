/**
 * One analysis of issue 29 as `BENCH_ONLY=curation` times it (bench/curation.ts seeds the datasets and runs every case
 * in bench/curation/cases.ts at each size, one after another on the same install).
 */
export interface CurationContext {
  /** The server's base URL and a client's `authorization` header. */
  url: string;
  auth: { authorization: string };
  /** The seeded dataset: READY after a real reindex; `n` media with synthetic embeddings (bench/lib/scale-seed.ts). */
  datasetId: string;
  n: number;
  /**
   * What the seed planted on it: an image label on every media (`labels` classes, `mislabelled` of them flipped to
   * another class), a custom field `split` (`train` / `val` / `test`), and a second READY dataset of the same
   * embedding model holding `leakedCopies` copies of the first's media among its own (`otherDatasetId`).
   */
  labels: string[];
  mislabelled: number;
  /** The flipped media's ids. */
  mislabelledIds: string[];
  otherDatasetId: string;
  leakedCopies: number;
  /**
   * Planted for the quality issues: media sharing their decoded pixels with another (the generator's exact copies and
   * their sources), and media of odd size (tiny or huge against the median).
   */
  exactDuplicates?: number;
  oddSizes?: number;
  /**
   * Planted when the `objects` case runs (bench/curation/plant-objects.ts): one detected object on every seeded media,
   * classed as its media, `flippedIds` of them flipped to another class.
   */
  objects?: { planted: number; flippedIds: string[] };
  /** JSON request that throws on another status than `expect` (default 200); answers the parsed body (a 202's task as `task_id`, from its Location). */
  send(method: string, route: string, body?: unknown, expect?: number): Promise<Record<string, any>>;
  /** Waits for a task to end (polling GET /api/v1/tasks/{id}); throws if it does not end COMPLETED. */
  waitTask(taskId: string): Promise<Record<string, any>>;
}

export interface CurationResult {
  /** One table row each: what was timed, the seconds, and what it found (counts against the planted truth). */
  rows: Array<{ step: string; seconds: number; found: string }>;
}

export interface CurationCase {
  /** The word for the analysis: dedup, mislabels, leakage, map, select, quality. */
  name: string;
  run(ctx: CurationContext): Promise<CurationResult>;
}

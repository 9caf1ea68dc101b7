import type { CurationCase } from './case.js';
import { dedupCase } from './dedup.js';
import { leakageCase } from './leakage.js';
import { quality } from './quality.js';
import { selectCase } from './select.js';

/** Every analysis `BENCH_ONLY=curation` times, in this order; each file adds its own line. */
export const CURATION_CASES: CurationCase[] = [
  quality,
  leakageCase,
  selectCase,
  dedupCase,
];

import type { CurationCase } from './case.js';
import { mapCase } from './map.js';

/** Every analysis `BENCH_ONLY=curation` times, in this order; each file adds its own line. */
export const CURATION_CASES: CurationCase[] = [mapCase];

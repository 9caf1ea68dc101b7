import type { CurationCase } from './case.js';
import { dedupCase } from './dedup.js';
import { leakageCase } from './leakage.js';
import { mapCase } from './map.js';
import { mislabelsCase } from './mislabels.js';
import { objectsCase } from './objects.js';
import { quality } from './quality.js';
import { selectCase } from './select.js';

/** Every analysis `BENCH_ONLY=curation` times, in this order (dedup last: it removes media, then restores them). */
export const CURATION_CASES: CurationCase[] = [
  quality,
  mapCase,
  mislabelsCase,
  objectsCase,
  leakageCase,
  selectCase,
  dedupCase,
];

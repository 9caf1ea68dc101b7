import { ENRICHMENT_TYPES, type EnrichmentPool, type EnrichmentType } from './types.js';

/** TEMPORARY until the vision runners land: nothing built in is available. */
export const builtinEnrichment = {
  runtimes: (): Record<EnrichmentType, { available: boolean; reason?: string }> =>
    Object.fromEntries(ENRICHMENT_TYPES.map((t) => [t, { available: false, reason: 'not built yet' }])) as Record<EnrichmentType, { available: boolean; reason?: string }>,
  createPool: (_options: { threads: number }): EnrichmentPool => {
    throw new Error('built-in enrichment models are not available');
  },
};

import { Type } from '@sinclair/typebox';
import { ENRICHMENT_TYPES } from '../../adapters/models/enrichment/types.js';
import { StringEnum } from '../../http/schemas.js';

/** Spec 2.5. */
export const EnrichmentModel = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: StringEnum(ENRICHMENT_TYPES),
    status: StringEnum(['Active', 'Coming Soon'] as const),
    vendor: Type.String(),
    description: Type.String(),
    dependencies: Type.Union([Type.Array(StringEnum(ENRICHMENT_TYPES)), Type.Null()]),
  },
  { $id: 'EnrichmentModel' },
);

/** Spec 2.6. */
export const EnrichmentContext = Type.Object({
  enrichment_context_id: Type.String({ format: 'uuid' }),
  status: StringEnum(['NEW', 'IN_PROGRESS', 'COMPLETED', 'FAILED'] as const, { description: '`NEW`: nothing applied yet' }),
  dataset_enrichment_models: Type.Object({
    enrichment_models: Type.Record(Type.String(), Type.String(), { description: 'Enrichment type → model id, for what was applied' }),
  }),
});

export const EnrichBody = Type.Object({
  enrichment_models: Type.Record(Type.String(), Type.String(), {
    description: 'Enrichment type (a `type` from list_models) → model id (an `id` from list_models)',
  }),
});

export const EnrichResponse = Type.Object({ dataset_id: Type.String({ format: 'uuid' }) });

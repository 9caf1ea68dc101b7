import { Type } from '@sinclair/typebox';
import { TAG_MAX_LENGTH } from '../../core/custom-fields.js';
import { MAX_INT, Nullable } from '../../http/schemas.js';
import { DEFAULT_LEAKAGE_THRESHOLD, MIN_LEAKAGE_THRESHOLD, PAIRS_PAGE_SIZE } from './leakage-plan.js';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const LeakageBody = Type.Object(
  {
    other_dataset_id: Type.Optional(Type.String({ format: 'uuid', description: 'Another dataset you can see, embedded by the same model: its media are side B' })),
    split_field: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: "A custom field of this dataset whose values are splits (e.g. train / val / test): each value's media are a side" }),
    ),
    split_values: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 1000 }), {
        minItems: 2,
        maxItems: 2,
        description: 'With split_field: the two values to compare (side A, side B); default every pair of its values, most media first',
      }),
    ),
    threshold: Type.Optional(
      Type.Number({
        minimum: MIN_LEAKAGE_THRESHOLD,
        maximum: 1,
        description: `Cosine similarity on the index's centred vectors at which two media are near-duplicates (default ${DEFAULT_LEAKAGE_THRESHOLD}; docs/curation.md)`,
      }),
    ),
    tag: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: TAG_MAX_LENGTH,
        description: "Tag the leaked media (e.g. 'leak') on each side whose dataset you may change; needs change access to this dataset",
      }),
    ),
  },
  { additionalProperties: false },
);

export const LeakageStarted = Type.Object({ task_id: Type.String({ format: 'uuid', description: 'The LEAKAGE task; its result is read at GET …/leakage/{task_id} once it is COMPLETED' }) });

export const LeakageParams = Type.Object({ dataset_id: Type.String({ format: 'uuid' }), task_id: Type.String({ format: 'uuid' }) });

const Side = Type.Object({
  name: Type.String({ description: "The split's value, or the dataset's name" }),
  dataset_id: Type.String({ format: 'uuid' }),
  n_media: Count('Embedded media of the side (images and video frames)'),
  n_leaked: Count('Of them, media with a near-duplicate on the other side at the threshold'),
  percent_leaked: Type.Number({ minimum: 0, maximum: 100, description: 'n_leaked as a share of n_media, in per cent' }),
  n_tagged: Nullable(Type.Integer({ minimum: 0, description: 'Media tagged; null where no tag was asked or the dataset could not be changed at the commit' })),
});

export const LeakageRun = Type.Object({
  task_id: Type.String({ format: 'uuid' }),
  dataset_id: Type.String({ format: 'uuid' }),
  other_dataset_id: Nullable(Type.String({ format: 'uuid', description: 'The other dataset (null for splits, or once it is deleted)' })),
  split_field: Nullable(Type.String()),
  threshold: Type.Number(),
  tag: Nullable(Type.String()),
  comparisons: Type.Array(
    Type.Object({
      comparison: Type.Integer({ minimum: 0, description: 'Its number, for the pairs route' }),
      side_a: Side,
      side_b: Side,
      n_pairs: Count('Near-duplicate pairs found across (each media keeps its 10 best)'),
    }),
    { description: 'One per compared pair of sides: two datasets make one; splits one per pair of values' },
  ),
  created_at: Type.String({ format: 'date-time' }),
});

export const PairsQuery = Type.Object({
  page_number: Type.Integer({ minimum: 0, maximum: Math.floor(MAX_INT / PAIRS_PAGE_SIZE), default: 0, description: `0-based page; ${PAIRS_PAGE_SIZE} pairs a page` }),
  comparison: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, description: 'Only the pairs of this comparison (default all)' })),
});

const PairMedia = Type.Object({
  media_id: Type.String({ format: 'uuid' }),
  file_name: Type.String(),
  dataset_id: Type.String({ format: 'uuid' }),
  media_thumb_uri: Nullable(Type.String({ description: 'Signed link to its WebP thumbnail, as the media routes give' })),
});

export const PairsPage = Type.Object({
  pairs: Type.Array(
    Type.Object({ comparison: Type.Integer({ minimum: 0 }), similarity: Type.Number({ description: 'Cosine similarity on centred vectors' }), media_a: PairMedia, media_b: PairMedia }),
    { description: 'Most similar first; ties in comparison and media id order, so pages are stable' },
  ),
  page_number: Type.Integer(),
  page_size: Type.Integer(),
  total: Count('Pairs in all (of the comparison, when given)'),
});

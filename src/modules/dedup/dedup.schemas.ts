import { Type } from '@sinclair/typebox';
import { CLUSTER_LEVELS } from '../../core/clustering.js';
import { DEDUP_SCOPES, KEEP_RULES, SORT_ORDERS } from '../../core/dedup.js';
import { FIELD_NAME } from '../../core/custom-fields.js';
import { MAX_INT, Nullable, StringEnum } from '../../http/schemas.js';
import { GROUPS_PER_PAGE, MEMBERS_PER_GROUP } from './dedup.service.js';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const DedupBody = Type.Object(
  {
    scope: StringEnum(DEDUP_SCOPES, {
      description: 'exact: identical bytes or identical decoded pixels (the exact_duplicates issue); near: members of one index cluster at `level` (Explore\'s duplicates)',
    }),
    level: Type.Optional(Type.Integer({ minimum: 0, maximum: CLUSTER_LEVELS - 1, description: 'Cluster level for scope near, as Explore: 0 finest (default) … 4 coarsest' })),
    keep: StringEnum(KEEP_RULES, {
      description:
        'Which member of each group is kept: largest_resolution (width × height, ties: larger file), sharpest (highest blur score), ' +
        'earliest_capture (EXIF capture time, missing last), first_uploaded, or custom_field (with field and order); ' +
        'remaining ties: first recorded, then file name, then media id',
    }),
    field: Type.Optional(Type.String({ minLength: 1, maxLength: 63, pattern: FIELD_NAME.source, description: 'The custom metadata field of keep custom_field' })),
    order: Type.Optional(StringEnum(SORT_ORDERS, { description: 'keep custom_field: asc keeps the lowest value, desc the highest; media without it come last' })),
    dry_run: Type.Optional(Type.Boolean({ default: false, description: 'Only answer the groups and what each keeps (200); nothing changes' })),
    tag_only: Type.Optional(Type.Boolean({ default: false, description: 'Tag the media a dedup would remove `duplicate` instead of removing them' })),
    page_number: Type.Optional(
      Type.Integer({ minimum: 0, maximum: Math.floor(MAX_INT / GROUPS_PER_PAGE), default: 0, description: `dry_run: 0-based page of groups, ${GROUPS_PER_PAGE} a page` }),
    ),
  },
  { additionalProperties: false },
);

const Value = Type.Unsafe<string | number | boolean | null>({
  type: ['string', 'number', 'boolean', 'null'],
  description: 'What the keeper rule compared: w × h pixels, the blur score, the capture time, the time recorded, or the custom field value',
});

export const DedupPlanResponse = Type.Object({
  scope: StringEnum(DEDUP_SCOPES),
  level: Nullable(Type.Integer({ description: 'The cluster level of scope near; null for exact' })),
  keep: StringEnum(KEEP_RULES),
  field: Nullable(Type.String()),
  order: Type.Unsafe<'asc' | 'desc' | null>({ type: ['string', 'null'], enum: [...SORT_ORDERS, null] }),
  totals: Type.Object({
    groups: Count('Groups of two or more images'),
    media_in_groups: Count('Images in those groups'),
    media_kept: Count('One per group'),
    media_removed: Count('The others: what a dedup removes (or tags, with tag_only)'),
  }),
  page_number: Type.Integer(),
  groups_per_page: Type.Integer(),
  groups: Type.Array(
    Type.Object({
      group_id: Type.String({ description: 'near: the cluster id; exact: pixels:<pixel hash> or bytes:<content hash>' }),
      n_members: Count(`Members of the group; at most ${MEMBERS_PER_GROUP} are listed, the keeper first, then in the rule's order`),
      keeper_media_id: Type.String({ format: 'uuid' }),
      members: Type.Array(
        Type.Object({
          media_id: Type.String({ format: 'uuid' }),
          file_name: Type.String(),
          file_size: Type.Integer({ description: 'Bytes' }),
          value: Value,
          keep: Type.Boolean(),
        }),
      ),
    }),
    { description: 'Largest group first, then by keeper media id' },
  ),
});

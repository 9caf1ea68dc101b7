import { Type } from '@sinclair/typebox';
import { TAG_MAX_LENGTH } from '../../core/custom-fields.js';
import { MAX_INT } from '../../http/schemas.js';

export const SelectBody = Type.Object(
  {
    n: Type.Optional(Type.Integer({ minimum: -MAX_INT, maximum: MAX_INT, description: 'How many media to choose (1 … the media to choose among); or give fraction' })),
    fraction: Type.Optional(Type.Number({ minimum: -1e9, maximum: 1e9, description: 'The share of the media to choose, in (0, 1] (rounded, at least 1); or give n' })),
    strategy: Type.String({
      maxLength: 100,
      description:
        'diverse: greedy k-center (farthest-first) on the centred embeddings; representative: picks per cluster in proportion to its size, ' +
        "members nearest the cluster's centroid first; uncertain: by the numeric custom field `field`, highest first",
    }),
    field: Type.Optional(Type.String({ maxLength: 200, description: 'uncertain: a numeric custom field' })),
    order: Type.Optional(Type.Union([Type.Literal('desc'), Type.Literal('asc')], { description: 'uncertain: desc (default, highest first) or asc' })),
    threshold: Type.Optional(Type.Integer({ minimum: 0, maximum: 4, description: 'representative: the cluster level, as Explore (0 finest … 4 coarsest; default 0)' })),
    query: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'Choose only among the media an Explore query matches: its filter parameters (vql as text or as the array, tags, labels, …), as tag-by-query takes them',
      }),
    ),
    exclude_tags: Type.Optional(
      Type.Array(Type.String({ maxLength: TAG_MAX_LENGTH }), { maxItems: 100, description: 'Leave out media carrying any of these tags (e.g. the tag of an earlier selection, to choose among the untagged)' }),
    ),
    action: Type.Optional(Type.Union([Type.Literal('tag'), Type.Literal('clone')], { description: 'tag (default): tag the chosen media; clone: a new dataset holding only them' })),
    tag: Type.Optional(Type.String({ maxLength: TAG_MAX_LENGTH, description: "action tag: the tag (default 'selected')" })),
    name: Type.Optional(Type.String({ maxLength: 200, description: "action clone: the new dataset's name (required)" })),
  },
  { additionalProperties: false },
);

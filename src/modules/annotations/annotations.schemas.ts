import { Type } from '@sinclair/typebox';
import { LABEL_MAX_LENGTH, TAG_MAX_LENGTH } from '../../core/custom-fields.js';
import { Nullable } from '../../http/schemas.js';

/** Ids in one edit request: enough to tag 100k media at once (a 16 MiB body). */
export const MAX_EDIT_IDS = 200_000;
export const EDIT_BODY_LIMIT = 16 * 1024 * 1024;

const Selection = {
  media_ids: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: MAX_EDIT_IDS, description: 'These media' })),
  cluster_ids: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: 10_000, description: 'Every member of these clusters (any level)' })),
  query: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description: 'Every media an Explore query matches: its filter parameters (vql as text or as the array, file_name, issue_type, labels, tags, …)',
    }),
  ),
};

export const TagsEditBody = Type.Object(
  { tags: Type.Array(Type.String({ maxLength: TAG_MAX_LENGTH }), { minItems: 1, maxItems: 100 }), ...Selection },
  { additionalProperties: false, description: 'The tags, and exactly one of media_ids, cluster_ids or query' },
);

export const LabelEditBody = Type.Object(
  { label: Nullable(Type.String({ maxLength: LABEL_MAX_LENGTH, description: 'The class name; null removes the label' })), ...Selection },
  { additionalProperties: false, description: 'The label, and exactly one of media_ids, cluster_ids or query' },
);

export const ObjectLabelBody = Type.Object(
  {
    object_ids: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 10_000, description: 'Detected objects (object_id in Explore OBJECTS previews)' }),
    label: Nullable(Type.String({ maxLength: LABEL_MAX_LENGTH, description: "The object's class name; null gives it back its detected class" })),
  },
  { additionalProperties: false },
);

export const EditResult = Type.Object({
  matched: Type.Integer({ description: 'Media the selection holds' }),
  changed: Type.Integer({ description: 'Media the edit changed; 0 makes no new version' }),
});

export const TagList = Type.Object({ tags: Type.Array(Type.Object({ tag: Type.String(), count: Type.Integer() })) });
export const LabelList = Type.Object({
  labels: Type.Array(Type.Object({ label: Type.String(), count: Type.Integer() })),
  unlabelled: Type.Integer({ description: 'Images and video frames without a label' }),
});

export const PropagateBody = Type.Object(
  {
    threshold: Type.Integer({ minimum: 0, maximum: 4, description: 'Cluster granularity level, as Explore: 0 finest … 4 coarsest' }),
    dry_run: Type.Optional(Type.Boolean({ default: false, description: 'Only count what would be labelled' })),
  },
  { additionalProperties: false },
);

export const PropagationPlan = Type.Object({
  clusters: Type.Integer({ description: 'Clusters whose unlabelled members would get their most frequent label' }),
  media: Type.Integer({ description: 'Unlabelled media that would be labelled' }),
  ambiguous: Type.Integer({ description: 'Clusters left alone: two labels tie for most frequent' }),
});

export const TaskStarted = Type.Object({ task_id: Type.String({ format: 'uuid' }) });

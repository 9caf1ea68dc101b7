import { Type } from '@sinclair/typebox';
import { LABEL_ERROR_DEFAULTS, LABEL_ERROR_LIMITS } from '../../core/label-errors.js';

export const LabelErrorsBody = Type.Object(
  {
    k: Type.Optional(
      Type.Integer({
        minimum: LABEL_ERROR_LIMITS.kMin,
        maximum: LABEL_ERROR_LIMITS.kMax,
        default: LABEL_ERROR_DEFAULTS.k,
        description: 'Nearest labelled neighbours each labelled media is compared with',
      }),
    ),
    threshold: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        default: LABEL_ERROR_DEFAULTS.threshold,
        description: 'mislabel_score (share of the neighbours with another label) from which a media (or object) is a mislabel',
      }),
    ),
    target: Type.Optional(
      Type.Union([Type.Literal('media'), Type.Literal('objects'), Type.Literal('all')], {
        default: 'media',
        description:
          "What is scored: the media's image labels (media), the detected objects' classes, each object compared with objects only (objects), or both (all). " +
          'objects and all need detected objects with crop embeddings (OBJECT_DETECTION enrichment); media and all need two labelled media',
      }),
    ),
  },
  { additionalProperties: false, description: 'How to score label errors (docs/curation.md, Label errors)' },
);

export const LabelErrorsStarted = Type.Object({ task_id: Type.String({ format: 'uuid', description: 'The LABEL_ERRORS task' }) });

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
        description: 'mislabel_score (share of the neighbours with another label) from which a media is a mislabel',
      }),
    ),
  },
  { additionalProperties: false, description: 'How to score label errors (docs/curation.md, Label errors)' },
);

export const LabelErrorsStarted = Type.Object({ task_id: Type.String({ format: 'uuid', description: 'The LABEL_ERRORS task' }) });

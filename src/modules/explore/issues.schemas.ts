import { Type } from '@sinclair/typebox';
import { MAX_INT, Nullable } from '../../http/schemas.js';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const IssuesQuery = Type.Object({
  page_number: Type.Integer({ minimum: 0, maximum: Math.floor(MAX_INT / 100), default: 0, description: '0-based page of corrupt_files; 100 files a page' }),
});

export const IssuesResponse = Type.Object({
  n_media: Count("Images and video frames of the dataset's current version"),
  median_area: Nullable(Type.Number({ description: 'Median width × height of those media, in pixels: what odd_size is measured against' })),
  issues: Type.Object(
    {
      blur: Count('Blurry: variance of the Laplacian below the threshold'),
      dark: Count('Dark: mean luma below the threshold'),
      bright: Count('Bright: mean luma above the threshold'),
      outliers: Count('Outliers of the index'),
      duplicates: Count('Near-duplicates: members of a level-0 cluster with others'),
      exact_duplicates: Count('Media sharing their bytes or their decoded pixels with another media of the version'),
      odd_aspect_ratio: Count('Long side more than 2.5 times the short side'),
      odd_size: Count('Area below 64×64 px, below 1/16 of the median area, or above 16 times it'),
      grayscale: Count('No colour: 99th percentile of the channel spread at most 12'),
      low_information: Count('Entropy of the gray histogram below 2.5 bits: blank, flat, mostly one colour'),
      mislabels: Count('mislabel_score at or above the threshold of the last LABEL_ERRORS run (POST …/label_errors); 0 before any run'),
      class_outliers: Count("Far from their label's centroid, by the last LABEL_ERRORS run; 0 before any run"),
      corrupt: Count('Uploaded files that failed to decode (no media)'),
    },
    { description: 'Media per issue type (docs/curation.md); each but corrupt is an Explore issue_type' },
  ),
  object_issues: Type.Object(
    {
      mislabels: Count('Detected objects whose mislabel_score reached the threshold of the last LABEL_ERRORS run that scored objects (target objects or all); 0 before any'),
      class_outliers: Count("Detected objects far from their class's centroid, by that run; 0 before any"),
    },
    { description: "Detected objects per label-error type (docs/curation.md, Label errors on objects), counted while an object keeps the class scored; Explore's entity_type=OBJECTS filters them" },
  ),
  corrupt_files: Type.Array(
    Type.Object({
      file_name: Type.String(),
      reason: Type.String({ description: 'Why it did not decode' }),
      uploaded_at: Type.String({ format: 'date-time' }),
    }),
    { description: 'A page of the corrupt files, oldest first' },
  ),
  page_number: Type.Integer(),
  files_per_page: Type.Integer(),
});

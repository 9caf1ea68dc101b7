import { Type } from '@sinclair/typebox';
import { Nullable } from '../../http/schemas.js';
import { ExploreQuerySchema } from '../explore/explore.schemas.js';

/** The Explore parameters a view stores: everything Explore takes except paging (and a view of its own). */
export const ViewFiltersQuery = Type.Omit(ExploreQuerySchema, ['page_number', 'previews_limit', 'view_id']);
export const ViewFilters = Type.Omit(ExploreQuerySchema, ['page_number', 'previews_limit', 'view_id'], { additionalProperties: false });
export const VIEW_FILTER_KEYS = Object.keys(ViewFilters.properties) as Array<keyof typeof ViewFilters.properties>;

const NotifyEmails = Type.Array(Type.String({ minLength: 3, maxLength: 320 }), {
  maxItems: 50,
  description: "Users alerted besides the view's creator; each must have access to the dataset",
});

export const ViewParams = Type.Object({
  dataset_id: Type.String({ format: 'uuid' }),
  view_id: Type.String({ format: 'uuid' }),
});

/** JSON or urlencoded; multipart forms carry the same fields (notify_emails comma-separated there). */
export const ViewCreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    monitoring_enabled: Type.Optional(Type.Boolean({ default: true, description: 'Evaluate the view on every new media batch; on unless set to false' })),
    alerting_enabled: Type.Optional(Type.Boolean({ default: true, description: 'Notify when a batch brings new results (with monitoring); on unless set to false' })),
    notify_emails: Type.Optional(NotifyEmails),
  },
  { additionalProperties: false },
);

export const ViewPatchBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    monitoring_enabled: Type.Optional(Type.Boolean()),
    alerting_enabled: Type.Optional(Type.Boolean()),
    filters: Type.Optional(ViewFilters),
    notify_emails: Type.Optional(NotifyEmails),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const ViewStats = Type.Object(
  {
    n_images: Type.Integer(),
    n_video_frames: Type.Integer(),
    n_videos: Type.Integer({ description: 'Videos with at least one matching frame' }),
    n_clusters: Type.Integer({ description: 'Clusters at the view threshold holding a match' }),
  },
  { description: "What the view matches in the dataset's current version" },
);

export const SavedView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    dataset_id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    created_by: Type.Object({ user_id: Type.String({ format: 'uuid' }), email: Type.String() }),
    filters: ViewFilters,
    stats: Nullable(ViewStats),
    total_results: Nullable(Type.Integer({ description: 'Matching media (images and video frames); null while the dataset has no index or the anchor is gone' })),
    monitoring_enabled: Type.Boolean(),
    alerting_enabled: Type.Boolean(),
    notify_emails: Type.Array(Type.String()),
  },
  { $id: 'SavedView' },
);

export const ViewList = Type.Object({ views: Type.Array(Type.Ref('SavedView')) });

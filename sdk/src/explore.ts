import type { ExploreQuery } from './types.js';

/** The SDK's explore options in the route's words (threshold, page_number, …); its required parameters get their defaults. */
export function exploreQuery(q: ExploreQuery): Record<string, string | number | boolean | undefined> {
  return {
    threshold: q.level ?? 0,
    entity_type: q.entityType ?? 'IMAGES',
    page_number: q.page ?? 0,
    previews_limit: q.previewsLimit ?? 6,
    anchor_media_id: q.similarTo,
    anchor_type: q.anchorType ?? (q.similarTo ? 'MEDIA' : undefined),
    sort_by: q.sortBy,
    vql: q.vql,
    issue_type: q.issueType,
    labels: q.labels,
    tags: q.tags,
    media_type: q.mediaType,
    file_name: q.fileName,
    caption: q.caption,
    view_id: q.viewId,
    ...q.extra,
  };
}

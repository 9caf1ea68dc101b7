/** The nearest neighbours of a media item from an Explore answer ranked by similarity to it. */

export interface RankedPreview {
  media_id: string;
  file_name: string;
  media_thumb_uri: string | null;
  relevance_score: number | null;
}

/** The `count` closest media other than the anchor, closest first (relevance is a distance: lower is closer). */
export function nearestNeighbours<T extends RankedPreview>(clusters: Array<{ previews: T[] }>, anchorId: string, count: number): T[] {
  const seen = new Set<string>([anchorId]);
  const previews: T[] = [];
  for (const cluster of clusters) {
    for (const preview of cluster.previews) {
      if (seen.has(preview.media_id)) continue;
      seen.add(preview.media_id);
      previews.push(preview);
    }
  }
  const distance = (p: T) => p.relevance_score ?? Number.POSITIVE_INFINITY;
  return previews.sort((a, b) => distance(a) - distance(b)).slice(0, count);
}

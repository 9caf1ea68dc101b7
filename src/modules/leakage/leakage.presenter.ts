import type { MediaLink } from '../media/media-links.js';
import type { PairsPage } from './leakage.service.js';
import type { StoredRun } from './leakage.repo.js';
import { PAIRS_PAGE_SIZE } from './leakage-plan.js';

export function presentRun(run: StoredRun) {
  return {
    task_id: run.task_id,
    dataset_id: run.dataset_id,
    other_dataset_id: run.other_dataset_id,
    split_field: run.split_field,
    threshold: run.threshold,
    tag: run.tag,
    comparisons: run.comparisons.map((c, comparison) => ({ comparison, ...c })),
    created_at: run.created_at.toISOString(),
  };
}

/** Each pair's media with a signed thumbnail link made for the dataset that holds it. */
export function presentPairs(page: PairsPage, linkFor: (datasetId: string) => MediaLink) {
  const links = new Map<string, MediaLink>();
  const link = (datasetId: string) => links.get(datasetId) ?? links.set(datasetId, linkFor(datasetId)).get(datasetId)!;
  const media = (id: string, fileName: string, thumb: boolean, datasetId: string) => ({
    media_id: id,
    file_name: fileName,
    dataset_id: datasetId,
    media_thumb_uri: thumb ? link(datasetId)(id, 'thumbnail') : null,
  });
  return {
    pairs: page.pairs.map((p) => {
      const { side_a, side_b } = page.run.comparisons[p.comparison]!;
      return {
        comparison: p.comparison,
        similarity: p.similarity,
        media_a: media(p.media_a, p.file_a, p.thumb_a, side_a.dataset_id),
        media_b: media(p.media_b, p.file_b, p.thumb_b, side_b.dataset_id),
      };
    }),
    page_number: page.page,
    page_size: PAIRS_PAGE_SIZE,
    total: page.total,
  };
}

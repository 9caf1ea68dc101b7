import type { Principal } from '../auth/auth.service.js';
import { ISSUE_TYPES } from '../../core/vql.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import type { FailedFile, IssueCounts, IssuesRepo, ObjectIssueCounts } from './issues.repo.js';

/** Failed files listed a page. */
export const FILES_PER_PAGE = 100;

export interface DatasetIssues {
  counts: IssueCounts & { corrupt: number };
  objectCounts: ObjectIssueCounts;
  corruptFiles: FailedFile[];
}

/** A dataset's issue counts (its head version's media, as Explore's issue filters find them) and its corrupt files. */
export class IssuesService {
  constructor(
    private readonly repo: IssuesRepo,
    private readonly datasets: Pick<DatasetsService, 'authorize'>,
  ) {}

  async issues(principal: Principal, datasetId: string, page: number): Promise<DatasetIssues> {
    const dataset = await this.datasets.authorize(principal, datasetId, 'read');
    const versionId = dataset.head_version_id;
    const none = { n_media: 0, median_area: null, ...Object.fromEntries(ISSUE_TYPES.map((t) => [t, 0])) } as IssueCounts;
    const [counts, objectCounts, corrupt, corruptFiles] = await Promise.all([
      versionId ? this.repo.counts(versionId) : none,
      versionId ? this.repo.objectCounts(versionId) : { mislabels: 0, class_outliers: 0 },
      this.repo.countFailed(datasetId),
      this.repo.failed(datasetId, page * FILES_PER_PAGE, FILES_PER_PAGE),
    ]);
    return { counts: { ...counts, corrupt }, objectCounts, corruptFiles };
  }
}

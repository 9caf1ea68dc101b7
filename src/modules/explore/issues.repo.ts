import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import { ISSUE_TYPES, type IssueType } from '../../core/vql.js';
import { wideRows } from './explore-filters.js';
import { flaggedIds, flaggedObjectScores } from '../label-errors/label-errors.repo.js';
import { failedFiles, hasFlag, liveExactDuplicateIds, liveMedianArea, oddArea, oddAspectRatio } from './quality-issues.js';

export type IssueCounts = Record<IssueType, number> & { n_media: number; median_area: number | null };

/** Detected objects flagged by the objects run that applies to the version (POST …/label_errors, target objects or all). */
export interface ObjectIssueCounts {
  mislabels: number;
  class_outliers: number;
}

export interface FailedFile {
  file_name: string;
  error: string;
  created_at: Date;
}

/** The SQL of a dataset's issue counts and its failed files. */
export class IssuesRepo {
  constructor(private readonly db: Db) {}

  /**
   * How many of the version's images and frames have each issue, as Explore's issue filters find them (explore-filters.ts):
   * stored with the version when it became a head (versions/issue-summaries.ts), read by key.
   */
  async counts(versionId: string): Promise<IssueCounts> {
    const { rows } = await sql<{ n_media: number; median_area: number | null; counts: Record<IssueType, number> }>`select n_media, median_area, counts
      from version_issues where version_id = ${versionId}::uuid`.execute(this.db);
    // Label errors come from their run, not the version's rows: counted from the run's flagged scores, by index.
    const runs = await this.labelErrorCounts(versionId);
    // A type the stored counts lack (added after they were written, or not counted by issue-summaries.ts) is counted live.
    const stored = rows[0];
    if (!stored || ISSUE_TYPES.some((t) => !(t in stored.counts) && !(t in runs))) return { ...(await this.liveCounts(versionId)), ...runs };
    return { ...stored.counts, ...runs, n_media: stored.n_media, median_area: stored.median_area };
  }

  private async labelErrorCounts(versionId: string): Promise<Pick<IssueCounts, 'mislabels' | 'class_outliers'>> {
    const version = sql`${versionId}::uuid`;
    const { rows } = await sql<Pick<IssueCounts, 'mislabels' | 'class_outliers'>>`select
        (select count(*)::int from (${flaggedIds('is_mislabel')(version)}) e) as mislabels,
        (select count(*)::int from (${flaggedIds('is_class_outlier')(version)}) e) as class_outliers`.execute(this.db);
    return rows[0]!;
  }

  /**
   * The flagged objects of the objects run that applies to the version, counted while the object is still in the
   * version with the class that was scored (as Explore's objects view filters them): one lookup by media per flagged
   * object, never a pass over the version's objects.
   */
  async objectCounts(versionId: string): Promise<ObjectIssueCounts> {
    const version = sql`${versionId}::uuid`;
    const { rows } = await sql<ObjectIssueCounts>`select count(*) filter (where s.is_mislabel)::int as mislabels,
        count(*) filter (where s.is_class_outlier)::int as class_outliers
      from ${flaggedObjectScores(version, ['is_mislabel', 'is_class_outlier'])} s
      cross join lateral (select w.objects from ${wideRows(versionId)} w where w.media_id = s.media_id offset 0) w
      where w.objects @> jsonb_build_array(jsonb_build_object('object_id', s.object_id::text, 'label', s.label))`.execute(this.db);
    return rows[0]!;
  }

  /**
   * The counts of a version not summarised yet (a head of before migration 0047, until the sweep reaches it): one pass
   * over the version's rows and their media, one for the median area, one sort per hash for exact duplicates.
   */
  private async liveCounts(versionId: string): Promise<IssueCounts> {
    const version = sql`${versionId}::uuid`;
    const count = (condition: unknown) => sql`count(*) filter (where ${condition})::int`;
    const { rows } = await sql<IssueCounts>`with median as (select ${liveMedianArea(version)} as a)
      select count(*)::int as n_media,
        ${count(hasFlag('m', 'blurry'))} as blur, ${count(hasFlag('m', 'dark'))} as dark, ${count(hasFlag('m', 'bright'))} as bright,
        ${count(sql`vm.is_outlier`)} as outliers, ${count(sql`vm.duplicate_group is not null`)} as duplicates,
        ${count(hasFlag('m', 'grayscale'))} as grayscale, ${count(hasFlag('m', 'low_information'))} as low_information,
        ${count(oddAspectRatio('m'))} as odd_aspect_ratio,
        ${count(sql`m.width is not null and ${oddArea(sql`m.width::float8 * m.height`, sql`(select a from median)`)}`)} as odd_size,
        (select count(*)::int from (${liveExactDuplicateIds(version)}) e) as exact_duplicates,
        (select a from median) as median_area
      from ${wideRows(versionId)} vm join media m on m.id = vm.media_id
      where m.media_type in ('IMAGE', 'VIDEO_FRAME')`.execute(this.db);
    return rows[0]!;
  }

  async countFailed(datasetId: string): Promise<number> {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from (${failedFiles(datasetId)}) f`.execute(this.db);
    return rows[0]!.n;
  }

  /** The dataset's files that failed to decode, oldest first, a page of them. */
  async failed(datasetId: string, offset: number, limit: number): Promise<FailedFile[]> {
    const { rows } = await sql<FailedFile>`select f.file_name, f.error, f.created_at from (${failedFiles(datasetId)}) f
      order by f.created_at, f.file_name, f.id limit ${limit} offset ${offset}`.execute(this.db);
    return rows;
  }
}

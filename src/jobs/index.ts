import type { TaskType } from '../core/tasks.js';
import { datasetCreationJob } from './dataset-creation.job.js';
import { type EnrichmentJobDeps, enrichmentJob } from './enrichment.job.js';
import { type LabelPropagationDeps, labelPropagationJob } from './label-propagation.job.js';
import { type CustomMetadataDeps, customMetadataJob } from './custom-metadata.job.js';
import { type MediaAdditionDeps, mediaAdditionJob } from './media-addition.job.js';
import type { JobDefinition } from './registry.js';
import { reindexJob } from './reindex.job.js';
import { type SnapshotCloneDeps, snapshotCloneJob } from './snapshot-clone.job.js';
import { snapshotRestoreJob } from './snapshot-restore.job.js';

export type JobDeps = MediaAdditionDeps & SnapshotCloneDeps & LabelPropagationDeps & CustomMetadataDeps & EnrichmentJobDeps;

/** Handlers of the task types this build runs; each capability adds its own entry here. */
export function productionJobs(deps: JobDeps): JobDefinition[] {
  return [
    datasetCreationJob(deps),
    mediaAdditionJob(deps),
    reindexJob(deps),
    snapshotRestoreJob(deps),
    snapshotCloneJob(deps),
    labelPropagationJob(deps),
    customMetadataJob(deps),
    enrichmentJob(deps),
  ];
}

/** Task types the services of this build can start: each must have exactly one handler at boot. */
export const startableTaskTypes: TaskType[] = ['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'SNAPSHOT_RESTORE', 'SNAPSHOT_CLONE', 'LABEL_PROPAGATION', 'CUSTOM_METADATA', 'ENRICHMENT'];

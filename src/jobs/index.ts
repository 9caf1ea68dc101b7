import type { TaskType } from '../core/tasks.js';
import { type DatasetCreationDeps, datasetCreationJob } from './dataset-creation.job.js';
import type { JobDefinition } from './registry.js';

export type JobDeps = DatasetCreationDeps;

/** Handlers of the task types this build runs; each capability adds its own entry here. */
export function productionJobs(deps: JobDeps): JobDefinition[] {
  return [datasetCreationJob(deps)];
}

/** Task types the services of this build can start: each must have exactly one handler at boot. */
export const startableTaskTypes: TaskType[] = ['DATASET_CREATION'];

import type { TaskType } from '../core/tasks.js';
import type { JobDefinition } from './registry.js';

/** Handlers of the task types this build runs; each capability adds its own entry here. */
export const productionJobs: JobDefinition[] = [];

/** Task types the services of this build can start: each must have exactly one handler at boot. */
export const startableTaskTypes: TaskType[] = [];

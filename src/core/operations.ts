/** The operation guard's names, kept for their users; the table they read is the lifecycle's (src/core/lifecycle.ts). */
export {
  BLOCKED_BY,
  DATASET_OPERATIONS,
  type DatasetOperation,
  OPERATION_FROM,
  type OperationCheck,
  checkOperation,
  requireOperation,
} from './lifecycle.js';

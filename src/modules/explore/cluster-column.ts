import { sql } from 'kysely';
import { CLUSTER_LEVELS } from '../../core/clustering.js';
import { errors } from '../../core/errors.js';

/** `vm.cluster_l<level>`: the level is spliced into an identifier, so only a whole number 0 … 4 ever gets there. */
export function clusterColumn(level: number) {
  if (!Number.isInteger(level) || level < 0 || level >= CLUSTER_LEVELS) throw errors.validation(`threshold must be an integer from 0 to ${CLUSTER_LEVELS - 1}`);
  return sql.ref(`vm.cluster_l${level}`);
}

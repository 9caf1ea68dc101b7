import type { Db } from '../../adapters/db/database.js';
import type { SharedRole } from '../../core/permissions.js';

export class AccessRepo {
  constructor(private readonly db: Db) {}

  /** Grants or changes a role; sharing twice updates the role instead of failing. */
  async upsert(datasetId: string, userId: string, role: SharedRole, grantedBy: string) {
    return this.db
      .insertInto('dataset_access')
      .values({ dataset_id: datasetId, user_id: userId, role, granted_by: grantedBy })
      .onConflict((oc) => oc.columns(['dataset_id', 'user_id']).doUpdateSet({ role, granted_by: grantedBy }))
      .returning(['role', 'granted_at'])
      .executeTakeFirstOrThrow();
  }

  async list(datasetId: string) {
    return this.db
      .selectFrom('dataset_access')
      .innerJoin('users', 'users.id', 'dataset_access.user_id')
      .select(['users.id as user_id', 'users.email', 'dataset_access.role', 'dataset_access.granted_at'])
      .where('dataset_access.dataset_id', '=', datasetId)
      .orderBy('dataset_access.granted_at')
      .execute();
  }

  async remove(datasetId: string, userId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('dataset_access')
      .where('dataset_id', '=', datasetId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}

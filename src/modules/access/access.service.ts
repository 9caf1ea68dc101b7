import { errors } from '../../core/errors.js';
import { SHARED_ROLES, type SharedRole } from '../../core/permissions.js';
import type { AuthService, Principal } from '../auth/auth.service.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import type { AccessRepo } from './access.repo.js';

export interface AccessEntry {
  user_id: string;
  email: string;
  role: 'owner' | SharedRole;
  granted_at: string | null;
}

export class AccessService {
  constructor(
    private readonly repo: AccessRepo,
    private readonly datasets: DatasetsService,
    private readonly auth: AuthService,
  ) {}

  async share(principal: Principal, datasetId: string, email: string | undefined, role: string | undefined): Promise<AccessEntry> {
    const dataset = await this.datasets.authorize(principal, datasetId, 'share');
    if (!email?.trim()) throw errors.missingParameter('user_email');
    const grantedRole = role ?? 'viewer';
    if (!(SHARED_ROLES as readonly string[]).includes(grantedRole)) {
      throw errors.validation(`role must be one of ${SHARED_ROLES.join(', ')}`);
    }
    const user = await this.auth.findUserByEmail(email.trim());
    if (!user) throw errors.userNotFound(email.trim());
    if (user.id === dataset.owner_id) throw errors.ownerAlreadyHasAccess();
    const row = await this.repo.upsert(datasetId, user.id, grantedRole as SharedRole, principal.userId);
    return { user_id: user.id, email: user.email, role: row.role, granted_at: row.granted_at.toISOString() };
  }

  async list(principal: Principal, datasetId: string): Promise<AccessEntry[]> {
    const dataset = await this.datasets.authorize(principal, datasetId, 'read');
    const shared = await this.repo.list(datasetId);
    return [
      { user_id: dataset.owner_id, email: dataset.owner_email, role: 'owner', granted_at: null },
      ...shared.map((s) => ({ user_id: s.user_id, email: s.email, role: s.role, granted_at: s.granted_at.toISOString() })),
    ];
  }

  async revoke(principal: Principal, datasetId: string, email: string): Promise<void> {
    await this.datasets.authorize(principal, datasetId, 'share');
    const user = await this.auth.findUserByEmail(email.trim());
    if (!user || !(await this.repo.remove(datasetId, user.id))) throw errors.accessNotFound(email.trim());
  }
}

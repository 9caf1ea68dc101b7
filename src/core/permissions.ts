/** Who a user is to a dataset; `null` means they cannot see it at all. */
export type DatasetRole = 'owner' | 'editor' | 'viewer';
export type SharedRole = Exclude<DatasetRole, 'owner'>;
export const SHARED_ROLES: readonly SharedRole[] = ['viewer', 'editor'];

export type DatasetAction = 'read' | 'write' | 'share' | 'delete';

const ALLOWED: Record<DatasetRole, readonly DatasetAction[]> = {
  owner: ['read', 'write', 'share', 'delete'],
  editor: ['read', 'write'],
  viewer: ['read'],
};

/**
 * The access rule in one place: 'hidden' (answer 404, never reveal the dataset exists),
 * 'forbidden' (visible but not changeable: 403) or 'allowed'.
 */
export function authorize(role: DatasetRole | null, action: DatasetAction): 'allowed' | 'forbidden' | 'hidden' {
  if (role === null) return 'hidden';
  return ALLOWED[role].includes(action) ? 'allowed' : 'forbidden';
}

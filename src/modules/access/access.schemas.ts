import { Type } from '@sinclair/typebox';
import { SHARED_ROLES } from '../../core/permissions.js';
import { Nullable, StringEnum } from '../../http/schemas.js';

export const AccessEntry = Type.Object(
  {
    user_id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    role: StringEnum(['owner', 'editor', 'viewer'] as const),
    granted_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'AccessEntry' },
);

export const InviteBody = Type.Object({
  grant_to_user_email: Type.String({ minLength: 1 }),
  role: Type.Optional(StringEnum(SHARED_ROLES, { default: 'viewer' })),
});

export const RevokeQuery = Type.Object({ user_email: Type.String({ minLength: 1 }) });

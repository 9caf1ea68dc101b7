import { Type } from '@sinclair/typebox';

export const SessionRequest = Type.Object({ api_key: Type.String({ minLength: 1 }), api_secret: Type.String({ minLength: 1 }) });
export const Me = Type.Object({ user_id: Type.String({ format: 'uuid' }), email: Type.String() });
export const IssuedCredentials = Type.Object({
  user_id: Type.String({ format: 'uuid' }),
  email: Type.String(),
  api_key: Type.String(),
  api_secret: Type.String({ description: 'Shown once; sign your JWTs with it (HS256, kid = sub = api_key, iss = "sdk")' }),
});

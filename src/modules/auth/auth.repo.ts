import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import { CHANNELS } from '../../adapters/events/pg-events.js';
import type { UserRow } from '../../adapters/db/schema.js';

export class AuthRepo {
  constructor(private readonly db: Db) {}

  /** The user and its first key in one transaction: no reader (a backup's snapshot) sees a user without a key. */
  async createUser(email: string, key: { apiKey: string; secretCiphertext: string }): Promise<UserRow> {
    return this.db.transaction().execute(async (trx) => {
      const user = await trx.insertInto('users').values({ email }).returningAll().executeTakeFirstOrThrow();
      await this.insertKey(user.id, key.apiKey, key.secretCiphertext, trx);
      return user;
    });
  }

  /** The user with this e-mail, created if missing; safe when two processes start at once. */
  async ensureUser(email: string): Promise<UserRow> {
    await sql`insert into users (email) values (${email}) on conflict do nothing`.execute(this.db);
    const user = await this.findUserByEmail(email);
    if (!user) throw new Error(`user ${email} was neither created nor found`);
    return user;
  }

  async findUserByEmail(email: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .executeTakeFirst();
  }

  async findUserById(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async listUsers(): Promise<Array<UserRow & { active_keys: number }>> {
    return this.db
      .selectFrom('users')
      .leftJoin('api_keys', (join) => join.onRef('api_keys.user_id', '=', 'users.id').on('api_keys.revoked_at', 'is', null))
      .select(['users.id', 'users.email', 'users.created_at'])
      .select((eb) => eb.fn.count<number>('api_keys.api_key').as('active_keys'))
      .groupBy('users.id')
      .orderBy('users.created_at')
      .execute();
  }

  async insertKey(userId: string, apiKey: string, secretCiphertext: string, db: Db = this.db): Promise<void> {
    await db.insertInto('api_keys').values({ api_key: apiKey, user_id: userId, secret_ciphertext: secretCiphertext, revoked_at: null }).execute();
  }

  async findActiveKey(apiKey: string) {
    return this.db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .select(['api_keys.api_key', 'api_keys.secret_ciphertext', 'users.id as user_id', 'users.email'])
      .where('api_keys.api_key', '=', apiKey)
      .where('api_keys.revoked_at', 'is', null)
      .executeTakeFirst();
  }

  async findNewestActiveKey(userId: string) {
    return this.db
      .selectFrom('api_keys')
      .select(['api_key', 'secret_ciphertext'])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  }

  /** Revokes the key, ends its sessions and tells every server process to forget it, in one transaction. */
  async revokeKey(apiKey: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('api_keys')
        .set({ revoked_at: new Date() })
        .where('api_key', '=', apiKey)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      await trx.deleteFrom('sessions').where('api_key', '=', apiKey).execute();
      await sql`select pg_notify(${CHANNELS.apiKeyRevoked}, ${apiKey})`.execute(trx);
      return true;
    });
  }

  /** Also drops the user's expired sessions, so the table never grows without bound. */
  async insertSession(idHash: string, userId: string, apiKey: string, expiresAt: Date): Promise<void> {
    await this.db.deleteFrom('sessions').where('user_id', '=', userId).where('expires_at', '<=', new Date()).execute();
    await this.db.insertInto('sessions').values({ id_hash: idHash, user_id: userId, api_key: apiKey, expires_at: expiresAt }).execute();
  }

  async findSessionUser(idHash: string) {
    return this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['users.id', 'users.email'])
      .where('sessions.id_hash', '=', idHash)
      .where('sessions.expires_at', '>', new Date())
      .executeTakeFirst();
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
  }
}

import { type RawBuilder, sql } from 'kysely';
import type { TestServer } from './server.js';

/**
 * Runs `during` while a transaction holds what `statement` locks: a task whose work (or commit) needs that lock
 * stays where it is, so the test can ask for other things meanwhile. The lock is released afterwards.
 */
export async function holdingLock<T>(server: TestServer, statement: RawBuilder<unknown> | string, during: () => Promise<T>): Promise<T> {
  const { db } = server.loupe.container.database;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holder = db.transaction().execute(async (trx) => {
    await (typeof statement === 'string' ? sql.raw(statement) : statement).execute(trx);
    locked();
    await released;
  });
  await isLocked;
  try {
    return await during();
  } finally {
    release();
    await holder;
  }
}

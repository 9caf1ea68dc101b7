import { createHmac, randomUUID } from 'node:crypto';
import os from 'node:os';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../../adapters/db/database.js';
import type { Config, Role } from '../../config.js';
import { s3Endpoint } from '../../adapters/s3-client.js';

/** What a server process tells the others on its database (migration 0039). */
export interface NodeIdentity {
  id: string;
  role: Role;
  host: string;
  dataDir: string;
  /** Where its blobs are: the S3 bucket and folder (with the endpoint when not AWS's), or a folder on its host. */
  blobStore: string;
  /** An HMAC of a fixed text under its secret key: equal ids, equal keys; the key itself never leaves the node. */
  keyId: string;
  /** Whether the key came from LOUPE_SECRET_KEY (else from DATA_DIR/secret.key, this node's own). */
  keyShared: boolean;
}

type LiveNode = { id: string; role: string; host: string; data_dir: string; blob_store: string; key_id: string; key_shared: boolean };

export function nodeIdentity(config: Config, serverKey: Buffer): NodeIdentity {
  const host = os.hostname();
  const endpoint = s3Endpoint(config.objectStorageEnv);
  const blobStore = config.blobs.s3
    ? `s3://${config.blobs.s3.bucket}/${config.blobs.s3.prefix}${endpoint ? ` at ${endpoint}` : ''}`
    : `file://${host}${config.dataDir}/blobs`;
  return {
    id: randomUUID(),
    role: config.role,
    host,
    dataDir: config.dataDir,
    blobStore,
    keyId: createHmac('sha256', serverKey).update('loupe node key id').digest('hex').slice(0, 32),
    keyShared: config.secretKey !== null,
  };
}

/**
 * Why this node must not run beside the live ones, or null when it agrees with all of them. Nodes on one database
 * serve each other's data: each must read every blob (one store) and verify what the others signed and encrypted
 * (one key, given to all by LOUPE_SECRET_KEY unless they share a DATA_DIR and so its secret.key).
 */
export function disagreement(self: NodeIdentity, others: LiveNode[]): string | null {
  for (const other of others) {
    const who = `node ${other.host} (${other.role}, DATA_DIR ${other.data_dir})`;
    if (other.blob_store !== self.blobStore) {
      return `BLOB_URL: ${who} keeps blobs in ${other.blob_store}, this node in ${self.blobStore}; every node on one database needs the same BLOB_URL (an S3 bucket when they run on more than one host or DATA_DIR)`;
    }
    const ownDataDir = other.host === self.host && other.data_dir === self.dataDir;
    if (!self.keyShared && !ownDataDir) {
      return `LOUPE_SECRET_KEY is not set while ${who} uses this database: set the same LOUPE_SECRET_KEY on every node (API secrets and signed links made by one node must verify on the others)`;
    }
    if (other.key_id !== self.keyId) {
      return `LOUPE_SECRET_KEY: ${who} holds another secret key; every node on one database needs the same LOUPE_SECRET_KEY`;
    }
  }
  return null;
}

export class NodeAgreementError extends Error {
  override name = 'NodeAgreementError';
}

/** Seconds without a heartbeat after which a node is taken for gone (a crash leaves its row behind). */
const LIVE_SECONDS = 30;
const HEARTBEAT_MS = 5_000;

/** This process among the nodes of its database: joins after checking it agrees with the live ones, beats, leaves. */
export class NodeRegistry {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    readonly identity: NodeIdentity,
    private readonly log: Logger,
  ) {}

  /** Checks and registers under one lock, so two nodes starting at once cannot both miss each other. */
  async join(): Promise<void> {
    const self = this.identity;
    await this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext('loupe nodes'))`.execute(trx);
      const { rows } = await sql<LiveNode>`select id, role, host, data_dir, blob_store, key_id, key_shared from nodes
        where id <> ${self.id} and heartbeat_at > now() - make_interval(secs => ${LIVE_SECONDS})`.execute(trx);
      const problem = disagreement(self, rows);
      if (problem) throw new NodeAgreementError(problem);
      await trx
        .insertInto('nodes')
        .values({ id: self.id, role: self.role, host: self.host, data_dir: self.dataDir, blob_store: self.blobStore, key_id: self.keyId, key_shared: self.keyShared, heartbeat_at: sql`now()` as unknown as Date })
        .execute();
    });
    this.timer = setInterval(() => {
      this.db
        .updateTable('nodes')
        .set({ heartbeat_at: sql`now()` as unknown as Date })
        .where('id', '=', self.id)
        .execute()
        .catch((err: unknown) => this.log.warn({ err }, 'node heartbeat failed'));
    }, HEARTBEAT_MS);
    this.timer.unref();
  }

  async leave(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.db.deleteFrom('nodes').where('id', '=', this.identity.id).execute();
  }
}

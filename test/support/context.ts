import { afterAll, beforeAll } from 'vitest';
import type { JobDefinition } from '../../src/jobs/registry.js';
import { type UploadFile, createDataset, photo } from './ingest.js';
import { type TestServer, type TestUser, startTestServer } from './server.js';
import { newDataset } from './tasks.js';

export interface TestDataset {
  id: string;
  name: string;
  owner: TestUser;
  /** The dataset as GET /dataset/{id} answered when it settled; absent for an empty one. */
  body?: Record<string, any>;
}

export type ShareRole = 'viewer' | 'editor';

/** What a test file builds its data from, each test making its own (immich's medium-test `ctx.newUser()` style). */
export interface TestContext {
  readonly server: TestServer;
  newUser(): Promise<TestUser>;
  /** Creates a dataset through the documented HTTP flow from `photos` (file names in test/fixtures/photos or files), READY or ERROR; with none, an empty one. */
  newDataset(owner: TestUser, options?: { name?: string; photos?: Array<string | UploadFile> }): Promise<TestDataset>;
  /** Shares the dataset with `user` in `role` the way an owner does, through the API. */
  share(dataset: TestDataset, user: TestUser, role?: ShareRole): Promise<void>;
}

let datasets = 0;

/**
 * Starts a server for the file in beforeAll and closes it in afterAll; call at the top level of a test file.
 * Tests read `ctx.server` (and call the makers) only inside hooks and tests.
 */
export function useTestContext(options: { jobs?: JobDefinition[]; env?: Record<string, string> } = {}): TestContext {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(options);
  });
  afterAll(() => server?.close());
  const running = () => {
    if (!server) throw new Error('the test server is not started yet: use ctx in hooks and tests');
    return server;
  };

  return {
    get server() {
      return running();
    },
    newUser: () => running().createUser(),
    async newDataset(owner, { name = `dataset-${++datasets}`, photos = [] } = {}) {
      const s = running();
      if (photos.length === 0) return { id: await newDataset(s, owner, name), name, owner };
      const files = photos.map((p) => (typeof p === 'string' ? photo(p) : p));
      const { datasetId, dataset } = await createDataset(s, owner, name, [files]);
      return { id: datasetId, name, owner, body: dataset };
    },
    async share(dataset, user, role = 'viewer') {
      const res = await running().api(dataset.owner.token, 'POST', `/api/v1/dataset/${dataset.id}/share`, { user_email: user.email, role });
      if (res.status !== 200) throw new Error(`share: ${res.status} ${res.text}`);
    },
  };
}

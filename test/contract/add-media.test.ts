import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { type UploadFile, createDataset, form, photo, threeSceneClip } from '../support/ingest.js';
import { PHOTO_EDITS } from '../support/photo-edits.js';

let server: TestServer;
let owner: TestUser;
let viewer: TestUser;
let stranger: TestUser;
/** Read-only for every test: the three photos and a PARTIAL INDEX batch of three more (the half-size dog among them). */
let grownId: string;

const addMedia = (id: string, body: FormData, user = owner) => server.api(user.token, 'POST', `/api/v1/dataset/${id}/add_media`, body);
const dataset = async (id: string) => (await server.api(owner.token, 'GET', `/api/v1/dataset/${id}`)).body;
const waitStatus = (id: string, statuses: string[]) =>
  waitFor(async () => {
    const d = await dataset(id);
    return statuses.includes(d.status_new) ? d : undefined;
  }, 60_000, statuses.join(' or '));
const latestTask = async (id: string, type: string) => (await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${id}&task_type=${type}`)).body.tasks[0];
const clusterOf = async (id: string, threshold: number) => {
  const res = await server.api(owner.token, 'GET', `/api/v1/explore/${id}?threshold=${threshold}&previews_limit=1000`);
  const map = new Map<string, string>();
  for (const c of res.body.clusters) for (const p of c.previews) map.set(p.file_name, c.cluster_id);
  return map;
};
const files = (list: UploadFile[], field = 'files') => form(list.map((f) => ({ ...f, field })));
const dogHalf = async (): Promise<UploadFile> => ({ name: 'dog-half.jpg', bytes: await PHOTO_EDITS['half-q30']!(photo('dog.jpg').bytes) });
const THREE = ['dog.jpg', 'horses.jpg', 'person.jpg'];

/** A READY dataset of its own, made through the documented flow from `photos`. */
async function readyDataset(photos: Array<string | UploadFile> = THREE): Promise<string> {
  const { datasetId, dataset: created } = await createDataset(server, owner, 'grows', [photos.map((p) => (typeof p === 'string' ? photo(p) : p))]);
  if (created.status_new !== 'READY') throw new Error(`dataset creation ended ${created.status_new}: ${created.fatal_error_msg}`);
  return datasetId;
}

/** The three photos, then `added` as one add_media batch without a reindex: a PARTIAL INDEX dataset of its own. */
async function partialDataset(added: UploadFile[]): Promise<string> {
  const id = await readyDataset();
  const res = await addMedia(id, files(added));
  if (res.status !== 202) throw new Error(`add_media: ${res.status} ${res.text}`);
  const d = await waitStatus(id, ['PARTIAL INDEX', 'ERROR', 'READY']);
  if (d.status_new !== 'PARTIAL INDEX') throw new Error(`add_media ended ${d.status_new}: ${d.fatal_error_msg}`);
  return id;
}

beforeAll(async () => {
  server = await startTestServer();
  [owner, viewer, stranger] = await Promise.all([server.createUser(), server.createUser(), server.createUser()]);
  grownId = await partialDataset([await dogHalf(), photo('coffee.png'), photo('kite.jpg')]);
  await server.api(owner.token, 'PUT', `/api/v1/manage/${grownId}/invite`, { grant_to_user_email: viewer.email });
}, 120_000);
afterAll(() => server?.close());

describe('add_media with files, then reindex', () => {
  it('is READ ONLY while the batch runs, then PARTIAL INDEX with the new media attached to their clusters', async () => {
    const datasetId = await readyDataset();
    const edit = await dogHalf();
    const res = await addMedia(datasetId, files([edit, photo('coffee.png')]));
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    const during = await dataset(datasetId);
    expect(during).toMatchObject({ status_new: 'READ ONLY', status: 'UPDATING' });
    expect((await server.api(owner.token, 'GET', `/api/v1/explore/${datasetId}?threshold=0`)).status).toBe(200);

    const after = await waitStatus(datasetId, ['PARTIAL INDEX', 'ERROR', 'READY']);
    expect(after).toMatchObject({ status_new: 'PARTIAL INDEX', n_images: 5 });
    expect(await latestTask(datasetId, 'MEDIA_ADDITION')).toMatchObject({ status: 'COMPLETED', dataset_status: 'PARTIAL_INDEX' });
    const clusters = await clusterOf(datasetId, 0);
    expect(clusters.get('dog-half.jpg')).toBe(clusters.get('dog.jpg'));
    expect(clusters.get('coffee.png')).not.toBe(clusters.get('dog.jpg'));
    const dogs = (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media?limit=10`)).body.media.filter((m: { file_name: string }) => m.file_name.startsWith('dog'));
    expect(dogs.map((m: { duplicate_group_id: string }) => m.duplicate_group_id)).toEqual([dogs[0].duplicate_group_id, dogs[0].duplicate_group_id]);
    expect(dogs[0].duplicate_group_id).not.toBeNull();
  });

  it('finds media added without a reindex by image similarity', async () => {
    const dogHalf = (await server.api(owner.token, 'GET', `/api/v1/explore/${grownId}?threshold=0&file_name=dog-half`)).body.clusters[0].previews[0];
    const res = await server.api(owner.token, 'GET', `/api/v1/explore/${grownId}?anchor_media_id=${dogHalf.media_id}`);
    expect(res.body.clusters[0].previews.map((p: { file_name: string }) => p.file_name).sort()).toEqual(['dog-half.jpg', 'dog.jpg']);
  });

  it('attaches a video by its frames: the video takes its first frame\'s clusters and counts as a video', async () => {
    const datasetId = await partialDataset([{ name: 'scenes.mp4', bytes: threeSceneClip() }]);
    expect(await dataset(datasetId)).toMatchObject({ status_new: 'PARTIAL INDEX', n_images: 3, n_videos: 1 });
    const list = async (type: string) => (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media?media_type=${type}`)).body.media;
    const [video] = await list('VIDEO');
    const first = (await list('VIDEO_FRAME')).find((f: { frame_timestamp: number }) => f.frame_timestamp === 0);
    expect(first.cluster_ids).toHaveLength(5);
    const detail = (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media/${video.media_id}`)).body;
    expect(detail.cluster_ids).toEqual(first.cluster_ids);
  });

  it('reindexes only from PARTIAL INDEX, then is READY with every media scored', async () => {
    const datasetId = await partialDataset([await dogHalf(), photo('coffee.png')]);
    const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/reindex`);
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    expect((await dataset(datasetId)).status_new).toMatch(/^(READ ONLY|INDEXING)$/);
    expect(await waitStatus(datasetId, ['READY', 'ERROR'])).toMatchObject({ status_new: 'READY', n_images: 5 });
    expect(await latestTask(datasetId, 'REINDEX')).toMatchObject({ status: 'COMPLETED' });
    const again = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/reindex`);
    expect(again).toMatchObject({ status: 409, body: { detail: "Operation 'reindex' needs the dataset PARTIAL INDEX; it is READY" } });
    const clusters = await clusterOf(datasetId, 0);
    expect(clusters.get('dog-half.jpg')).toBe(clusters.get('dog.jpg'));
  });

  it('with auto_reindex goes from READ ONLY to READY without ever showing PARTIAL INDEX', async () => {
    const datasetId = await readyDataset([...THREE, await dogHalf(), 'coffee.png']);
    const body = files([photo('kite.jpg')]);
    body.append('auto_reindex', 'true');
    expect((await addMedia(datasetId, body)).status).toBe(202);
    const seen = new Set<string>();
    await waitFor(async () => {
      const d = await dataset(datasetId);
      seen.add(d.status_new);
      return d.status_new === 'READY' || d.status_new === 'ERROR' ? d : undefined;
    }, 60_000);
    expect(seen.has('PARTIAL INDEX')).toBe(false);
    expect(await dataset(datasetId)).toMatchObject({ status_new: 'READY', n_images: 6 });
    // The list has no config column: the task's message is where auto_reindex shows.
    expect(await latestTask(datasetId, 'MEDIA_ADDITION')).toMatchObject({ status: 'COMPLETED', dataset_status: 'READY', status_message: 'Media added: 1 file(s), dataset reindexed' });
  });
});

describe('add_media refusals', () => {
  it('needs exactly one source', async () => {
    const message = { status: 400, body: { detail: 'Exactly one media source must be provided: files[], s3_uri, or archive' } };
    const none = new FormData();
    none.append('auto_reindex', 'false');
    expect(await addMedia(grownId, none)).toMatchObject(message);
    const two = files([photo('dog.jpg')]);
    two.append('s3_uri', 's3://bucket/folder/');
    expect(await addMedia(grownId, two)).toMatchObject(message);
    expect(await addMedia(grownId, files([photo('dog.jpg')], 'files[]'))).toMatchObject({ status: 422 });
    const badOption = files([photo('dog.jpg')]);
    badOption.append('batch_n_images', 'many');
    expect((await addMedia(grownId, badOption)).status).toBe(422);
    expect((await dataset(grownId)).n_images).toBe(6);
  });

  it('hides the dataset from strangers, refuses viewers, and needs an index first', async () => {
    expect(await addMedia(grownId, files([photo('dog.jpg')]), stranger)).toMatchObject({ status: 404, body: { detail: 'Dataset not found' } });
    expect((await addMedia(grownId, files([photo('dog.jpg')]), viewer)).status).toBe(403);
    expect((await server.api(viewer.token, 'POST', `/api/v1/dataset/${grownId}/reindex`)).status).toBe(403);
    const fresh = (await server.api(owner.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=unindexed')).body.dataset_id;
    const res = await addMedia(fresh, files([photo('dog.jpg')]));
    expect(res.status).toBe(400);
    expect(res.body.detail.startsWith(`Dataset ${fresh} has no embedding_config...`)).toBe(true);
  });

  it('lets one of two simultaneous requests start and blocks the other with the spec message', async () => {
    const datasetId = await readyDataset(['dog.jpg']);
    const [a, b] = await Promise.all([addMedia(datasetId, files([photo('chelsea.png')])), addMedia(datasetId, files([photo('astronaut.png')]))]);
    expect([a.status, b.status].sort()).toEqual([202, 409]);
    expect([a, b].find((r) => r.status === 409)!.body.detail).toBe("Operation 'add_media' is blocked while MEDIA_ADDITION task is running");
    expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/reindex`)).body.detail).toBe("Operation 'reindex' is blocked while MEDIA_ADDITION task is running");
    await waitStatus(datasetId, ['PARTIAL INDEX']);
  });

  it('leaves the dataset exactly as it was when a batch fails', async () => {
    const datasetId = await readyDataset(['dog.jpg', 'coffee.png']);
    const before = await dataset(datasetId);
    const clustersBefore = await clusterOf(datasetId, 2);
    const corrupt = { name: 'broken.jpg', bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]) };
    expect((await addMedia(datasetId, files([corrupt]))).status).toBe(202);
    await waitFor(async () => ((await latestTask(datasetId, 'MEDIA_ADDITION'))?.status === 'FAILED' ? true : undefined), 30_000);
    expect((await latestTask(datasetId, 'MEDIA_ADDITION')).error_message).toMatch(/No usable media/);
    const after = await dataset(datasetId);
    expect(after).toMatchObject({ status_new: before.status_new, n_images: before.n_images, fatal_error_msg: before.fatal_error_msg });
    expect(await clusterOf(datasetId, 2)).toEqual(clustersBefore);
  });
});

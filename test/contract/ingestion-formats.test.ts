import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';
import { createDataset, photo, threeSceneClip } from '../support/ingest.js';

let server: TestServer;
let owner: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.createUser();
});
afterAll(async () => {
  await server?.close();
});

describe('formats', () => {
  it('creates a dataset from a HEIC photo, a GIF, a WebP and a video with its frames', async () => {
    const gif = await sharp(photo('dog.jpg').bytes).resize(120).gif().toBuffer();
    const webp = await sharp(photo('horses.jpg').bytes).resize(200).webp().toBuffer();
    const { datasetId, dataset } = await createDataset(server, owner, 'formats', [
      [photo('small.heic'), { name: 'dog.gif', bytes: gif }, { name: 'horses.webp', bytes: webp }, { name: 'scenes.mp4', bytes: threeSceneClip() }],
    ]);
    expect(dataset).toMatchObject({ status_new: 'READY', n_images: 3, n_videos: 1 });

    const list = async (type: string) => (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media?media_type=${type}`)).body;
    const images = await list('IMAGE');
    expect(images.media.map((m: { format: string }) => m.format).sort()).toEqual(['gif', 'heic', 'webp']);
    const heic = images.media.find((m: { format: string }) => m.format === 'heic');
    expect(heic).toMatchObject({ width: 64, height: 48, exif: { make: 'Canon' } });

    const video = (await list('VIDEO')).media[0];
    expect(video).toMatchObject({ file_name: 'scenes.mp4', format: 'mp4', width: 160, height: 120 });
    expect(video.duration_seconds).toBeCloseTo(3, 0);
    const detail = (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media/${video.media_id}`)).body;
    // A frame's time is named as on the frame's own media item: frame_timestamp.
    expect(detail.frames.map((f: { frame_timestamp: number }) => Math.round(f.frame_timestamp))).toEqual([0, 1, 2]);
    expect(Object.keys(detail.frames[0]).sort()).toEqual(['frame_timestamp', 'media_id']);
    const frames = await list('VIDEO_FRAME');
    expect(frames.total).toBe(3);
    expect(frames.media[0]).toMatchObject({ parent_media_id: video.media_id, format: 'jpeg', width: 160, height: 120 });
    expect((await fetch(video.media_thumb_uri)).status).toBe(200);

    // Frames are indexed like images; the video follows its first frame's clusters.
    const firstFrame = frames.media.find((f: { frame_timestamp: number }) => f.frame_timestamp === 0);
    expect(firstFrame.cluster_ids).toHaveLength(5);
    expect(detail.cluster_ids).toEqual(firstFrame.cluster_ids);
    const explored = (await server.api(owner.token, 'GET', `/api/v1/explore/${datasetId}?threshold=4&media_type=VIDEO`)).body;
    const previews = explored.clusters.flatMap((c: { previews: unknown[] }) => c.previews);
    expect(previews).toHaveLength(3);
    expect(previews.every((p: { type: string; video_id: string }) => p.type === 'VIDEO_FRAME' && p.video_id === video.media_id)).toBe(true);
    expect(explored.clusters.every((c: { n_videos: number }) => c.n_videos === 1)).toBe(true);
  });

  it('decides the type from the bytes, not the name', async () => {
    const { dataset } = await createDataset(server, owner, 'misnamed', [[{ name: 'actually-a-png.jpg', bytes: photo('chelsea.png').bytes }]]);
    expect(dataset).toMatchObject({ status_new: 'READY', n_images: 1 });
  });
});

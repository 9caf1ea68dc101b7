import { describe, expect, it } from 'vitest';
import type { ExportItem } from '../../src/modules/exports/export-items.js';
import { metadataRow } from '../../src/modules/exports/metadata/columns.js';
import { clockTime, formatFileSize, jsonMediaItem } from '../../src/modules/exports/metadata/json-item.js';

const frame: ExportItem = {
  media_id: 'f0000000-0000-4000-8000-000000000001',
  media_type: 'VIDEO_FRAME',
  image_filename: 'clip.mp4_frame-0017.jpg',
  file_name: 'clip.mp4#frame-0017.jpg',
  blob_hash: 'h',
  file_size: 50_135,
  width: 576,
  height: 720,
  uniqueness_score: 0.25,
  nn_similarity: 0.977624,
  cluster_l0: 'c0',
  cluster_l1: null,
  cluster_l2: null,
  cluster_l3: null,
  cluster_l4: null,
  duplicate_group: 'g1',
  is_outlier: false,
  quality_flags: ['blurry'],
  blur: 3,
  brightness: 0.5,
  color_spread: 80,
  entropy: 7.1,
  pixel_hash: null,
  size_ratio: 1,
  is_odd_size: false,
  is_exact_duplicate: false,
  captured_at: null,
  video_id: 'v0000000-0000-4000-8000-000000000002',
  video_name: 'clip.mp4',
  frame_timestamp: 0.567,
  tags: ['spider'],
  label: 'car',
  custom_fields: { site: 'north' },
  created_at: new Date(0),
  caption: 'A dog playing in the field',
  objects: [{ object_id: 'o1', label: 'dog', score: 0.9, box: { x: 1, y: 2, width: 3, height: 4 }, caption: 'a brown dog' }],
  ocr_text: null,
};

describe("the JSON export's media items (the hosted service's documented format)", () => {
  it('prints sizes as the docs do, from KB up', () => {
    expect([0, 500, 1024, 50_135, 1024 ** 2 * 3.5, 1024 ** 4 * 2048].map(formatFileSize)).toEqual(['0.00KB', '0.49KB', '1.00KB', '48.96KB', '3.50MB', '2048.00TB']);
  });

  it('prints frame times as HH:MM:SS.mmm', () => {
    expect([0, 0.567, 61.5, 3723.004].map(clockTime)).toEqual(['00:00:00.000', '00:00:00.567', '00:01:01.500', '01:02:03.004']);
  });

  it("a video frame: the docs' fields first, every fact as a metadata item, Loupe's columns after", () => {
    const item = jsonMediaItem(metadataRow(frame, false, ['site']), frame);
    expect(Object.keys(item).slice(0, 12)).toEqual(['media_id', 'media_type', 'file_name', 'file_path', 'file_size', 'file_size_bytes', 'height', 'width', 'url', 'cluster_id', 'uniqueness_score', 'metadata_items']);
    expect(item).toMatchObject({ media_type: 'video_frame', file_name: 'clip.mp4#frame-0017.jpg', file_size: '48.96KB', file_size_bytes: 50_135, url: null, cluster_id: 'c0' });
    expect(item.metadata_items).toEqual([
      { type: 'video_info', properties: { video_id: frame.video_id, video_name: 'clip.mp4', frame_number: 17, frame_timestamp: 0.567, timestamp: '00:00:00.567' } },
      { type: 'issue', properties: { issue_type: 'duplicates', confidence: 0.977624, duplicate_group_id: 'g1' } },
      { type: 'issue', properties: { issue_type: 'blur', confidence: 1 } },
      { type: 'user_tag', properties: { tag_name: 'spider' } },
      { type: 'image_label', properties: { category_name: 'car', source: 'User' } },
      { type: 'caption', properties: { text: 'A dog playing in the field', source: 'AI model' } },
      {
        type: 'object_label',
        properties: {
          bbox: [1, 2, 3, 4],
          category_name: 'dog',
          source: 'Model',
          confidence: 0.9,
          object_id: 'o1',
          metadata_items: [{ type: 'caption', properties: { text: 'a brown dog', source: 'AI model' } }],
        },
      },
    ]);
    expect(item).toMatchObject({ image_filename: frame.image_filename, duplicate_group_id: 'g1', video_id: frame.video_id, tags: ['spider'], custom_site: 'north' });
  });

  it('an image in a folder: file_name is its last part, file_path the whole; nothing to report is an empty list', () => {
    const image: ExportItem = { ...frame, media_type: 'IMAGE', file_name: 'a/b/cat.png', video_id: null, video_name: null, frame_timestamp: null, duplicate_group: null, quality_flags: [], tags: [], label: null, caption: null, objects: null };
    const item = jsonMediaItem(metadataRow(image, true), image);
    expect(item).toMatchObject({ media_type: 'image', file_name: 'cat.png', file_path: 'a/b/cat.png', url: 'images/clip.mp4_frame-0017.jpg', metadata_items: [] });
  });
});

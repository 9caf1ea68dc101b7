import { describe, expect, it } from 'vitest';
import { exifFacts, formatBytes, formatTimestamp, valueText } from '../../web/src/media/media-format.js';
import { boxPosition } from '../../web/src/media/object-boxes.js';
import { nearestNeighbours } from '../../web/src/media/neighbours.js';

describe('media page formatting', () => {
  it('writes sizes in binary units', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(formatBytes(3 * 1024 ** 4)).toBe('3.0 TB');
  });

  it('lists the EXIF the API keeps with their terms, known ones first, the GPS position in one line', () => {
    expect(exifFacts(null)).toEqual([]);
    expect(
      exifFacts({ zoom: 2.5, gps: { latitude: 48.858370123, longitude: -2.2945, altitude: 35.04 }, model: 'X100V', captured_at: '2024-05-01T10:20:30.000Z', make: 'Fujifilm' }),
    ).toEqual([
      { term: 'Captured', value: '2024-05-01 10:20:30 UTC' },
      { term: 'Camera make', value: 'Fujifilm' },
      { term: 'Camera model', value: 'X100V' },
      { term: 'GPS position', value: '48.85837, -2.2945 (35 m)' },
      { term: 'Zoom', value: '2.5' },
    ]);
    expect(exifFacts({ orientation: 6, gps: { latitude: 1, longitude: 2 } })).toEqual([
      { term: 'Orientation', value: '6' },
      { term: 'GPS position', value: '1, 2' },
    ]);
  });

  it('writes any field value on one line', () => {
    expect(valueText(null)).toBe('—');
    expect(valueText(true)).toBe('yes');
    expect(valueText(0.123456)).toBe('0.1235');
    expect(valueText(['a', 'b'])).toBe('a, b');
    expect(valueText({ a: 1 })).toBe('{"a":1}');
  });

  it('writes a frame position as minutes and seconds', () => {
    expect(formatTimestamp(0)).toBe('0:00');
    expect(formatTimestamp(7.25)).toBe('0:07.3');
    expect(formatTimestamp(75.5)).toBe('1:15.5');
  });
});

describe('object boxes', () => {
  it('places a box in percentages of the media, so it scales with the shown picture', () => {
    expect(boxPosition({ x: 100, y: 50, width: 200, height: 100 }, { width: 400, height: 200 })).toEqual({ left: '25%', top: '25%', width: '50%', height: '50%' });
    expect(boxPosition({ x: 0, y: 0, width: 1, height: 3 }, { width: 3, height: 9 })).toEqual({ left: '0%', top: '0%', width: '33.333%', height: '33.333%' });
  });

  it('cuts a box off at the edges of the picture', () => {
    expect(boxPosition({ x: -20, y: 150, width: 100, height: 100 }, { width: 200, height: 200 })).toEqual({ left: '0%', top: '75%', width: '40%', height: '25%' });
  });
});

describe('nearest neighbours', () => {
  const preview = (media_id: string, relevance_score: number | null) => ({ media_id, file_name: `${media_id}.jpg`, media_thumb_uri: null, relevance_score });

  it('takes the closest media across clusters, without the anchor or repeats', () => {
    const clusters = [{ previews: [preview('anchor', 0), preview('b', 0.3), preview('c', 0.1)] }, { previews: [preview('d', 0.2), preview('b', 0.3), preview('e', null)] }];
    expect(nearestNeighbours(clusters, 'anchor', 3).map((p) => p.media_id)).toEqual(['c', 'd', 'b']);
    expect(nearestNeighbours(clusters, 'anchor', 10).map((p) => p.media_id)).toEqual(['c', 'd', 'b', 'e']);
    expect(nearestNeighbours([], 'anchor', 3)).toEqual([]);
  });
});
